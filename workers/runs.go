package workers

import (
	"context"
	"log/slog"
	"time"

	"usertasks/models"
	"usertasks/workflow"
)

// Worker runs are recorded in the store (store.Workers.RecordWorkerRuns), so a manager's
// runs page shows them whichever node served it:
//
//   - reconciliation: one run per tenant this node reconciled (a tenant another node held is
//     that node's to record), with its counts and the safe code it stopped with, if any;
//   - due sweep: one run for all tenants (models.AllTenants: timing and error code only) and
//     one per tenant it changed something in, with that tenant's counts;
//   - resumption outbox: the dispatcher polls every second, so it does not write a run per
//     poll. It aggregates per tenant and records the window at most once per
//     DispatchRecordEvery, and only when it delivered, retried or skipped something or a poll
//     failed (a failure is an all-tenants run with the code). An idle dispatcher writes nothing.
//
// Recording is bookkeeping: a failure to record is logged and never stops a worker.

// RunStore records worker runs.
type RunStore interface {
	RecordWorkerRuns(ctx context.Context, runs []models.WorkerRun) error
}

// DispatchRecordEvery is the shortest window of the dispatcher's aggregated runs.
const DispatchRecordEvery = time.Minute

// reconcileRuns are the runs to record for a reconciliation that took elapsed and ended with
// err: one per tenant reconciled here, or one for all tenants when none could be listed.
func reconcileRuns(run ReconcileRun, err error, elapsed time.Duration) []models.WorkerRun {
	var out []models.WorkerRun
	for tenant, res := range run.Tenants {
		if res.Skipped {
			continue
		}
		c := res.ReconcileCounts
		out = append(out, models.WorkerRun{Worker: models.WorkerReconciliation, Tenant: tenant, Elapsed: elapsed, ErrorCode: res.Error,
			Counts: map[string]int{"recreated": c.Recreated, "requeued": c.Requeued, "finalized": c.Finalized, "ambiguous": c.Ambiguous}})
	}
	if len(run.Tenants) == 0 && err != nil {
		out = append(out, models.WorkerRun{Worker: models.WorkerReconciliation, Tenant: models.AllTenants, Elapsed: elapsed,
			ErrorCode: workflow.RuntimeErrorCode(err)})
	}
	return out
}

// sweepRuns are the runs to record for a sweep: nothing when another node held the lease.
func sweepRuns(res SweepResult, err error, elapsed time.Duration) []models.WorkerRun {
	if res.Busy {
		return nil
	}
	all := models.WorkerRun{Worker: models.WorkerDueSweep, Tenant: models.AllTenants, Elapsed: elapsed}
	if err != nil {
		all.ErrorCode = workflow.RuntimeErrorCode(err)
	}
	out := []models.WorkerRun{all}
	for tenant, c := range res.Tenants {
		out = append(out, models.WorkerRun{Worker: models.WorkerDueSweep, Tenant: tenant, Elapsed: elapsed,
			Counts: map[string]int{"timedOut": c.TimedOut, "overdue": c.Overdue, "skipped": c.Skipped,
				"escalated": c.Escalated, "deadlinesSkipped": c.DeadlinesSkipped}})
	}
	return out
}

// tally is a polling worker's counts for one tenant: they add up, and name their worker and
// their counts in a recorded run.
type tally[C any] interface {
	*C
	add(C)
	recorded() (models.Worker, map[string]int)
}

// runWindow aggregates a polling worker's runs between two recordings.
type runWindow[C any, P tally[C]] struct {
	start   time.Time
	tenants map[string]C
	errCode string
}

// fold adds one run's per-tenant counts and error to the window.
func (w *runWindow[C, P]) fold(tenants map[string]C, err error, now time.Time) {
	if w.start.IsZero() {
		w.start = now
	}
	for tenant, c := range tenants {
		if w.tenants == nil {
			w.tenants = map[string]C{}
		}
		sum := w.tenants[tenant]
		P(&sum).add(c)
		w.tenants[tenant] = sum
	}
	if err != nil {
		w.errCode = workflow.RuntimeErrorCode(err)
	}
}

// take returns the window's runs and starts a new window when the window is at least every
// long (or force) and holds something to record; otherwise nil.
func (w *runWindow[C, P]) take(now time.Time, every time.Duration, force bool) []models.WorkerRun {
	if w.start.IsZero() || (!force && now.Sub(w.start) < every) {
		return nil
	}
	elapsed := now.Sub(w.start)
	var zero C
	worker, _ := P(&zero).recorded()
	var out []models.WorkerRun
	for tenant, c := range w.tenants {
		_, counts := P(&c).recorded()
		out = append(out, models.WorkerRun{Worker: worker, Tenant: tenant, Elapsed: elapsed, Counts: counts})
	}
	if w.errCode != "" {
		out = append(out, models.WorkerRun{Worker: worker, Tenant: models.AllTenants, Elapsed: elapsed, ErrorCode: w.errCode})
	}
	*w = runWindow[C, P]{}
	return out
}

// dispatchWindow aggregates the dispatcher's polls between two recordings.
type dispatchWindow struct {
	runWindow[DispatchCounts, *DispatchCounts]
}

// add folds one poll into the window.
func (w *dispatchWindow) add(res DispatchResult, err error, now time.Time) {
	w.fold(res.Tenants, err, now)
}

func (c DispatchCounts) recorded() (models.Worker, map[string]int) {
	return models.WorkerDispatcher, map[string]int{"claimed": c.Claimed, "delivered": c.Delivered, "failed": c.Failed, "skipped": c.Skipped}
}

// runRecorder stores runs and logs, without flooding, when it cannot.
type runRecorder struct {
	store  RunStore
	report failureReporter
}

func newRunRecorder(store RunStore, log *slog.Logger) *runRecorder {
	return &runRecorder{store: store, report: failureReporter{log: log, worker: "worker-runs"}}
}

// record stores runs with a context that outlives a shutdown briefly.
func (r *runRecorder) record(ctx context.Context, runs []models.WorkerRun) {
	if r == nil || r.store == nil || len(runs) == 0 {
		return
	}
	book, cancel := bookkeeping(ctx)
	defer cancel()
	r.report.outcome(r.store.RecordWorkerRuns(book, runs))
}
