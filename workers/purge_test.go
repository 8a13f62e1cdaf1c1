package workers_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workers"
)

// The purger removes aged terminal tasks of every tenant, records one run per tenant with the
// counts, records nothing for a dry run, and does nothing while another node holds its lease.
func TestPurgerPurgesRecordsAndTakesTurns(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		ctx := context.Background()
		clock := &testfactory.Clock{}
		s := db.open(t, clock)
		var closed []models.Task
		for _, tenant := range []string{"t1", "t2"} {
			closed = append(closed, testfactory.Finalize(ctx, t, s, wkProject(t, s, wkTaskOpts{Tenant: tenant})))
		}
		open := wkProject(t, s, wkTaskOpts{Tenant: "t1"})
		clock.Advance(48 * time.Hour)
		policy := models.RetentionPolicy{TerminalAge: 24 * time.Hour}

		dry := policy
		dry.DryRun = true
		var progress []string
		res, err := workers.NewPurger(s, workers.PurgeOptions{Owner: "node-a", Policy: dry,
			Progress: func(tenant string, _ models.PurgeCounts) { progress = append(progress, tenant) }}).RunOnce(ctx, "")
		if err != nil || res.Total.Tasks != 2 || res.Tenants["t1"].Tasks != 1 || len(progress) != 2 {
			t.Fatalf("dry run: %+v, progress %v, %v", res, progress, err)
		}
		if runs, _ := s.WorkerRuns(ctx, "t1", models.WorkerPurge, 5); len(runs) != 0 {
			t.Fatalf("a dry run was recorded: %+v", runs)
		}

		held, err := s.AcquireLease(ctx, workers.PurgeLease, "node-b", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		res, err = workers.NewPurger(s, workers.PurgeOptions{Owner: "node-a", Policy: policy}).RunOnce(ctx, "")
		if err != nil || !res.Busy || res.Total.Tasks != 0 {
			t.Fatalf("while another node holds the lease: %+v, %v", res, err)
		}
		if err := s.ReleaseLease(ctx, workers.PurgeLease, held); err != nil {
			t.Fatal(err)
		}

		res, err = workers.NewPurger(s, workers.PurgeOptions{Owner: "node-a", Policy: policy}).RunOnce(ctx, "")
		if err != nil || res.Busy || res.Total.Tasks != 2 {
			t.Fatalf("purge: %+v, %v", res, err)
		}
		for _, task := range closed {
			if _, err := s.Get(ctx, task.Tenant, task.ID); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("closed task %s: %v", task.ID, err)
			}
		}
		if _, err := s.Get(ctx, "t1", open.ID); err != nil {
			t.Fatalf("open task: %v", err)
		}
		runs, err := s.WorkerRuns(ctx, "t1", models.WorkerPurge, 5)
		if err != nil || len(runs) != 1 || runs[0].Counts["tasks"] != 1 || runs[0].Counts["events"] < 2 || runs[0].ErrorCode != "" {
			t.Fatalf("recorded runs %+v, %v", runs, err)
		}
	})
}

// Workers run the purge on its interval when it is set, and leave it off otherwise.
func TestWorkersPurgeOnItsInterval(t *testing.T) {
	ctx := context.Background()
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, _ := wkLogger(t)
	if w := workers.New(s, newWKFakeRuntime(), workers.Options{Logger: log}); w.Purger != nil {
		t.Fatal("the purge is on without an interval")
	}
	closed := testfactory.Finalize(ctx, t, s, wkProject(t, s, wkTaskOpts{}))
	clock.Advance(2 * time.Hour)
	w := workers.New(s, newWKFakeRuntime(), workers.Options{
		DispatchEvery: time.Hour, SweepEvery: time.Hour, ReconcileEvery: time.Hour, Logger: log,
		PurgeEvery: 100 * time.Millisecond, Purge: workers.PurgeOptions{Policy: models.RetentionPolicy{TerminalAge: time.Hour}},
	})
	run, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(run) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	wkEventually(t, 10*time.Second, "the closed task purged", func() bool {
		_, err := s.Get(ctx, "t1", closed.ID)
		return errors.Is(err, models.ErrNotFound)
	})
}
