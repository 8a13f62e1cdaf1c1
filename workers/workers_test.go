package workers_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// wkNode is one node's store, counting what that node's workers did.
type wkNode struct {
	store.Store
	claimed  atomic.Int64 // resumption rows leased
	timeouts atomic.Int64 // timeouts requested
	overdue  atomic.Int64 // overdue flags set
}

func (n *wkNode) ClaimResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Resumption, error) {
	rows, err := n.Store.ClaimResumptions(ctx, owner, limit, leaseFor)
	n.claimed.Add(int64(len(rows)))
	return rows, err
}

func (n *wkNode) Mutate(ctx context.Context, tenant, taskID, opID string, decide models.MutateFunc) (models.Change, error) {
	ch, err := n.Store.Mutate(ctx, tenant, taskID, opID, decide)
	if err == nil && ch.Event != nil {
		switch ch.Event.Type {
		case models.EventTimeoutRequested:
			n.timeouts.Add(1)
		case models.EventOverdue:
			n.overdue.Add(1)
		}
	}
	return ch, err
}

// Two nodes — each its own store, dispatcher and sweeper — work one PostgreSQL backlog of 60
// tasks while more completions arrive, against a runtime that refuses the first ten stimuli:
// nothing is lost, nothing is delivered twice after an acknowledgement, no task is finalized
// twice, every overdue task is flagged once.
func TestWorkersTwoNodesPostgres(t *testing.T) {
	db := wkPostgres(t)
	nodes := []*wkNode{{Store: db.open(t, nil)}, {Store: db.open(t, nil)}}
	seed := nodes[0].Store
	rt := newWKRuntime(t, "fleet-secret", 10, wkRemover(t, seed))
	log, logs := wkLogger(t)
	now, err := seed.Now(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	past := now.Add(-time.Minute)

	var transitional, overdue, later []models.Task
	for range 10 {
		task := wkProject(t, seed, wkTaskOpts{})
		wkComplete(t, seed, task, wkPayload)
		transitional = append(transitional, task)
	}
	for range 10 {
		later = append(later, wkProject(t, seed, wkTaskOpts{}))
	}
	for range 15 {
		transitional = append(transitional, wkProject(t, seed, wkTaskOpts{DueAt: &past, Timeout: true}))
	}
	for range 10 {
		task := wkProject(t, seed, wkTaskOpts{NoForm: true})
		wkCancel(t, seed, task, "withdrawn")
		transitional = append(transitional, task)
	}
	for range 15 {
		overdue = append(overdue, wkProject(t, seed, wkTaskOpts{DueAt: &past}))
	}
	transitional = append(transitional, later...)

	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	started := time.Now()
	for i, n := range nodes {
		w := workers.New(n, rt.client(t), workers.Options{
			Owner:          []string{"node-a", "node-b"}[i],
			DispatchEvery:  10 * time.Millisecond,
			SweepEvery:     25 * time.Millisecond,
			ReconcileAfter: time.Hour,
			Dispatcher:     workers.DispatcherOptions{BatchSize: 7, Parallel: 3, Backoff: workers.Backoff{Min: 5 * time.Millisecond, Max: 50 * time.Millisecond}},
			Sweep:          workers.SweepOptions{PageSize: 4},
			Logger:         log,
		})
		wg.Go(func() {
			if err := w.Run(ctx); err != nil {
				t.Errorf("node %d: %v", i, err)
			}
		})
	}
	for _, task := range later { // completions arriving while the nodes work
		wkComplete(t, seed, task, wkPayload)
		time.Sleep(5 * time.Millisecond)
	}
	wkEventually(t, 60*time.Second, "the backlog to drain", func() bool {
		for _, task := range transitional {
			if !wkGet(t, seed, "t1", task.ID).Status.IsTerminal() {
				return false
			}
		}
		for _, task := range overdue {
			if !wkGet(t, seed, "t1", task.ID).IsOverdue {
				return false
			}
		}
		return true
	})
	drained := time.Since(started)
	stop()
	wg.Wait()

	got := rt.deliveries()
	total, finals := 0, 0
	for _, task := range transitional {
		rows, err := seed.Resumptions(t.Context(), "t1", task.ID)
		if err != nil || len(rows) != 1 || rows[0].State == models.DeliveryPending || rows[0].Lease != nil {
			t.Fatalf("task %s outbox %+v, %v", task.ID, rows, err)
		}
		d, ok := got[rows[0].OperationID]
		if !ok {
			t.Fatalf("task %s: its stimulus was lost", task.ID)
		}
		total += d.Deliveries
		if d.Acked != 1 || d.Resumed != 1 || len(d.Keys) != 1 || !d.Keys[wkKey(task.ID, rows[0].OperationID)] {
			t.Errorf("task %s: acknowledged %d, resumed %d, keys %v", task.ID, d.Acked, d.Resumed, d.Keys)
		}
		n := wkEventCount(t, seed, "t1", task.ID, wkFinalEvents...)
		finals += n
		if n != 1 {
			t.Errorf("task %s finalized %d times", task.ID, n)
		}
	}
	overdueEvents := 0
	for _, task := range overdue {
		n := wkEventCount(t, seed, "t1", task.ID, models.EventOverdue)
		overdueEvents += n
		if n != 1 || wkGet(t, seed, "t1", task.ID).Status != models.StatusAssigned {
			t.Errorf("task %s: %d overdue events", task.ID, n)
		}
	}
	if total != len(transitional)+10 {
		t.Errorf("the runtime received %d stimuli, want %d (each once, plus the 10 it refused)", total, len(transitional)+10)
	}
	if rt.badSigs != 0 {
		t.Errorf("%d stimuli failed the signature check", rt.badSigs)
	}
	a, b := nodes[0], nodes[1]
	if a.timeouts.Load()+b.timeouts.Load() != 15 || a.overdue.Load()+b.overdue.Load() != 15 {
		t.Errorf("timeouts %d+%d, overdue %d+%d; want 15 and 15", a.timeouts.Load(), b.timeouts.Load(), a.overdue.Load(), b.overdue.Load())
	}
	if strings.Contains(logs.String(), "PAYLOAD-7f3a") {
		t.Errorf("a payload reached the logs")
	}
	for _, name := range []string{workers.SweepLease} {
		if _, err := seed.AcquireLease(t.Context(), name, "after", time.Minute); err != nil {
			t.Errorf("lease %s still held after shutdown: %v", name, err)
		}
	}
	t.Logf("60 tasks (45 transitions: 20 completed, 15 timed out, 10 cancelled; 15 overdue-only) drained in %v", drained.Round(time.Millisecond))
	t.Logf("stimuli received %d = %d operations + 10 refused; acknowledged once each; final events %d; overdue events %d",
		total, len(got), finals, overdueEvents)
	t.Logf("node-a leased %d rows, requested %d timeouts, flagged %d overdue; node-b leased %d rows, requested %d timeouts, flagged %d overdue",
		a.claimed.Load(), a.timeouts.Load(), a.overdue.Load(), b.claimed.Load(), b.timeouts.Load(), b.overdue.Load())
}

// Workers on the loopback runtime carry a completion and a timeout to their end, and Run
// returns promptly after its context ends, leaving no lease behind.
func TestWorkersRunAndShutDown(t *testing.T) {
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, _ := wkLogger(t)
	notes := &wkNotes{}
	now, _ := s.Now(t.Context())
	due := now.Add(time.Minute)
	timing := wkProject(t, s, wkTaskOpts{DueAt: &due, Timeout: true})
	completing := wkProject(t, s, wkTaskOpts{})

	w := workers.New(s, workflow.NewLoopback(s), workers.Options{
		DispatchEvery: time.Hour, SweepEvery: 20 * time.Millisecond,
		ReconcileAfter: 10 * time.Millisecond, ReconcileEvery: 30 * time.Millisecond,
		Logger: log,
	})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()

	wkComplete(t, s, completing, wkPayload)
	s.NotifyChanges(notes) // from here on: what the workers commit
	w.Kick()               // the dispatcher would otherwise wait its hour
	clock.Advance(2 * time.Minute)
	wkEventually(t, 10*time.Second, "the loopback to finish both tasks", func() bool {
		return wkGet(t, s, "t1", completing.ID).Status == models.StatusCompleted
	})
	w.Kick()
	wkEventually(t, 10*time.Second, "the timeout", func() bool {
		w.Kick()
		return wkGet(t, s, "t1", timing.ID).Status == models.StatusTimedOut
	})
	wkEventually(t, 10*time.Second, "a reconciliation", func() bool {
		_, ok := w.Reconciler.LastRun()
		return ok
	})
	// The store tells its notifier just after each commit, so a reader may see the final
	// status a moment before the notification arrives.
	wkEventually(t, 10*time.Second, "the notifications of both tasks", func() bool {
		return notes.count(timing.ID) >= 2 && notes.count(completing.ID) >= 1
	})

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	for _, name := range []string{workers.SweepLease, workers.ReconcileLeasePrefix + "t1"} {
		if _, err := s.AcquireLease(t.Context(), name, "after", time.Minute); err != nil {
			t.Errorf("lease %s still held after shutdown: %v", name, err)
		}
	}
}
