package storetest

import (
	"fmt"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// testAssignedScopePlans pins the assigned scope's nullable sorts with a filter on SQLite: the
// page is read in two walks (nullsLastPage), and the second, "due_at IS NULL", was read
// through the sort's index (tenant_id, due_at, id), whose statistics promise a few rows per
// value: at the scale target that was every undated task of the tenant, 0.9 s a page, for an
// actor with 138 tasks. On SQLite the second walk must read the actor's own tasks through
// ix_tasks_workload; no statement may scan the table.
func testAssignedScopePlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, me models.Actor) {
	for _, sort := range []models.SortKey{models.SortDue, models.SortCompleted} {
		for _, desc := range []bool{false, true} {
			for _, v := range []struct {
				name  string
				apply func(*models.TaskFilter)
			}{
				{"Workflow", func(f *models.TaskFilter) { f.WorkflowDefinitionID = "def-01" }},
				{"Search", func(f *models.TaskFilter) { f.Search = "task" }},
				{"Plain", func(*models.TaskFilter) {}},
			} {
				name := fmt.Sprintf("Assigned%s%s%sReadsTheWorkload", sort, map[bool]string{false: "Asc", true: "Desc"}[desc], v.name)
				t.Run(name, func(t *testing.T) {
					f := models.TaskFilter{Tenant: "p1", Scope: models.ScopeAssigned, Actor: me, Sort: sort, Descending: desc,
						Limit: models.MaxPageSize}
					v.apply(&f)
					rec.reset()
					if _, err := s.Query(ctx(t), f); err != nil {
						t.Fatalf("query: %v", err)
					}
					var stmts []string
					for _, stmt := range rec.statements() {
						if strings.Contains(strings.ToUpper(stmt), "USER_TASKS") {
							stmts = append(stmts, stmt)
						}
					}
					if len(stmts) < 2 {
						t.Fatalf("%d statements of user_tasks: want both walks of the nullable sort (a page larger than the dated rows)", len(stmts))
					}
					for _, stmt := range stmts {
						plan := h.SQL.Explain(t, s, stmt)
						if scan := planScan(h.SQL.Dialect, plan); scan != "" {
							t.Errorf("%s: the plan scans all of user_tasks (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
						}
						if h.SQL.Dialect == migrations.SQLite && strings.Contains(stmt, " IS NULL ORDER BY") && !strings.Contains(plan, "ix_tasks_workload") {
							t.Errorf("%s: the plan does not read the actor's tasks through ix_tasks_workload\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
						}
					}
				})
			}
		}
	}
}
