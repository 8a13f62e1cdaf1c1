package workers_test

import (
	"context"
	"testing"
	"time"

	"usertasks/workers"
)

// A reconciliation interval shorter than the default first delay is not held back by it: the
// first run comes within the interval, and the next ones on it.
func TestWorkersFirstReconciliationWithinTheInterval(t *testing.T) {
	s := wkSQLite(t).open(t, nil)
	log, _ := wkLogger(t)
	wkProject(t, s, wkTaskOpts{})
	w := workers.New(s, newWKFakeRuntime(), workers.Options{
		DispatchEvery: time.Hour, SweepEvery: time.Hour, ReconcileEvery: 150 * time.Millisecond, Logger: log,
	})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- w.Run(ctx) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	wkEventually(t, 10*time.Second, "a first reconciliation", func() bool {
		_, ok := w.Reconciler.LastRun()
		return ok
	})
	first, _ := w.Reconciler.LastRun()
	wkEventually(t, 10*time.Second, "a second reconciliation", func() bool {
		run, _ := w.Reconciler.LastRun()
		return run.StartedAt.After(first.FinishedAt)
	})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("two reconciliations took %v at a 150 ms interval", took)
	}
}
