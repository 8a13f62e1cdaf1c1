package workers_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// Two nodes (two stores on one database, a dispatcher each) deliver one outbox at once, each
// looping on full batches of 8 with 8 deliveries in flight: every operation reaches the runtime
// exactly once under its one idempotency key, no row is claimed by both, every task ends
// Completed with one final event. Then a node that claimed rows and stalled: once its leases
// have expired the other node delivers them, and the stalled node's late acknowledgement is
// refused (the leases are fenced), so the runtime still resumes each operation once.
func TestDispatchTwoNodesDeliverEachOperationOnce(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		ctx := t.Context()
		clockB := &testfactory.Clock{}
		nodeA, nodeB := db.open(t, nil), db.open(t, clockB)
		log, _ := wkLogger(t)
		rt := newWKRuntime(t, "runtime-secret", 0, wkRemover(t, nodeA))

		const n = 40
		ops := map[string]models.Operation{}
		tasks := make([]models.Task, 0, n)
		for i := range n {
			s := nodeA
			if i%2 == 1 {
				s = nodeB // both nodes write the outbox
			}
			task := wkProject(t, s, wkTaskOpts{})
			ops[task.ID] = wkComplete(t, s, task, wkPayload)
			tasks = append(tasks, task)
		}

		opts := func(owner string) workers.DispatcherOptions {
			return workers.DispatcherOptions{Owner: owner, BatchSize: 8, Parallel: 8, Logger: log,
				Backoff: workers.Backoff{Min: time.Millisecond, Max: 10 * time.Millisecond}}
		}
		dispatchers := map[string]*workers.Dispatcher{
			"node-a": workers.NewDispatcher(nodeA, rt.client(t), opts("node-a")),
			"node-b": workers.NewDispatcher(nodeB, rt.client(t), opts("node-b")),
		}
		var mu sync.Mutex
		claimed := map[string]int{}
		var wg sync.WaitGroup
		for owner, d := range dispatchers {
			wg.Go(func() {
				deadline := time.Now().Add(30 * time.Second)
				for time.Now().Before(deadline) {
					res, err := d.RunOnce(ctx)
					if err != nil {
						t.Errorf("%s: %v", owner, err)
						return
					}
					mu.Lock()
					claimed[owner] += res.Claimed
					mu.Unlock()
					if res.Claimed == 0 && wkAllTerminal(t, nodeA, tasks) {
						return
					}
				}
				t.Errorf("%s: the tasks were not all finalized within 30 s", owner)
			})
		}
		wg.Wait()
		if claimed["node-a"]+claimed["node-b"] != n {
			t.Errorf("rows claimed %v, want %d in all (no row claimed by both nodes)", claimed, n)
		}
		t.Logf("rows claimed per node: %v", claimed)
		wkOnceEach(t, rt, nodeA, tasks, ops)

		// A node claims rows and stalls; the other takes them over once the leases expired.
		stalled := make([]models.Task, 0, 4)
		for range 4 {
			task := wkProject(t, nodeA, wkTaskOpts{})
			ops[task.ID] = wkComplete(t, nodeA, task, wkPayload)
			stalled = append(stalled, task)
		}
		held, err := nodeA.ClaimResumptions(ctx, "node-a", 8, time.Minute)
		if err != nil || len(held) != len(stalled) {
			t.Fatalf("the stalled node claimed %d rows, %v; want %d", len(held), err, len(stalled))
		}
		if res, err := dispatchers["node-b"].RunOnce(ctx); err != nil || res.Claimed != 0 {
			t.Fatalf("while the leases are live the other node claimed %+v, %v; want nothing", res, err)
		}
		clockB.Advance(2 * time.Minute)
		if res, err := dispatchers["node-b"].RunOnce(ctx); err != nil || res.Delivered != len(stalled) {
			t.Fatalf("after the leases expired the other node delivered %+v, %v; want %d", res, err, len(stalled))
		}
		for _, r := range held {
			if err := nodeA.AckResumption(ctx, r); !errors.Is(err, models.ErrLeaseLost) {
				t.Errorf("the stalled node's late acknowledgement: %v, want ErrLeaseLost", err)
			}
		}
		wkEventually(t, 10*time.Second, "the taken-over tasks to be finalized", func() bool { return wkAllTerminal(t, nodeA, stalled) })
		wkOnceEach(t, rt, nodeA, append(tasks, stalled...), ops)
	})
}

// wkAllTerminal reports whether every task has ended.
func wkAllTerminal(t *testing.T, s store.Store, tasks []models.Task) bool {
	t.Helper()
	for _, task := range tasks {
		if !wkGet(t, s, task.Tenant, task.ID).Status.IsTerminal() {
			return false
		}
	}
	return true
}

// wkOnceEach checks that each task's operation reached the runtime once, under its one
// idempotency key, and that the task ended Completed with one final event and its outbox row
// no longer pending.
func wkOnceEach(t *testing.T, rt *wkRuntime, s store.Store, tasks []models.Task, ops map[string]models.Operation) {
	t.Helper()
	got := rt.deliveries()
	for _, task := range tasks {
		op := ops[task.ID]
		g := got[op.OperationID]
		if g.Deliveries != 1 || g.Acked != 1 || g.Resumed != 1 || len(g.Keys) != 1 || !g.Keys[wkKey(task.ID, op.OperationID)] {
			t.Errorf("operation %s: delivered %d, acknowledged %d, resumed %d times with keys %v; want once each with %s",
				op.OperationID, g.Deliveries, g.Acked, g.Resumed, g.Keys, wkKey(task.ID, op.OperationID))
		}
		if cur := wkGet(t, s, task.Tenant, task.ID); cur.Status != models.StatusCompleted || wkEventCount(t, s, task.Tenant, task.ID, wkFinalEvents...) != 1 {
			t.Errorf("task %s is %s with %d final events, want Completed with one", task.ID, cur.Status, wkEventCount(t, s, task.Tenant, task.ID, wkFinalEvents...))
		}
		rows, err := s.Resumptions(t.Context(), task.Tenant, task.ID)
		if err != nil || len(rows) != 1 || rows[0].State == models.DeliveryPending {
			t.Errorf("task %s outbox %+v, %v; want one row, not pending", task.ID, rows, err)
		}
	}
}

// With the loopback runtime a delivery finalizes the task, which settles its outbox row in the
// same transaction: the dispatcher sends no acknowledgement after it (it would find the lease
// gone every time), and the row ends settled.
func TestLoopbackDeliveryIsNotAcknowledgedAgain(t *testing.T) {
	var mu sync.Mutex
	var acks int
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), &testfactory.StoreOpts{OnSQL: func(sql string) {
		if strings.HasPrefix(sql, "UPDATE `user_task_resumptions`") && strings.Contains(sql, "delivered_at") {
			mu.Lock()
			acks++
			mu.Unlock()
		}
	}})
	task := wkProject(t, s, wkTaskOpts{})
	wkComplete(t, s, task, wkPayload)
	res, err := workers.NewDispatcher(s, workflow.NewLoopback(s), workers.DispatcherOptions{}).RunOnce(t.Context())
	if err != nil || res.Delivered != 1 {
		t.Fatalf("dispatch %+v, %v; want one delivery", res, err)
	}
	rows, err := s.Resumptions(t.Context(), task.Tenant, task.ID)
	if err != nil || len(rows) != 1 || rows[0].State != models.DeliverySettled {
		t.Fatalf("outbox %+v, %v; want one settled row", rows, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if acks != 0 {
		t.Errorf("the dispatcher acknowledged %d loopback deliveries, want none", acks)
	}
}
