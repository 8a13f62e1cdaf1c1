package workers

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"usertasks/models"
	"usertasks/workflow"
)

// ReconcileStore is what the Reconciler needs from the store.
type ReconcileStore interface {
	LeaseStore
	models.Mutator
	Tenants(ctx context.Context) ([]string, error)
	KnownBookmarks(ctx context.Context, tenant string, bookmarkIDs []string) (map[string]bool, error)
	ReconcileTasks(ctx context.Context, tenant string, skipTouchedWithin time.Duration, afterID string, limit int) ([]models.Task, error)
	AcceptedOperation(ctx context.Context, tenant, taskID string) (*models.Operation, error)
	RequeueResumption(ctx context.Context, tenant, taskID, operationID string) (bool, error)
	SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error
	ClearHealth(ctx context.Context, tenant, taskID, code string) error
}

// BookmarkProjector materializes a committed bookmark that has no task: the same path as POST
// /api/v1/runtime/bookmarks, given the projection body the runtime listed. It is idempotent
// and reports whether it created the task.
type BookmarkProjector interface {
	Project(ctx context.Context, tenant string, body json.RawMessage) (created bool, err error)
}

// ReconcileLeasePrefix prefixes the per-tenant lease of the reconciliation: "reconcile:<tenant>".
const ReconcileLeasePrefix = "reconcile:"

// ReconcilerOptions tune a Reconciler; zero values take SPEC 7's defaults.
type ReconcilerOptions struct {
	Owner string // default NodeID()
	// PageSize is the page of bookmarks and of tasks. Default 100.
	PageSize int
	// SkipTouchedWithin leaves tasks alone that changed this recently. Default 5 min.
	SkipTouchedWithin time.Duration
	// LeaseTTL bounds a tenant's lease, renewed after every page. Default 5 min.
	LeaseTTL time.Duration
	// Tenants are reconciled besides those the store knows (a tenant whose first projection
	// never arrived has no task yet).
	Tenants []string
	// MaxRemembered bounds the bookmark ids kept from the listing to spare per-task lookups;
	// beyond it tasks are checked one by one. Default 200,000.
	MaxRemembered int
	Logger        *slog.Logger
}

// ReconcileCounts is what a reconciliation did (SPEC 7).
type ReconcileCounts struct {
	Recreated int `json:"recreated"` // committed bookmarks without a task, projected again
	Requeued  int `json:"requeued"`  // stale transitions whose stimulus was queued again
	Finalized int `json:"finalized"` // tasks whose bookmark is gone, closed
	// Ambiguous counts tasks left alone because nothing clear could be decided: transitional
	// tasks without a matching accepted operation, and tasks whose bookmark the runtime
	// answered for unclearly (anything but the bookmark or the exact bookmark-not-found).
	Ambiguous int `json:"ambiguous"`
}

func (c *ReconcileCounts) add(o ReconcileCounts) {
	c.Recreated += o.Recreated
	c.Requeued += o.Requeued
	c.Finalized += o.Finalized
	c.Ambiguous += o.Ambiguous
}

// TenantReconcile is the outcome of one tenant's reconciliation.
type TenantReconcile struct {
	ReconcileCounts
	Skipped bool   `json:"skipped,omitempty"` // another node held the tenant's lease
	Error   string `json:"error,omitempty"`   // a safe code when the run stopped early
}

// ReconcileRun is the last run's result, kept in memory for the managers' page.
type ReconcileRun struct {
	StartedAt  time.Time                  `json:"startedAt"`
	FinishedAt time.Time                  `json:"finishedAt"`
	Totals     ReconcileCounts            `json:"totals"`
	Tenants    map[string]TenantReconcile `json:"tenants"`
}

// Reconciler brings tasks and the runtime's committed bookmarks back into agreement (SPEC 7):
// it recreates missing projections, queues stale transitions' stimuli again, finalizes tasks
// whose bookmark is gone and reports ambiguous transitions. One node reconciles a tenant at a
// time (a named lease); every change is a revision compare-and-swap.
type Reconciler struct {
	store     ReconcileStore
	runtime   workflow.RuntimeClient
	projector BookmarkProjector
	o         ReconcilerOptions
	log       *slog.Logger

	mu   sync.Mutex
	last *ReconcileRun
}

