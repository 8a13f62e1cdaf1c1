package storetest

import (
	"fmt"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// testHistoryPlans pins the history scope's shape (issue 27): the person's task ids are one
// sub-select of two index seeks that read no table row (on SQLite: covering
// ix_tasks_completed_by, which carries id since migration 00021, and ix_events_actor), and on
// the dialects of the scale target the first page counts its total in the page's own
// statement (count(*) OVER ()), not in a second read of the same rows. The total must equal
// the rows the pages yield, for every sort (the nullable ones in one ordered statement).
func testHistoryPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, me models.Actor) {
	for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortTitle, models.SortCompleted} {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("History%s%sCountsInThePage", sort, map[bool]string{false: "Asc", true: "Desc"}[desc])
			t.Run(name, func(t *testing.T) {
				f := models.TaskFilter{Tenant: "p1", Scope: models.ScopeHistory, Actor: me, Sort: sort, Descending: desc,
					Limit: 7, IncludeTotal: true}
				rec.reset()
				first, err := s.Query(ctx(t), f)
				if err != nil {
					t.Fatalf("query: %v", err)
				}
				var stmts []string
				for _, stmt := range rec.statements() {
					if readsUserTasks(stmt) {
						stmts = append(stmts, stmt)
					}
				}
				counted := false
				for _, stmt := range stmts {
					upper := strings.ToUpper(stmt)
					if strings.Contains(upper, "COUNT(*) FROM") {
						t.Errorf("%s: the first page's total is a statement of its own:\n%s", h.Name, stmt)
					}
					counted = counted || strings.Contains(upper, "COUNT(*) OVER ()")
					plan := h.SQL.Explain(t, s, stmt)
					if scan := planScan(h.SQL.Dialect, plan); scan != "" {
						t.Errorf("%s: the plan scans all of user_tasks (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
					}
					if h.SQL.Dialect == migrations.SQLite && strings.Contains(stmt, "d.completed_by_id") &&
						(!strings.Contains(plan, "COVERING INDEX ix_tasks_completed_by") || !strings.Contains(plan, "COVERING INDEX ix_events_actor")) {
						t.Errorf("%s: the person's task ids are not read from covering ix_tasks_completed_by and ix_events_actor\nstatement:\n%s\nplan:\n%s",
							h.Name, stmt, plan)
					}
				}
				if !counted {
					t.Errorf("%s: no statement counts the total with the page (count(*) OVER ()):\n%s", h.Name, strings.Join(stmts, "\n"))
				}
				if first.Total == nil || first.TotalCapped {
					t.Fatalf("total %v (capped %v): want an exact total", first.Total, first.TotalCapped)
				}
				seen, page := map[string]bool{}, first
				for {
					for _, it := range page.Items {
						if seen[it.ID] {
							t.Fatalf("task %s listed twice", it.ID)
						}
						seen[it.ID] = true
					}
					if page.NextCursor == "" {
						break
					}
					f.Cursor, f.IncludeTotal = page.NextCursor, false
					if page, err = s.Query(ctx(t), f); err != nil {
						t.Fatalf("query: %v", err)
					}
				}
				if len(seen) != *first.Total || len(seen) < 2*f.Limit {
					t.Errorf("the pages list %d tasks, the total says %d (want the same, more than two pages)", len(seen), *first.Total)
				}
			})
		}
	}
}
