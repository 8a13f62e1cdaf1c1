package storetest

import (
	"fmt"
	"testing"

	"usertasks/models"
	"usertasks/store"
)

// testSubstitutePlans checks the substitute's available scope (SPEC 10.5) stays index-served:
// the absent users' ids join the candidate test as IN lists per provider (standInMatch), which
// must not turn the list into a scan of user_tasks or of the candidates, on every sort the
// scope offers, first page and one after a cursor. The seed holds no Available task in p1, so
// the case adds 40 (ann, bob or zed their direct candidate user, some with a group) and
// analyzes again; sub stands in for ann and bob. It runs last of the plan cases.
func testSubstitutePlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder) {
	for i := 0; i < 40; i++ {
		who := []string{"ann", "bob", "zed", "zed"}[i%4]
		projectNote(t, s, "p1", func(p *models.Projection) {
			p.Title = fmt.Sprintf("Seeded stand-in task %02d", i)
			p.CandidateUsers = []models.ParticipantRef{User("p1", who)}
			if i%3 == 0 {
				p.CandidateGroups = []models.ParticipantRef{Group("p1", "g1")}
			}
		})
	}
	h.SQL.Analyze(t, s)
	sub := queryActor("p1", "sub", false)
	sub.StandsInFor = []models.ParticipantRef{User("p1", "ann"), User("p1", "bob")}
	for _, c := range []struct {
		name string
		f    models.TaskFilter
	}{
		{"SubstituteAvailableByCreated", models.TaskFilter{Sort: models.SortCreated, Descending: true, IncludeTotal: true}},
		{"SubstituteAvailableByPriority", models.TaskFilter{Sort: models.SortPriority, Descending: true}},
		{"SubstituteAvailableByDue", models.TaskFilter{Sort: models.SortDue, IncludeTotal: true}},
		{"SubstituteAvailableByTitleSearch", models.TaskFilter{Sort: models.SortTitle, Search: "seeded"}},
	} {
		t.Run(c.name+"UsesAnIndex", func(t *testing.T) {
			f := c.f
			f.Tenant, f.Scope, f.Actor, f.Limit = "p1", models.ScopeAvailable, sub, 5
			stmts, listed := pageStatements(t, s, rec, f, readsUserTasks)
			if listed == 0 {
				t.Fatal("the substitute lists nothing: the case would judge the plan of an empty answer")
			}
			for _, stmt := range stmts {
				plan := h.SQL.Explain(t, s, stmt)
				if scan := planScan(h.SQL.Dialect, plan); scan != "" {
					t.Fatalf("%s: the plan scans all of user_tasks (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
				}
				// The candidates are read under the alias c (SQLite and MariaDB name the alias).
				scan := planTableScan(h.SQL.Dialect, plan, "user_task_candidates")
				if scan == "" {
					scan = planTableScan(h.SQL.Dialect, plan, "c")
				}
				if scan != "" {
					t.Fatalf("%s: the plan scans all of user_task_candidates (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
				}
			}
		})
	}
}
