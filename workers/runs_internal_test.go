package workers

import (
	"errors"
	"testing"
	"time"

	"usertasks/models"
)

func TestDispatchWindowRecordsOnlyWhatHappened(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	t.Run("IdleWritesNothing", func(t *testing.T) {
		var w dispatchWindow
		if got := w.take(t0.Add(time.Hour), time.Minute, true); got != nil {
			t.Fatalf("an idle window recorded %+v", got)
		}
	})
	t.Run("WaitsForTheWindow", func(t *testing.T) {
		var w dispatchWindow
		w.add(DispatchResult{DispatchCounts: DispatchCounts{Claimed: 1, Delivered: 1},
			Tenants: map[string]DispatchCounts{"a": {Claimed: 1, Delivered: 1}}}, nil, t0)
		if got := w.take(t0.Add(30*time.Second), time.Minute, false); got != nil {
			t.Fatalf("recorded before the window ended: %+v", got)
		}
		w.add(DispatchResult{DispatchCounts: DispatchCounts{Claimed: 2, Failed: 2},
			Tenants: map[string]DispatchCounts{"a": {Claimed: 1, Failed: 1}, "b": {Claimed: 1, Failed: 1}}}, nil, t0.Add(40*time.Second))
		got := w.take(t0.Add(time.Minute), time.Minute, false)
		if len(got) != 2 {
			t.Fatalf("runs %+v, want one per tenant", got)
		}
		for _, r := range got {
			want := map[string]int{"claimed": 1, "delivered": 0, "failed": 1, "skipped": 0}
			if r.Tenant == "a" {
				want = map[string]int{"claimed": 2, "delivered": 1, "failed": 1, "skipped": 0}
			}
			if r.Elapsed != time.Minute || r.Worker != models.WorkerDispatcher || len(r.Counts) != 4 ||
				r.Counts["claimed"] != want["claimed"] || r.Counts["delivered"] != want["delivered"] || r.Counts["failed"] != want["failed"] {
				t.Fatalf("run %+v, want %v over a minute", r, want)
			}
		}
		if again := w.take(t0.Add(time.Hour), time.Minute, true); again != nil {
			t.Fatalf("the window was not reset: %+v", again)
		}
	})
	t.Run("AFailedPollIsAnAllTenantsRun", func(t *testing.T) {
		var w dispatchWindow
		w.add(DispatchResult{}, models.ErrBusy, t0)
		got := w.take(t0.Add(time.Second), time.Minute, true)
		if len(got) != 1 || got[0].Tenant != models.AllTenants || got[0].ErrorCode != string(models.CodeDatabaseBusy) || got[0].Counts != nil {
			t.Fatalf("runs %+v, want one all-tenants run with the code and no counts", got)
		}
	})
}

func TestSweepAndReconcileRuns(t *testing.T) {
	if got := sweepRuns(SweepResult{Busy: true}, nil, time.Second); got != nil {
		t.Fatalf("a sweep another node ran was recorded: %+v", got)
	}
	res := SweepResult{}
	res.count("a", func(c *SweepCounts) { c.Overdue++ })
	res.count("a", func(c *SweepCounts) { c.Skipped++ })
	got := sweepRuns(res, errors.New("boom"), time.Second)
	if len(got) != 2 || got[0].Tenant != models.AllTenants || got[0].ErrorCode != "internal" || got[0].Counts != nil ||
		got[1].Tenant != "a" || got[1].Counts["overdue"] != 1 || got[1].Counts["skipped"] != 1 {
		t.Fatalf("sweep runs %+v", got)
	}
	run := ReconcileRun{Tenants: map[string]TenantReconcile{"a": {ReconcileCounts: ReconcileCounts{Finalized: 2}}, "b": {Skipped: true}}}
	recs := reconcileRuns(run, nil, time.Second)
	if len(recs) != 1 || recs[0].Tenant != "a" || recs[0].Counts["finalized"] != 2 {
		t.Fatalf("reconcile runs %+v, want a's only (b was another node's)", recs)
	}
	if recs := reconcileRuns(ReconcileRun{Tenants: map[string]TenantReconcile{}}, models.ErrBusy, time.Second); len(recs) != 1 ||
		recs[0].Tenant != models.AllTenants || recs[0].ErrorCode != string(models.CodeDatabaseBusy) {
		t.Fatalf("a run that listed no tenant: %+v", recs)
	}
}
