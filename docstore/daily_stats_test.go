package docstore_test

import (
	"testing"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/testfactory"
)

// A relay that dies after applying its effects applies them again on the next pass: the daily
// rollup still counts each committed change once, and the pending resumption the relay has
// not moved is in the backlog meanwhile.
func TestRollupCountsOnceAcrossRelayCrashes(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	ann := testfactory.Worker("t1", "ann")
	crashes, heal := docstore.CrashAt(s, docstore.AfterRelayInsert)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	if _, err := s.Mutate(ctx, "t1", task.ID, "claim-1", claimBy(ann, task.Revision, "claim-1")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mutate(ctx, "t1", task.ID, "complete-1", completeBy(ann, 2, "complete-1", "")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := s.RelayPass(ctx, 10); err == nil {
			t.Fatal("RelayPass passed the injected crash")
		}
	}
	if *crashes != 5 {
		t.Fatalf("%d crashes, want 5 (three writes, two passes)", *crashes)
	}
	if d := pendingIn(t, s, task.ID); len(d.PendingEffects) != 2 || len(d.PendingResumptions) != 1 {
		t.Fatalf("pending effects %d resumptions %d, want 2 and 1 still queued", len(d.PendingEffects), len(d.PendingResumptions))
	}
	c, err := s.DashboardCounts(ctx, "t1", 0)
	if err != nil || c.Backlog != 1 || c.OldestPending == nil {
		t.Fatalf("backlog %d oldest %v (%v), want the resumption counted once", c.Backlog, c.OldestPending, err)
	}
	heal()
	if _, err := s.RelayPass(ctx, 10); err != nil {
		t.Fatal(err)
	}
	r, err := s.DailyRollup(ctx, "t1", "0000-01-01")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, st := range r.ByDay {
		got[st.Metric] += st.Count
	}
	if len(got) != 2 || got[models.MetricCreated] != 1 || got[models.MetricClaimed] != 1 {
		t.Fatalf("rollup %v, want one creation and one claim", got)
	}
	if b, err := s.Backlog(ctx); err != nil || b.ResumptionsPending != 1 {
		t.Fatalf("backlog %+v (%v), want the moved resumption counted once", b, err)
	}
}
