package storetest

import (
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// testSearchPlans checks that a search of a rare needle (one title of the plan seed) is found
// through the substring index where the store has one (issue 27: SQLite's FTS5 trigram table,
// PostgreSQL's pg_trgm GIN index), and that none of its statements scans user_tasks: the probe
// that reads the index and the page and total read by primary key among its ids. MariaDB keeps
// the sort index's walk with the LIKE filter (docs/query-plans.md), which the plan cases above
// already check for full scans.
func testSearchPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, boss models.Actor) {
	want := map[migrations.Dialect]string{migrations.SQLite: "VIRTUAL TABLE INDEX", migrations.Postgres: "ix_tasks_search"}[h.SQL.Dialect]
	for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortTitle} {
		t.Run("SearchUsesTheSubstringIndex/"+string(sort), func(t *testing.T) {
			rec.reset()
			page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "p1", Scope: models.ScopeAll, Actor: boss, Sort: sort,
				Search: "Seeded Task 07919", IncludeTotal: true, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			if page.Total == nil || *page.Total == 0 || len(page.Items) == 0 {
				t.Fatalf("the needle matches nothing: total %v, %d items", page.Total, len(page.Items))
			}
			var plans []string
			used := false
			for _, stmt := range rec.statements() {
				if !strings.Contains(strings.ToUpper(stmt), "USER_TASK") {
					continue
				}
				plan := h.SQL.Explain(t, s, stmt)
				if scan := planScan(h.SQL.Dialect, plan); scan != "" {
					t.Fatalf("%s: the plan scans all of user_tasks (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
				}
				used = used || (want != "" && strings.Contains(plan, want))
				plans = append(plans, stmt+"\n"+plan)
			}
			if want != "" && !used {
				t.Fatalf("%s: no statement reads the substring index (%s in its plan):\n%s", h.Name, want, strings.Join(plans, "\n\n"))
			}
		})
	}
}
