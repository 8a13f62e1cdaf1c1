package storetest

import (
	"fmt"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// testAvailableWalkPlans pins the candidate test of the available list's walk on SQLite: the
// walk (availableWalk) tests each Available task for the actor's candidate row, a few rows per
// row of the page, and with the candidate's status copy in the test each probe read the
// candidate row as well as ux_candidates_identity (half of a common-word search's window at the
// scale target). The probe must read the index alone (COVERING INDEX), for every sort and
// direction, on the first page and past a cursor. (A common needle's window reads the same walk:
// storekit.ShortSearch through listRows.) The walk reads the index alone and probes the
// candidate before the task's row is fetched (candidateFirstWalk): in one loop SQLite fetched
// the row of every Available task walked before the probe, three of four not the actor's.
func testAvailableWalkPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, me models.Actor) {
	if h.SQL.Dialect != migrations.SQLite {
		return
	}
	for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortPriority, models.SortTitle,
		models.SortUpdated, models.SortCompleted} {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("Available%s%sProbesCandidatesByIndexOnly", sort, map[bool]string{false: "Asc", true: "Desc"}[desc])
			t.Run(name, func(t *testing.T) {
				f := models.TaskFilter{Tenant: "p1", Scope: models.ScopeAvailable, Actor: me, Sort: sort, Descending: desc, Limit: 3}
				walks, _ := pageStatements(t, s, rec, f, func(stmt string) bool {
					return strings.Contains(stmt, "INDEXED BY ix_tasks_status_") && strings.Contains(stmt, "user_task_candidates")
				})
				if len(walks) == 0 {
					t.Fatalf("no walk of the Available tasks was recorded")
				}
				for _, stmt := range walks {
					plan := h.SQL.Explain(t, s, stmt)
					if !strings.Contains(plan, "USING COVERING INDEX ux_candidates_identity") {
						t.Errorf("%s: the candidate probe reads more than ux_candidates_identity\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
					}
					// The walk reads its index alone and probes the candidate there; the row
					// is fetched by id after (candidateFirstWalk): SQLite lists a loop's
					// sub-queries where they run, so the probe's line comes before the fetch.
					walk := strings.Index(plan, "USING COVERING INDEX ix_tasks_status_"+string(sort)+" ")
					probe := strings.Index(plan, "ux_candidates_identity")
					fetch := strings.Index(plan, "USING INDEX sqlite_autoindex_user_tasks_1 (id=?)")
					if walk < 0 || probe < walk || fetch < probe {
						t.Errorf("%s: the walk does not probe the candidate from its index before fetching the row\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
					}
				}
			})
		}
	}
}

// testAvailableWorkflowPlans pins the walk of the available list with a workflow filter on
// SQLite: its definition's sort index (ix_tasks_workflow_<sort>, which holds the status after
// the definition), not the status's. Through ix_tasks_status_title the first page sorted by
// title passed every Available task whose title sorts before the definition's name, each
// fetched to test the definition: 38 ms at the scale target, under 1 ms through its index.
func testAvailableWorkflowPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, me models.Actor) {
	if h.SQL.Dialect != migrations.SQLite {
		return
	}
	for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortPriority, models.SortTitle,
		models.SortUpdated, models.SortCompleted} {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("AvailableWorkflow%s%sWalksTheDefinitionsIndex", sort, map[bool]string{false: "Asc", true: "Desc"}[desc])
			t.Run(name, func(t *testing.T) {
				f := models.TaskFilter{Tenant: "p1", Scope: models.ScopeAvailable, Actor: me, Sort: sort, Descending: desc, Limit: 3,
					WorkflowDefinitionID: "def-03"}
				walks, _ := pageStatements(t, s, rec, f, func(stmt string) bool {
					return strings.Contains(stmt, "ORDER BY") && strings.Contains(stmt, "user_task_candidates")
				})
				if len(walks) == 0 {
					t.Fatalf("no walk of the Available tasks was recorded")
				}
				for _, stmt := range walks {
					plan := h.SQL.Explain(t, s, stmt)
					if !strings.Contains(plan, "INDEX ix_tasks_workflow_"+string(sort)+" ") {
						t.Errorf("%s: the walk does not read ix_tasks_workflow_%s\nstatement:\n%s\nplan:\n%s", h.Name, sort, stmt, plan)
					}
				}
			})
		}
	}
}
