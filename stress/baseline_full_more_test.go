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

// TestFullBaselineProjectAndComplete runs the raw projection and completion on each dialect:
// a bookmark creates its task once and answers as a repeat after, the assignee's completion
// applies once (a stale one is a conflict, a replay Repeated, another person's refused), and
// what they wrote reads back through the store — the task, its tags and search text, the
// accepted operation the loopback finalizes — and passes its audit.
func TestFullBaselineProjectAndComplete(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		b, err := openFullBaseline(s)
		if err != nil {
			t.Fatal(err)
		}
		tenant := "raw-full"
		if _, _, err := b.seed.Project(ctx, tenant, bookmark(tenant, "seed", 0, false)); err != nil {
			t.Fatal(err)
		}
		req := bookmark(tenant, "burst", 1, false)
		if o, err := b.project(ctx, tenant, req); o != Applied || err != nil {
			t.Fatalf("projection: got %v, %v; want Applied", o, err)
		}
		if o, err := b.project(ctx, tenant, req); o != Repeated || err != nil {
			t.Fatalf("repeat: got %v, %v; want Repeated", o, err)
		}
		it, o, err := b.seed.Project(ctx, tenant, req)
		if err != nil || o != Repeated || it.Status != models.StatusAvailable || it.Revision != 1 {
			t.Fatalf("the store answers %+v, %v, %v; want the raw task, Available at revision 1", it, o, err)
		}
		page, err := s.Query(ctx, models.TaskFilter{Tenant: tenant, Actor: claimer(tenant, 1), Scope: models.ScopeAvailable, Search: "burst 1", Tag: "burst"})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != it.ID {
			t.Fatalf("search and tag find %+v, %v; want the raw task", page.Items, err)
		}

		ann, bob := claimer(tenant, 1), claimer(tenant, 2)
		if o, err := b.claim(ctx, ann, tenant, it.ID, it.Revision, "op-claim"); o != Applied || err != nil {
			t.Fatalf("claim: got %v, %v", o, err)
		}
		if o, err := b.complete(ctx, bob, tenant, it.ID, it.Revision+1, "op-bob"); o != Conflict || err != nil {
			t.Fatalf("another person's completion: got %v, %v; want Conflict", o, err)
		}
		if o, err := b.complete(ctx, ann, tenant, it.ID, it.Revision, "op-stale"); o != Conflict || err != nil {
			t.Fatalf("stale completion: got %v, %v; want Conflict", o, err)
		}
		if o, err := b.complete(ctx, ann, tenant, it.ID, it.Revision+1, "op-complete"); o != Applied || err != nil {
			t.Fatalf("completion: got %v, %v; want Applied", o, err)
		}
		if o, err := b.complete(ctx, ann, tenant, it.ID, it.Revision+1, "op-complete"); o != Repeated || err != nil {
			t.Fatalf("replay: got %v, %v; want Repeated", o, err)
		}
		auditClean(t, s, tenant)
		if err := b.seed.Finalize(ctx, tenant, []string{it.ID}); err != nil {
			t.Fatalf("the loopback finalizes the raw completion: %v", err)
		}
		f, err := StoreInspector{Store: s}.Inspect(ctx, tenant, it.ID)
		if err != nil {
			t.Fatal(err)
		}
		if f.Status != models.StatusCompleted || f.Events[models.EventCompletionRequested] != 1 || f.Events[models.EventCompleted] != 1 || !oneOutbox(f) {
			t.Fatalf("after finalization: %+v", f)
		}
		auditClean(t, s, tenant)
	})
}

// TestFullBaselineModes: the burst and mixed modes run their full shapes beside ours, with
// every check held.
func TestFullBaselineModes(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		for mode, want := range map[string]struct {
			fig, prefix string
			checks      int
		}{"burst": {figBurst, "projection (raw, full shape)", 5}, "mixed": {figMixed, "claim + complete (raw, full shape)", 4}} {
			reps, err := Run(context.Background(), mode, Options{Tasks: 12, Writers: 3, Target: NewStoreTarget(s),
				Inspector: StoreInspector{Store: s}, Store: s, SQL: s})
			if err != nil {
				t.Fatal(err)
			}
			seen := 0
			for _, c := range reps[0].Checks {
				if strings.HasPrefix(c.Name, want.prefix) {
					seen++
					if !c.OK {
						t.Errorf("%s: want %s, got %s", c.Name, c.Want, c.Got)
					}
				}
			}
			if seen != want.checks {
				t.Errorf("%s: %d full-shape checks, want %d", mode, seen, want.checks)
			}
			for _, f := range reps[0].Figures {
				if f.Name == want.fig && (f.FullShape == nil || f.FullShape.PerSecond <= 0 || f.FullThroughputRatio <= 0) {
					t.Errorf("%s: figure %q without its full shape: %+v", mode, f.Name, f.FullShape)
				}
			}
		}
	})
}

func auditClean(t *testing.T, s *repository.Store, tenant string) {
	t.Helper()
	p, err := s.Audit(context.Background(), store.AuditFilter{Tenant: tenant}, 200)
	if err != nil {
		t.Fatal(err)
	}
	counters, err := s.AuditTenantCounters(context.Background(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	if f := append(p.Findings, counters...); len(f) != 0 {
		t.Fatalf("audit findings: %+v", f)
	}
}
