package stress

import (
	"context"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/store"
	"usertasks/testfactory"
)

// TestFullBaselineClaim runs the raw full-shape claim on each dialect: one claim of a task
// wins, a claim at a stale revision is a conflict, a repeated operation id is answered as a
// replay, and what it wrote reads back through the store and passes its audit.
func TestFullBaselineClaim(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		b, err := openFullBaseline(s)
		if err != nil {
			t.Fatal(err)
		}
		tenant := "raw-full"
		it, _, err := b.seed.Project(ctx, tenant, bookmark(tenant, "claim", 1, false))
		if err != nil {
			t.Fatal(err)
		}
		ann, bob := claimer(tenant, 1), claimer(tenant, 2)
		outsider := person(tenant, "outsider")
		outsider.Groups = nil
		if o, err := b.claim(ctx, outsider, tenant, it.ID, it.Revision, "op-outsider"); o != Failed || err == nil || !strings.Contains(err.Error(), "not a candidate") {
			t.Fatalf("outsider: got %v, %v; want Failed, not a candidate", o, err)
		}
		if o, err := b.claim(ctx, ann, tenant, it.ID, it.Revision, "op-ann"); o != Applied || err != nil {
			t.Fatalf("first claim: got %v, %v; want Applied", o, err)
		}
		if o, err := b.claim(ctx, bob, tenant, it.ID, it.Revision, "op-bob"); o != Conflict || err != nil {
			t.Fatalf("stale claim: got %v, %v; want Conflict", o, err)
		}
		if o, err := b.claim(ctx, ann, tenant, it.ID, it.Revision, "op-ann"); o != Repeated || err != nil {
			t.Fatalf("replay: got %v, %v; want Repeated", o, err)
		}
		got, err := s.Get(ctx, tenant, it.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != models.StatusAssigned || got.Assignee == nil || got.Assignee.ID != ann.Subject.ID || got.Revision != it.Revision+1 {
			t.Fatalf("after the claim the store reads %s, assignee %+v, revision %d; want Assigned to %s at %d",
				got.Status, got.Assignee, got.Revision, ann.Subject.ID, it.Revision+1)
		}
		f, err := StoreInspector{Store: s}.Inspect(ctx, tenant, it.ID)
		if err != nil {
			t.Fatal(err)
		}
		if f.Events[models.EventClaimed] != 1 {
			t.Fatalf("claimed events: got %d, want 1", f.Events[models.EventClaimed])
		}
		rollup, err := s.DailyRollup(ctx, tenant, "2000-01-01")
		if err != nil {
			t.Fatal(err)
		}
		claimed := int64(0)
		for _, d := range rollup.ByDay {
			if d.Metric == models.MetricClaimed {
				claimed += d.Count
			}
		}
		if claimed != 1 {
			t.Fatalf("the daily rollup counts %d claims, want 1", claimed)
		}
		p, err := s.Audit(ctx, store.AuditFilter{Tenant: tenant}, 200)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Findings) != 0 {
			t.Fatalf("audit findings: %+v", p.Findings)
		}
	})
}

// TestFullBaselineRace: in the claim mode the full-shape race has one winner per task and its
// figure sits beside ours.
func TestFullBaselineRace(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		const tasks, writers = 20, 4
		reps, err := Run(context.Background(), "claim", Options{Tasks: tasks, Writers: writers, Target: NewStoreTarget(s),
			Inspector: StoreInspector{Store: s}, Store: s, SQL: s})
		if err != nil {
			t.Fatal(err)
		}
		rep := reps[0]
		seen := 0
		for _, c := range rep.Checks {
			if strings.HasPrefix(c.Name, "claim (raw, full shape)") {
				seen++
				if !c.OK {
					t.Errorf("%s: want %s, got %s", c.Name, c.Want, c.Got)
				}
			}
		}
		if seen != 5 {
			t.Errorf("%d full-shape checks, want 5 (applied, conflicts, errors, facts, audit)", seen)
		}
		f := rep.Figures[0]
		if f.Name != figClaim || f.FullShape == nil {
			t.Fatalf("figure %q without a full-shape baseline", f.Name)
		}
		if got := f.FullShape; got.Ops != tasks*writers || got.Applied != tasks || got.Conflicts != tasks*(writers-1) || got.PerSecond <= 0 || f.FullThroughputRatio <= 0 {
			t.Errorf("full shape: %d ops, %d applied, %d conflicts, %.1f/s, ratio %.2f", got.Ops, got.Applied, got.Conflicts, got.PerSecond, f.FullThroughputRatio)
		}
	})
}
