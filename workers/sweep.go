package workers

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"usertasks/models"
)

// SweepStore is what the DueSweeper needs from the store.
type SweepStore interface {
	LeaseStore
	models.Mutator
	DueTasks(ctx context.Context, limit int, after *models.Task) ([]models.Task, error)
	// DueDeadlines, FireDeadline and Managers serve the deadlines' firing (sweep_deadlines.go).
	DueDeadlines(ctx context.Context, limit int, after *models.DeadlineKey) ([]models.Deadline, error)
	FireDeadline(ctx context.Context, tenant, taskID string, index int, managers []models.ParticipantRef) (models.DeadlineFiring, error)
	Managers(ctx context.Context, tenant string, limit int) ([]models.Person, error)
	// FoldDailyStats folds the daily rollup's stripes that a closed day no longer needs; the
	// due sweep calls it at most once per FoldEvery.
	FoldDailyStats(ctx context.Context) (int, error)
	// SweepAttachmentUploads removes attachment uploads left unfinished (store.Attachments);
	// the due sweep calls it at most once per UploadSweepEvery (sweep_uploads.go).
	SweepAttachmentUploads(ctx context.Context, olderThan time.Duration, limit int) (int, error)
}

// FoldEvery is how often the due sweep folds the rollup's closed days: a day closes once a day,
// so an hourly pass keeps the dashboard's reads at one row per counter but for the last days.
const FoldEvery = time.Hour

// SweepLease is the name of the due sweep's lease.
const SweepLease = "due-sweep"

// SweepOptions tune a DueSweeper; zero values take SPEC 7's defaults.
type SweepOptions struct {
	Owner    string        // default NodeID()
	PageSize int           // default 200
	LeaseTTL time.Duration // default 5 min, renewed after every page
	Logger   *slog.Logger
	// Deadlines, when set, hears each deadline the sweep settles (New sets it from
	// Options.Observer when that counts them).
	Deadlines DeadlineObserver
}

// DueSweeper acts on tasks whose due date passed (SPEC 3.3): with the timeout enabled it
// requests the timeout (TimingOut, an accepted operation and an outbox row); otherwise it flags
// the task overdue, once. Then it fires the due deadlines (SPEC 10.4, sweep_deadlines.go). One node sweeps at a time (a named lease); and because every change
// is a revision compare-and-swap, a task another node or a person changed meanwhile is skipped,
// never written twice.
type DueSweeper struct {
	store           SweepStore
	o               SweepOptions
	log             *slog.Logger
	lastFold        time.Time // of this process; a new process folds on its first sweep
	lastUploadSweep time.Time // of this process, as lastFold
}

// NewDueSweeper builds a DueSweeper.
func NewDueSweeper(store SweepStore, o SweepOptions) *DueSweeper {
	if o.Owner == "" {
		o.Owner = NodeID()
	}
	if o.PageSize <= 0 || o.PageSize > models.MaxPageSize {
		o.PageSize = models.MaxPageSize
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 5 * time.Minute
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &DueSweeper{store: store, o: o, log: log.With("worker", "due-sweep")}
}

// SweepCounts counts what a sweep did to tasks.
type SweepCounts struct {
	TimedOut int // timeouts requested
	Overdue  int // tasks flagged overdue
	Skipped  int // tasks that answered with a conflict (changed meanwhile, not due any more)
	// Escalated counts the deadlines fired, DeadlinesSkipped those settled without firing
	// (the task was taken or closed first).
	Escalated        int
	DeadlinesSkipped int
}

// SweepResult counts what one sweep did, in all and per tenant.
type SweepResult struct {
	SweepCounts
	Busy bool // another node holds the sweep's lease; nothing was done
	// FoldedStats counts the rollup's stripe rows of closed days folded into one (SweepStore.FoldDailyStats).
	FoldedStats int
	// SweptUploads counts the unfinished attachment uploads removed (sweep_uploads.go).
	SweptUploads int
	// Tenants holds each tenant's share of the counts (tenants without any are left out).
	Tenants map[string]SweepCounts
}

// count adds one outcome for tenant to the totals and to the tenant's share.
func (r *SweepResult) count(tenant string, add func(*SweepCounts)) {
	add(&r.SweepCounts)
	if r.Tenants == nil {
		r.Tenants = map[string]SweepCounts{}
	}
	c := r.Tenants[tenant]
	add(&c)
	r.Tenants[tenant] = c
}

// RunOnce sweeps every due task once, page by page.
func (s *DueSweeper) RunOnce(ctx context.Context) (SweepResult, error) {
	var res SweepResult
	held, err := withLease(ctx, s.store, SweepLease, s.o.Owner, s.o.LeaseTTL, s.log, func(renew func() error) error {
		var after *models.Task
		for {
			page, err := s.store.DueTasks(ctx, s.o.PageSize, after)
			if err != nil {
				return err
			}
			for _, t := range page {
				if err := s.sweep(ctx, t, &res); err != nil {
					return err
				}
			}
			if len(page) < s.o.PageSize {
				break
			}
			after = &page[len(page)-1]
			if err := renew(); err != nil {
				return err // lost: another node sweeps on from here
			}
		}
		if err := s.sweepDeadlines(ctx, &res, renew); err != nil {
			return err
		}
		if res.TimedOut+res.Overdue+res.Skipped+res.Escalated+res.DeadlinesSkipped > 0 {
			s.log.Info("due sweep", "timedOut", res.TimedOut, "overdue", res.Overdue, "skipped", res.Skipped,
				"escalated", res.Escalated, "deadlinesSkipped", res.DeadlinesSkipped)
		}
		if err := s.fold(ctx, &res); err != nil {
			return err
		}
		return s.sweepUploads(ctx, &res)
	})
	res.Busy = !held && err == nil
	return res, err
}

// fold folds the rollup's closed days when FoldEvery has passed.
func (s *DueSweeper) fold(ctx context.Context, res *SweepResult) error {
	if !s.lastFold.IsZero() && time.Since(s.lastFold) < FoldEvery {
		return nil
	}
	n, err := s.store.FoldDailyStats(ctx)
	if err != nil {
		return err
	}
	s.lastFold = time.Now()
	res.FoldedStats = n
	if n > 0 {
		s.log.Info("daily rollup folded", "stripeRows", n)
	}
	return nil
}

// sweep applies the due transition to one task. Conflicts and refusals are skipped; only a
// store failure ends the run.
func (s *DueSweeper) sweep(ctx context.Context, t models.Task, res *SweepResult) error {
	ch, err := s.store.Mutate(ctx, t.Tenant, t.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		if cur.TimeoutEnabled {
			return models.RequestTimeout(cur, now)
		}
		return models.MarkOverdue(cur, now)
	})
	switch {
	case errors.Is(err, models.ErrConflict), errors.Is(err, models.ErrInvalid), errors.Is(err, models.ErrNotFound):
		res.count(t.Tenant, func(c *SweepCounts) { c.Skipped++ })
		return nil
	case errors.Is(err, models.ErrCorrupt):
		s.log.Error("due sweep skipped a corrupt task", "tenant", t.Tenant, "taskId", t.ID)
		res.count(t.Tenant, func(c *SweepCounts) { c.Skipped++ })
		return nil
	case err != nil:
		return err
	}
	if ch.Task.Status == models.StatusTimingOut {
		res.count(t.Tenant, func(c *SweepCounts) { c.TimedOut++ })
	} else {
		res.count(t.Tenant, func(c *SweepCounts) { c.Overdue++ })
	}
	return nil
}
