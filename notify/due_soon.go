package notify

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// DueSoonStore is what the due-soon worker needs from the store.
type DueSoonStore interface {
	DueSoonTasks(ctx context.Context, from, to time.Time, after *models.Task, limit int) ([]models.Task, error)
	AddNotifications(ctx context.Context, ns []models.Notification) (int, error)
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	Now(ctx context.Context) (time.Time, error)
}

// DefaultDueSoon is how long before its due time a task is due soon (USERTASKS_DUE_SOON).
const DefaultDueSoon = 24 * time.Hour

// DueSoonOptions tune a DueSoon; zero values take the defaults.
type DueSoonOptions struct {
	// Window is USERTASKS_DUE_SOON. Default DefaultDueSoon.
	Window time.Duration
	// PageSize is how many tasks one read returns. Default 100.
	PageSize int
	// Rescan is how often the whole window is scanned again rather than only what entered it
	// since the last run: a task created, or given a due time, inside the part already scanned
	// is found then. Default 15 min.
	Rescan time.Duration
	Logger *slog.Logger
}

// DueSoon writes the due-soon notifications (SPEC 10.3): each run reads the open tasks whose
// due time entered the window (watermark, now + Window] since the last run, and writes a
// pending row per recipient (the assignee, else the candidate users; storekit.
// DeadlineRecipients) keyed by the due time in Unix seconds, so a task is told once per due
// time whichever node or run writes it first (the store skips keys that exist). The watermark
// lives in memory: a restart, and every Rescan, scans the whole window again, harmlessly.
// Not safe for concurrent RunOnce calls; one loop runs it.
type DueSoon struct {
	store    DueSoonStore
	o        DueSoonOptions
	log      *slog.Logger
	mark     time.Time // the window's end at the last successful run
	lastFull time.Time // when the whole window was last scanned
}

// NewDueSoon builds the due-soon worker on store.
func NewDueSoon(store DueSoonStore, o DueSoonOptions) *DueSoon {
	if o.Window <= 0 {
		o.Window = DefaultDueSoon
	}
	if o.PageSize <= 0 {
		o.PageSize = 100
	}
	if o.Rescan <= 0 {
		o.Rescan = 15 * time.Minute
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &DueSoon{store: store, o: o, log: log.With("worker", string(models.WorkerNotify), "part", "due-soon")}
}

// RunOnce scans what entered the window since the last run (the whole window on the first run
// and every Rescan) and writes its rows. A failed run keeps the watermark: the next run scans
// the same part again.
func (w *DueSoon) RunOnce(ctx context.Context) (Result, error) {
	var res Result
	now, err := w.store.Now(ctx)
	if err != nil {
		return res, err
	}
	from, to := w.mark, now.Add(w.o.Window)
	full := from.IsZero() || now.Sub(w.lastFull) >= w.o.Rescan
	if full || from.Before(now) {
		from = now // a task due before now is overdue: that trigger is the due sweep's
	}
	var after *models.Task
	for {
		page, err := w.store.DueSoonTasks(ctx, from, to, after, w.o.PageSize)
		if err != nil {
			return res, err
		}
		if err := w.write(ctx, page, now, &res); err != nil {
			return res, err
		}
		if len(page) < w.o.PageSize {
			break
		}
		after = &page[len(page)-1]
	}
	w.mark = to
	if full {
		w.lastFull = now
	}
	return res, nil
}

// write adds the rows of one page, a call per tenant so each tenant's run counts its own.
func (w *DueSoon) write(ctx context.Context, page []models.Task, now time.Time, res *Result) error {
	byTenant := map[string][]models.Notification{}
	for i := range page {
		t := page[i]
		if t.Assignee == nil {
			// The scan's items carry the task's own columns; the candidate users (and the
			// exclusions) are the whole task's.
			full, err := w.store.Get(ctx, t.Tenant, t.ID)
			switch {
			case errors.Is(err, models.ErrNotFound):
				continue // purged meanwhile
			case err != nil:
				return err
			}
			t = full
		}
		for _, n := range dueSoonRows(&t, now) {
			byTenant[n.Tenant] = append(byTenant[n.Tenant], n)
		}
	}
	tenants := make([]string, 0, len(byTenant))
	for tenant := range byTenant {
		tenants = append(tenants, tenant)
	}
	slices.Sort(tenants)
	for _, tenant := range tenants {
		n, err := w.store.AddNotifications(ctx, byTenant[tenant])
		if err != nil {
			return err
		}
		if n > 0 {
			res.count(tenant, Counts{DueSoon: n})
		}
	}
	return nil
}

// dueSoonRows are t's due-soon rows: one per deadline recipient who may be told, keyed by the
// due time (once per due time), from the system (no actor).
func dueSoonRows(t *models.Task, now time.Time) []models.Notification {
	if t.DueAt == nil || !t.Status.IsOpen() {
		return nil
	}
	var out []models.Notification
	seen := map[string]bool{}
	for _, r := range storekit.DeadlineRecipients(t) {
		r.Tenant = t.Tenant
		if !storekit.Notifiable(t, r) || seen[r.Key()] {
			continue
		}
		seen[r.Key()] = true
		out = append(out, storekit.NewNotification(t, models.TriggerDueSoon, t.DueAt.Unix(), r, nil, now))
	}
	return out
}
