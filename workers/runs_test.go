package workers_test

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// TestWorkersRecordTheirRuns runs the three workers on a store and reads back what they
// recorded: every tenant sees its own counts, the cross-tenant runs carry none, and the
// dispatcher's window is written at shutdown.
func TestWorkersRecordTheirRuns(t *testing.T) {
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, _ := wkLogger(t)
	now, _ := s.Now(t.Context())
	due := now.Add(time.Minute)
	overdue := wkProject(t, s, wkTaskOpts{DueAt: &due})
	completing := wkProject(t, s, wkTaskOpts{})
	wkProject(t, s, wkTaskOpts{Tenant: "t2"})

	w := workers.New(s, workflow.NewLoopback(s), workers.Options{
		DispatchEvery: time.Hour, SweepEvery: 20 * time.Millisecond,
		ReconcileAfter: 10 * time.Millisecond, ReconcileEvery: 30 * time.Millisecond,
		Logger: log,
	})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()

	wkComplete(t, s, completing, wkPayload)
	clock.Advance(2 * time.Minute)
	w.Kick()
	wkEventually(t, 10*time.Second, "the loopback to finish the task and the sweep to flag the other", func() bool {
		return wkGet(t, s, "t1", completing.ID).Status == models.StatusCompleted && wkGet(t, s, "t1", overdue.ID).IsOverdue
	})
	runs := func(tenant string, worker models.Worker) []models.WorkerRun {
		got, err := s.WorkerRuns(t.Context(), tenant, worker, 20)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	wkEventually(t, 10*time.Second, "a recorded reconciliation of t1 and t2", func() bool {
		return len(runs("t1", models.WorkerReconciliation)) > 0 && len(runs("t2", models.WorkerReconciliation)) > 0
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

	sweeps := runs("t1", models.WorkerDueSweep)
	if len(sweeps) != 1 || sweeps[0].Counts["overdue"] != 1 || sweeps[0].ErrorCode != "" {
		t.Fatalf("t1 sweep runs %+v, want the one that flagged the task", sweeps)
	}
	if all := runs(models.AllTenants, models.WorkerDueSweep); len(all) == 0 || len(all[0].Counts) != 0 {
		t.Fatalf("all-tenant sweep runs %+v, want some, without counts", all)
	}
	if other := runs("t2", models.WorkerDueSweep); len(other) != 0 {
		t.Fatalf("t2 sweep runs %+v: nothing was due there", other)
	}
	disp := runs("t1", models.WorkerDispatcher)
	if len(disp) != 1 || disp[0].Counts["delivered"] != 1 || disp[0].Counts["claimed"] != 1 {
		t.Fatalf("t1 dispatcher runs %+v, want one window with the delivery", disp)
	}
	if other := runs("t2", models.WorkerDispatcher); len(other) != 0 {
		t.Fatalf("t2 dispatcher runs %+v: nothing was delivered there", other)
	}
	rec := runs("t1", models.WorkerReconciliation)[0]
	if _, ok := rec.Counts["ambiguous"]; !ok || rec.StartedAt.After(rec.FinishedAt) {
		t.Fatalf("reconciliation run %+v, want its counts and a start before its end", rec)
	}
}
