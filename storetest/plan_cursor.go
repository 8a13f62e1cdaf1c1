package storetest

import (
	"fmt"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// testRowCursorPlans pins PostgreSQL's cursor past the first page: the row comparison
// (priority, id) > (value, id) bounds the sort index's range itself (an Index Cond), where the
// two conditions "priority >= ? AND (priority > ? OR id > ?)" bounded it by the priority only
// and filtered the id, so a deep page first read every row of the cursor's priority before the
// cursor (15,000 rows of a common needle's deep page at the scale target). Priority has few
// values: the sort where that cost shows. The all list and needs attention (its status walks),
// both directions; the available list states its cursor alike (valueCursorCond), but the
// suite's person has a list short enough to be read from their candidate rows, not walked.
func testRowCursorPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, boss models.Actor) {
	if h.SQL.Dialect != migrations.Postgres {
		return
	}
	scopes := []struct {
		scope models.Scope
		actor models.Actor
	}{{models.ScopeAll, boss}, {models.ScopeNeedsAttention, boss}}
	for _, sc := range scopes {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("%sPriority%sCursorIsOneRowBound", sc.scope, map[bool]string{false: "Asc", true: "Desc"}[desc])
			t.Run(name, func(t *testing.T) {
				f := pastFirstPage(t, s, models.TaskFilter{Tenant: "p1", Scope: sc.scope, Actor: sc.actor, Sort: models.SortPriority, Descending: desc, Limit: 3})
				stmts, _ := pageStatements(t, s, rec, f, func(stmt string) bool {
					return readsUserTasks(stmt) && strings.Contains(stmt, "ORDER BY priority")
				})
				if len(stmts) == 0 {
					t.Fatalf("no read of the page's rows (ORDER BY priority) was recorded")
				}
				for _, stmt := range stmts {
					plan := h.SQL.Explain(t, s, stmt)
					bound := false
					for _, line := range strings.Split(plan, "\n") {
						bound = bound || strings.Contains(line, "Index Cond") && strings.Contains(line, "ROW(priority, (id)::text)")
					}
					if !bound {
						t.Errorf("%s: the cursor does not bound the index range as one row\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
					}
				}
			})
		}
	}
}
