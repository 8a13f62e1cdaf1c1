package workers_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/workers"
	"usertasks/workflow"
)

// The running loop claims the next rows while earlier deliveries are still in flight (issue
// 27). Two nodes run it on one outbox, batches of 8 with 3 deliveries at once and a runtime
// that takes 20 ms a stimulus, so claims overlap deliveries on both; one node shuts down
// halfway. Every operation still reaches the runtime exactly once under its one idempotency
// key, neither node ever has more than 3 deliveries in flight or more than a batch of rows
// claimed and not yet delivered, and every task ends Completed with one final event.
func TestDispatchTwoNodesPipelinedDeliverEachOperationOnce(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		const n, batch, parallel = 48, 8, 3
		nodeA, nodeB := db.open(t, nil), db.open(t, nil)
		log, _ := wkLogger(t)
		rt := newWKRuntime(t, "runtime-secret", 0, wkRemover(t, nodeA))

		ops := map[string]models.Operation{}
		tasks := make([]models.Task, 0, n)
		for i := range n {
			s := []store.Store{nodeA, nodeB}[i%2]
			task := wkProject(t, s, wkTaskOpts{})
			ops[task.ID] = wkComplete(t, s, task, wkPayload)
			tasks = append(tasks, task)
		}

		spies := map[string]*wkPipelineSpy{}
		stops := map[string]func(){}
		for owner, s := range map[string]store.Store{"node-a": nodeA, "node-b": nodeB} {
			spy := &wkPipelineSpy{Store: s}
			spy.runtime = wkSlowRuntime{RuntimeClient: rt.client(t), spy: spy}
			spies[owner] = spy
			w := workers.New(spy, spy.runtime, workers.Options{Owner: owner, Logger: log,
				DispatchEvery: 5 * time.Millisecond, SweepEvery: time.Hour, ReconcileEvery: time.Hour,
				Dispatcher: workers.DispatcherOptions{BatchSize: batch, Parallel: parallel,
					Backoff: workers.Backoff{Min: time.Millisecond, Max: 10 * time.Millisecond}}})
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- w.Run(ctx) }()
			stops[owner] = func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("%s: %v", owner, err)
				}
			}
		}
		wkEventually(t, 30*time.Second, "half the stimuli delivered", func() bool { return rt.received.Load() >= n/2 })
		stops["node-b"]() // its deliveries in flight end and are acknowledged; it claims no more
		wkEventually(t, 30*time.Second, "every task finalized", func() bool { return wkAllTerminal(t, nodeA, tasks) })
		stops["node-a"]()

		for owner, spy := range spies {
			spy.mu.Lock()
			t.Logf("%s: %d rows claimed, %d while deliveries were in flight; at most %d in flight, %d held",
				owner, spy.claimed, spy.overlapping, spy.maxFlight, spy.maxHeld)
			if spy.maxFlight > parallel {
				t.Errorf("%s had %d deliveries in flight, want at most %d", owner, spy.maxFlight, parallel)
			}
			if spy.maxHeld > batch {
				t.Errorf("%s held %d rows claimed and not yet delivered, want at most a batch of %d", owner, spy.maxHeld, batch)
			}
			spy.mu.Unlock()
		}
		if spies["node-a"].overlapping+spies["node-b"].overlapping == 0 {
			t.Error("no rows were claimed while deliveries were in flight: the pipeline was not exercised")
		}
		wkOnceEach(t, rt, nodeA, tasks, ops)
	})
}

// wkPipelineSpy is a node's store that watches its outbox claims: the rows it holds (claimed,
// delivery not yet ended) and the deliveries in flight at each claim.
type wkPipelineSpy struct {
	workers.Store
	runtime wkSlowRuntime

	mu                                       sync.Mutex
	flight, held                             int
	claimed, overlapping, maxFlight, maxHeld int
}

func (s *wkPipelineSpy) ClaimResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Resumption, error) {
	rows, err := s.Store.ClaimResumptions(ctx, owner, limit, leaseFor)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.claimed += len(rows)
	if s.flight > 0 {
		s.overlapping += len(rows)
	}
	s.held += len(rows)
	s.maxHeld = max(s.maxHeld, s.held)
	return rows, err
}

// wkSlowRuntime delivers after 20 ms and counts the deliveries in flight.
type wkSlowRuntime struct {
	workflow.RuntimeClient
	spy *wkPipelineSpy
}

func (r wkSlowRuntime) Deliver(ctx context.Context, s workflow.Stimulus) error {
	r.spy.mu.Lock()
	r.spy.flight++
	r.spy.maxFlight = max(r.spy.maxFlight, r.spy.flight)
	r.spy.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	err := r.RuntimeClient.Deliver(ctx, s)
	r.spy.mu.Lock()
	r.spy.flight--
	r.spy.held-- // the row's delivery ends here; its acknowledgement follows
	r.spy.mu.Unlock()
	return err
}
