package workers

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"usertasks/models"
	"usertasks/workflow"
)

// PurgeStore is what the Purger needs from the store.
type PurgeStore interface {
	LeaseStore
	RunStore
	Tenants(ctx context.Context) ([]string, error)
	Purge(ctx context.Context, tenant string, p models.RetentionPolicy, progress func(models.PurgeCounts)) (models.PurgeCounts, error)
}

// PurgeLease is the name of the retention purge's lease: one node (or one `web purge`) at a time.
const PurgeLease = "purge"

// PurgeOptions tune a Purger.
type PurgeOptions struct {
	Owner    string // default NodeID()
	Policy   models.RetentionPolicy
	LeaseTTL time.Duration // default 10 min, renewed after every page
	Logger   *slog.Logger
	// Progress, when set, receives a tenant's running totals after every page (a dry run:
	// once per tenant).
	Progress func(tenant string, c models.PurgeCounts)
}

// Purger applies the retention policy (SPEC 7, off by default) tenant by tenant. Real runs are
// recorded as worker runs, one per tenant, with the counts; dry runs are not recorded.
type Purger struct {
	store PurgeStore
	o     PurgeOptions
	log   *slog.Logger
	rec   *runRecorder
}

// NewPurger builds a Purger.
func NewPurger(store PurgeStore, o PurgeOptions) *Purger {
	if o.Owner == "" {
		o.Owner = NodeID()
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 10 * time.Minute
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("worker", "purge")
	return &Purger{store: store, o: o, log: log, rec: newRunRecorder(store, log)}
}

// PurgeResult is what one purge did per tenant.
type PurgeResult struct {
	Busy    bool // another node holds the purge's lease; nothing was done
	Tenants map[string]models.PurgeCounts
	Total   models.PurgeCounts
}

// RunOnce purges tenant, or every tenant the store knows when tenant is "". It stops at the
// first failure (what was committed stays; the next run goes on from there).
func (p *Purger) RunOnce(ctx context.Context, tenant string) (PurgeResult, error) {
	res := PurgeResult{Tenants: map[string]models.PurgeCounts{}}
	held, err := withLease(ctx, p.store, PurgeLease, p.o.Owner, p.o.LeaseTTL, p.log, func(renew func() error) error {
		tenants := []string{tenant}
		if tenant == "" {
			var err error
			if tenants, err = p.store.Tenants(ctx); err != nil {
				return err
			}
		}
		for _, t := range tenants {
			if err := p.tenant(ctx, t, renew, &res); err != nil {
				return err
			}
		}
		return nil
	})
	res.Busy = !held && err == nil
	return res, err
}

// tenant purges one tenant, renewing the lease after every page, and records the run.
func (p *Purger) tenant(ctx context.Context, tenant string, renew func() error, res *PurgeResult) error {
	run, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	start := time.Now()
	counts, err := p.store.Purge(run, tenant, p.o.Policy, func(c models.PurgeCounts) {
		if p.o.Progress != nil {
			p.o.Progress(tenant, c)
		}
		if p.o.Policy.DryRun {
			return
		}
		if err := renew(); err != nil {
			cancel(err) // another node goes on from here
		}
	})
	if cause := context.Cause(run); err != nil && cause != nil && !errors.Is(cause, context.Canceled) {
		err = cause
	}
	res.Tenants[tenant] = counts
	res.Total.Add(counts)
	if !p.o.Policy.DryRun {
		r := models.WorkerRun{Worker: models.WorkerPurge, Tenant: tenant, Elapsed: time.Since(start), Counts: counts.Map()}
		switch {
		case errors.Is(err, context.Canceled):
			r.ErrorCode = "cancelled"
		case err != nil:
			r.ErrorCode = workflow.RuntimeErrorCode(err)
		}
		p.rec.record(ctx, []models.WorkerRun{r})
		if counts.Total() > 0 {
			p.log.Info("purged", "tenant", tenant, "tasks", counts.Tasks, "invitations", counts.Invitations,
				"guestSessions", counts.GuestSessions, "deliveries", counts.Deliveries, "resumptions", counts.Resumptions)
		}
	}
	return err
}
