package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// workflowIndexPrefix names the indexes (tenant_id, workflow_definition_id, status, sort
// column, id) of migration 00014, one per sort.
const workflowIndexPrefix = "ix_tasks_workflow_"

// testWorkflowFilterPlans pins the workflow filter's index on the SQL stores: the all and
// needs-attention lists filtered by a workflow definition, every sort in both directions (the
// first page with its total and a page after a cursor), read every statement of user_tasks
// through an ix_tasks_workflow_ index (the definition's tasks, status by status, in the sort's
// order), never through another index of the tenant's tasks, which at the scale target meant
// sorting the definition's tasks or walking past every other definition's.
func testWorkflowFilterPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, boss models.Actor) {
	// The plan seed's tenant p1 holds terminal tasks only: the definition gets its own tasks,
	// open (overdue, so needs attention lists them), transitional and terminal, some undated
	// (both walks of the nullable sorts), among the 3,000 of the seed.
	who := User("p1", "ann")
	for i := range 48 {
		o := TaskOpts{Tenant: "p1", WorkflowDef: "def-wf", Title: fmt.Sprintf("Workflow task %02d", (i*7)%48), Priority: queryInt(i % 5 * 25)}
		if i%3 != 0 {
			o.DueAt = queryTime(time.Now().UTC().Add(-time.Duration(i+1) * time.Hour))
		}
		switch i % 4 {
		case 0:
			o.Status, o.Assignee, o.CompletedBy = models.StatusCompleted, &who, &who
		case 1:
			o.Assignee, o.IsOverdue = &who, true
		case 2:
			o.IsOverdue = true
		case 3:
			at := time.Now().UTC().Add(-time.Duration(i) * time.Minute)
			o.Status, o.Assignee, o.TransitionedAt = models.StatusCompleting, &who, &at
		}
		CreateTask(t, s, o)
	}
	h.SQL.Analyze(t, s)
	for _, scope := range []models.Scope{models.ScopeAll, models.ScopeNeedsAttention} {
		for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortPriority, models.SortTitle,
			models.SortUpdated, models.SortCompleted} {
			for _, desc := range []bool{false, true} {
				name := fmt.Sprintf("Workflow%s%s%sUsesItsIndex", strings.ReplaceAll(string(scope), "-", ""), sort,
					map[bool]string{false: "Asc", true: "Desc"}[desc])
				t.Run(name, func(t *testing.T) {
					f := models.TaskFilter{Tenant: "p1", Scope: scope, Actor: boss, Sort: sort, Descending: desc,
						WorkflowDefinitionID: "def-wf", IncludeTotal: true, Limit: 5}
					var stmts []string
					for page := 0; page < 2; page++ {
						rec.reset()
						got, err := s.Query(ctx(t), f)
						if err != nil {
							t.Fatalf("query: %v", err)
						}
						for _, stmt := range rec.statements() {
							if strings.Contains(strings.ToUpper(stmt), "USER_TASKS") {
								stmts = append(stmts, stmt)
							}
						}
						if got.NextCursor == "" {
							t.Fatalf("page %d: no next page; the seed must give def-03 more than %d tasks in this list", page+1, f.Limit)
						}
						f.Cursor, f.IncludeTotal = got.NextCursor, false
					}
					for _, stmt := range stmts {
						plan := h.SQL.Explain(t, s, stmt)
						if !strings.Contains(plan, workflowIndexPrefix) {
							t.Errorf("%s: the plan reads no %s index\nstatement:\n%s\nplan:\n%s", h.Name, workflowIndexPrefix, stmt, plan)
						}
						if scan := planScan(h.SQL.Dialect, plan); scan != "" {
							t.Errorf("%s: the plan scans all of user_tasks (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
						}
					}
				})
			}
		}
	}
}
