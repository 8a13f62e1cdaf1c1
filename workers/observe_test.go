package workers_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"usertasks/workers"
)

// runRecorder is a RunObserver that keeps what it heard.
type runRecorder struct {
	mu   sync.Mutex
	runs map[string]int
}

func (r *runRecorder) WorkerRun(worker, outcome string, elapsed time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if elapsed < 0 {
		outcome = "negative"
	}
	r.runs[worker+"/"+outcome]++
}

func (r *runRecorder) count(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runs[key]
}

// Every worker tells the observer about each run, by worker and outcome.
func TestWorkersObserveRuns(t *testing.T) {
	s := wkSQLite(t).open(t, nil)
	log, _ := wkLogger(t)
	wkProject(t, s, wkTaskOpts{})
	rec := &runRecorder{runs: map[string]int{}}
	w := workers.New(s, newWKFakeRuntime(), workers.Options{
		DispatchEvery: 100 * time.Millisecond, SweepEvery: 100 * time.Millisecond, ReconcileEvery: 100 * time.Millisecond,
		Logger: log, Observer: rec,
	})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	for _, key := range []string{"resumption-outbox/ok", "due-sweep/ok", "reconciliation/ok"} {
		wkEventually(t, 10*time.Second, key, func() bool { return rec.count(key) > 0 })
	}
	if n := rec.count("resumption-outbox/negative"); n != 0 {
		t.Fatalf("%d runs with a negative duration", n)
	}
}