// NewReconciler builds a Reconciler; projector may be nil, and then missing projections are
// only logged.
func NewReconciler(store ReconcileStore, runtime workflow.RuntimeClient, projector BookmarkProjector, o ReconcilerOptions) *Reconciler {
	if o.Owner == "" {
		o.Owner = NodeID()
	}
	if o.PageSize <= 0 || o.PageSize > models.MaxPageSize {
		o.PageSize = 100
	}
	if o.SkipTouchedWithin <= 0 {
		o.SkipTouchedWithin = 5 * time.Minute
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 5 * time.Minute
	}
	if o.MaxRemembered <= 0 {
		o.MaxRemembered = 200_000
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Reconciler{store: store, runtime: runtime, projector: projector, o: o, log: log.With("worker", "reconciliation")}
}

// LastRun returns the result of the last finished run on this node.
func (r *Reconciler) LastRun() (ReconcileRun, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		return ReconcileRun{}, false
	}
	run := *r.last
	run.Tenants = make(map[string]TenantReconcile, len(r.last.Tenants))
	for k, v := range r.last.Tenants {
		run.Tenants[k] = v
	}
	return run, true
}

// RunOnce reconciles every tenant and records the run for LastRun. A tenant that fails is
// reported and the others still run; the first error is returned.
func (r *Reconciler) RunOnce(ctx context.Context) (ReconcileRun, error) {
	run := ReconcileRun{StartedAt: time.Now().UTC(), Tenants: map[string]TenantReconcile{}}
	tenants, err := r.tenants(ctx)
	if err != nil {
		return run, err
	}
	var first error
	for _, tenant := range tenants {
		res, err := r.ReconcileTenant(ctx, tenant)
		if err != nil {
			res.Error = workflow.RuntimeErrorCode(err)
			if first == nil {
				first = err
			}
			r.log.Warn("reconciliation stopped", "tenant", tenant, "code", res.Error)
		}
		run.Tenants[tenant] = res
		run.Totals.add(res.ReconcileCounts)
		if ctx.Err() != nil {
			break
		}
	}
	run.FinishedAt = time.Now().UTC()
	r.mu.Lock()
	r.last = &run
	r.mu.Unlock()
	t := run.Totals
	r.log.Info("reconciliation", "tenants", len(run.Tenants), "recreated", t.Recreated, "requeued", t.Requeued,
		"finalized", t.Finalized, "ambiguous", t.Ambiguous)
	return run, first
}

// tenants are the tenants a run visits, each once: those the store knows, then the configured
// ones (ReconcilerOptions.Tenants) it does not know yet.
func (r *Reconciler) tenants(ctx context.Context) ([]string, error) {
	known, err := r.store.Tenants(ctx)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(known)+len(r.o.Tenants))
	out := make([]string, 0, len(known)+len(r.o.Tenants))
	for _, list := range [][]string{known, r.o.Tenants} {
		for _, tenant := range list {
			if tenant != "" && !seen[tenant] {
				seen[tenant] = true
				out = append(out, tenant)
			}
		}
	}
	return out, nil
}

// ReconcileTenant reconciles one tenant under its lease: first the runtime's bookmarks (recreate
// what is missing), then our tasks that nothing touched lately.
func (r *Reconciler) ReconcileTenant(ctx context.Context, tenant string) (TenantReconcile, error) {
	var res TenantReconcile
	held, err := withLease(ctx, r.store, ReconcileLeasePrefix+tenant, r.o.Owner, r.o.LeaseTTL, r.log.With("tenant", tenant),
		func(renew func() error) error {
			listed, err := r.bookmarks(ctx, tenant, &res.ReconcileCounts, renew)
			if err != nil {
				return err
			}
			err = r.tasks(ctx, tenant, &tenantPass{listed: listed, counts: &res.ReconcileCounts}, renew)
			if c := res.ReconcileCounts; c != (ReconcileCounts{}) {
				r.log.Info("reconciled tenant", "tenant", tenant, "recreated", c.Recreated, "requeued", c.Requeued,
					"finalized", c.Finalized, "ambiguous", c.Ambiguous)
			}
			return err
		})
	res.Skipped = !held && err == nil
	return res, err
}

// listedBookmark is the part of a projection body the reconciliation reads.
type listedBookmark struct {
	BookmarkID string `json:"bookmarkId"`
}

