package storetest

import (
	"fmt"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// testStatusMergePlans pins the shape of statusPage on SQLite: the walks of the statuses are
// the arms of one ordered compound that SQLite reads as a merge (MERGE (UNION ALL)), each arm
// in its index's order, stopping after the page. The shape before (each walk LIMIT page + 1
// ids, their rows read again by id and sorted: USE TEMP B-TREE) read up to a page per status
// and fetched each row twice; for a common needle's window (1,001 rows, six statuses) 33 ms of
// the needs-attention page's 40 at the scale target. Every sort and direction of needs
// attention, plain and with a short needle (the window a common needle reads too), and the all
// list with a workflow filter, first page and past a cursor.
func testStatusMergePlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, boss models.Actor) {
	if h.SQL.Dialect != migrations.SQLite {
		return
	}
	type variant struct {
		name  string
		apply func(*models.TaskFilter)
	}
	variants := []variant{
		{"NeedsAttention", func(f *models.TaskFilter) { f.Scope = models.ScopeNeedsAttention }},
		{"NeedsAttentionShortSearch", func(f *models.TaskFilter) { f.Scope = models.ScopeNeedsAttention; f.Search = "e" }},
		{"AllWorkflow", func(f *models.TaskFilter) { f.Scope = models.ScopeAll; f.WorkflowDefinitionID = "def-03" }},
	}
	for _, v := range variants {
		for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortPriority, models.SortTitle,
			models.SortUpdated, models.SortCompleted} {
			for _, desc := range []bool{false, true} {
				name := fmt.Sprintf("%s%s%sMergesTheWalks", v.name, sort, map[bool]string{false: "Asc", true: "Desc"}[desc])
				t.Run(name, func(t *testing.T) {
					f := models.TaskFilter{Tenant: "p1", Actor: boss, Sort: sort, Descending: desc, Limit: 5, IncludeTotal: true}
					v.apply(&f)
					walks, _ := pageStatements(t, s, rec, f, func(stmt string) bool { return strings.Contains(stmt, " UNION ALL ") })
					if len(walks) == 0 {
						t.Fatalf("no walk of the statuses (UNION ALL) was recorded")
					}
					for _, stmt := range walks {
						plan := h.SQL.Explain(t, s, stmt)
						if !strings.Contains(plan, "MERGE (UNION ALL)") || strings.Contains(plan, "TEMP B-TREE") {
							t.Errorf("%s: the walks are not one merge in index order\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
						}
					}
				})
			}
		}
	}
}
