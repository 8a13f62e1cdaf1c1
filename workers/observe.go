package workers

import (
	"time"

	"usertasks/models"
)

// RunObserver hears every run of a worker (the metrics count them and their durations by
// worker and outcome). It must not block.
type RunObserver interface {
	WorkerRun(worker, outcome string, elapsed time.Duration)
}

// Run outcomes told to the RunObserver.
const (
	RunOK      = "ok"
	RunError   = "error"
	RunSkipped = "skipped" // another node held the lease
)

// observeRun tells the observer, if any, about one run.
func (w *Workers) observeRun(worker models.Worker, skipped bool, err error, elapsed time.Duration) {
	if w.o.Observer == nil {
		return
	}
	outcome := RunOK
	switch {
	case err != nil:
		outcome = RunError
	case skipped:
		outcome = RunSkipped
	}
	w.o.Observer.WorkerRun(string(worker), outcome, elapsed)
}

// allSkipped tells whether a reconciliation reconciled no tenant here because other nodes held
// every one.
func allSkipped(run ReconcileRun) bool {
	if len(run.Tenants) == 0 {
		return false
	}
	for _, t := range run.Tenants {
		if !t.Skipped {
			return false
		}
	}
	return true
}