// bookmarks pages through the runtime's committed bookmarks, projects those without a task,
// and returns the listed bookmark ids (nil when there were more than MaxRemembered).
func (r *Reconciler) bookmarks(ctx context.Context, tenant string, c *ReconcileCounts, renew func() error) (map[string]bool, error) {
	listed := map[string]bool{}
	cursor := ""
	for {
		items, next, err := r.runtime.ListBookmarks(ctx, tenant, cursor, r.o.PageSize)
		if err != nil {
			return nil, err
		}
		ids := make([]string, 0, len(items))
		bodies := make(map[string]json.RawMessage, len(items))
		for _, item := range items {
			var ref listedBookmark
			if err := json.Unmarshal(item, &ref); err != nil || ref.BookmarkID == "" {
				r.log.Warn("the runtime listed a bookmark without an id", "tenant", tenant)
				continue
			}
			ids = append(ids, ref.BookmarkID)
			bodies[ref.BookmarkID] = item
			if listed != nil {
				listed[ref.BookmarkID] = true
				if len(listed) > r.o.MaxRemembered {
					listed = nil
				}
			}
		}
		known, err := r.store.KnownBookmarks(ctx, tenant, ids)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if known[id] {
				continue
			}
			if r.projector == nil {
				r.log.Warn("a committed bookmark has no task and no projector is configured", "tenant", tenant, "bookmarkId", id)
				continue
			}
			created, err := r.projector.Project(ctx, tenant, bodies[id])
			switch {
			case err == nil && created:
				c.Recreated++
			case errors.Is(err, models.ErrInvalid), errors.Is(err, models.ErrCapacity):
				// The body is refused as it would be on the projection endpoint; the runtime
				// must fix it. Nothing here can.
				r.log.Warn("a committed bookmark cannot be projected", "tenant", tenant, "bookmarkId", id, "code", workflow.RuntimeErrorCode(err))
			case err != nil:
				return nil, err
			}
		}
		if next == "" {
			return listed, nil
		}
		cursor = next
		if err := renew(); err != nil {
			return nil, err
		}
	}
}

// tenantPass is the state of one pass over a tenant's tasks.
type tenantPass struct {
	listed     map[string]bool // the runtime's listed bookmark ids; nil when too many to remember
	counts     *ReconcileCounts
	unanswered int // bookmark GETs in a row that got no answer at all
}

// maxUnanswered is how many bookmark GETs in a row may get no answer (no connection, a
// timeout) before the tenant's run stops: the runtime is unreachable, and asking for every
// other task would only wait out a timeout each.
const maxUnanswered = 3

// tasks pages through the tenant's open and transitional tasks that nothing touched lately and
// settles each against the runtime.
func (r *Reconciler) tasks(ctx context.Context, tenant string, p *tenantPass, renew func() error) error {
	after := ""
	for {
		page, err := r.store.ReconcileTasks(ctx, tenant, r.o.SkipTouchedWithin, after, r.o.PageSize)
		if err != nil {
			return err
		}
		for _, t := range page {
			if err := r.task(ctx, t, p); err != nil {
				return err
			}
		}
		if len(page) < r.o.PageSize {
			return nil
		}
		after = page[len(page)-1].ID
		if err := renew(); err != nil {
			return err
		}
	}
}

// errChangedMeanwhile skips a task that changed since its page was read: the next run decides.
var errChangedMeanwhile = errors.New("workflow: the task changed during reconciliation")

// task reconciles one task:
//   - open, bookmark committed: in agreement;
//   - open, bookmark gone: finalized as Cancelled;
//   - transitional, bookmark committed: a stale transition — its stimulus is queued again;
//   - transitional, bookmark gone: finalized when the accepted operation matches the status
//     (Completing needs an accepted complete, TimingOut a timeout, Cancelling a cancel);
//   - transitional without a matching accepted operation: ambiguous, reported, never guessed;
//   - the runtime's answer about the bookmark unclear: ambiguous, reported, nothing changed.
//
// "Gone" is only ever the runtime's explicit answer (GetBookmark's found=false without error).
func (r *Reconciler) task(ctx context.Context, t models.Task, p *tenantPass) error {
	log := r.log.With("tenant", t.Tenant, "taskId", t.ID)
	c := p.counts
	exists := p.listed[t.Workflow.BookmarkID]
	if !exists {
		// Not in the listing (or the listing was too long to remember): ask for this one, so a
		// bookmark committed after its page was read is never taken for a removed one.
		found, _, err := r.runtime.GetBookmark(ctx, t.Tenant, t.Workflow.BookmarkID)
		if err != nil {
			return r.unclearAnswer(ctx, t, p, err)
		}
		p.unanswered = 0
		exists = found
	}
	if exists && t.Health.Code == models.HealthRuntimeAnswerAmbiguous {
		r.clearFinding(ctx, t, models.HealthRuntimeAnswerAmbiguous)
	}

	var op *models.Operation
	if t.Status.IsTransitional() {
		var err error
		op, err = r.store.AcceptedOperation(ctx, t.Tenant, t.ID)
		switch {
		case errors.Is(err, models.ErrNotFound):
			op = nil
		case err != nil:
			return err
		}
		if op == nil || op.Kind != acceptedKindFor(t.Status) {
			c.Ambiguous++
			log.Warn("ambiguous transition: no matching accepted operation", "status", string(t.Status), "bookmarkExists", exists)
			r.flag(ctx, t, models.HealthStaleTransition, "The task is waiting for the workflow without a matching accepted decision; check the workflow.")
			return nil
		}
	}

	switch {
	case exists && t.Status.IsOpen():
		return nil
	case exists:
		requeued, err := r.store.RequeueResumption(ctx, t.Tenant, t.ID, op.OperationID)
		switch {
		case errors.Is(err, models.ErrNotFound):
			c.Ambiguous++
			log.Warn("ambiguous transition: the accepted operation has no outbox row", "operationId", op.OperationID)
			r.flag(ctx, t, models.HealthStaleTransition, "The task's decision was never queued for the workflow; check the workflow.")
			return nil
		case err != nil:
			return err
		case requeued:
			c.Requeued++
			log.Info("stale transition queued again", "operationId", op.OperationID)
		}
		return nil
	}

	ch, err := workflow.CloseRemovedBookmark(ctx, r.store, t.Tenant, t.ID, func(cur models.Task) error {
		if cur.Revision != t.Revision || cur.Status != t.Status {
			return errChangedMeanwhile
		}
		return nil
	})
	switch {
	case errors.Is(err, errChangedMeanwhile), errors.Is(err, models.ErrConflict), errors.Is(err, models.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	c.Finalized++
	log.Info("finalized a task whose bookmark is gone", "status", string(ch.Task.Status))
	return nil
}

// unclearAnswer settles a task whose bookmark GET brought neither the bookmark nor the exact
// bookmark-not-found answer (SPEC 5.2): nothing is decided, the task is counted ambiguous and
// flagged. Our own failures (the run's context, the store behind the loopback) stop the run,
// and so does a runtime that has not answered maxUnanswered times in a row.
func (r *Reconciler) unclearAnswer(ctx context.Context, t models.Task, p *tenantPass, err error) error {
	var re *workflow.RuntimeError
	if ctx.Err() != nil || !errors.As(err, &re) {
		return err
	}
	p.counts.Ambiguous++
	// The code only: the runtime's answer is never kept.
	r.log.Warn("ambiguous runtime answer: the task is left as it is", "tenant", t.Tenant, "taskId", t.ID, "code", re.Code)
	r.flag(ctx, t, models.HealthRuntimeAnswerAmbiguous,
		"The workflow runtime gave no clear answer about this task's bookmark; reconciliation left the task as it is.")
	if re.Status != 0 {
		p.unanswered = 0
		return nil
	}
	p.unanswered++
	if p.unanswered >= maxUnanswered {
		return err
	}
	return nil
}

// flag sets an advisory finding, unless the task has a finding already.
func (r *Reconciler) flag(ctx context.Context, t models.Task, code, message string) {
	if t.Health.Severity != models.SeverityNone {
		return
	}
	h := models.Health{Severity: models.SeverityAdvisory, Code: code, Message: message}
	if err := r.store.SetHealth(ctx, t.Tenant, t.ID, h); err != nil {
		r.log.Warn("set health", "tenant", t.Tenant, "taskId", t.ID, "code", workflow.RuntimeErrorCode(err))
	}
}

// clearFinding removes the task's advisory finding code once what raised it is settled.
func (r *Reconciler) clearFinding(ctx context.Context, t models.Task, code string) {
	if err := r.store.ClearHealth(ctx, t.Tenant, t.ID, code); err != nil {
		r.log.Warn("clear health", "tenant", t.Tenant, "taskId", t.ID, "code", workflow.RuntimeErrorCode(err))
	}
}

// acceptedKindFor is the operation that enters a transitional status.
func acceptedKindFor(s models.Status) models.OperationKind {
	switch s {
	case models.StatusCompleting:
		return models.OpComplete
	case models.StatusTimingOut:
		return models.OpTimeout
	case models.StatusCancelling:
		return models.OpCancel
	}
	return ""
}
