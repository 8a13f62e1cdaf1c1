package storetest

import (
	"fmt"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// testAttentionCursorPlans pins the cursor of the needs-attention walks (statusPage) for the
// nullable sorts: each phase states only its own half of the cursor. With the whole cursor
// condition ("due_at IS NULL OR (due_at <= ? AND …)") beside "due_at IS NOT NULL", SQLite read a
// page past the first, sorted by due date descending, as an OR of two ranges of the status's
// index — every dated row past the cursor — and sorted them: 170–200 ms at the scale target. On
// every SQL store no walk may carry the NULL half in its dated phase; on SQLite each walk must
// be one range of its index bounded by the cursor, with no MULTI-INDEX OR.
func testAttentionCursorPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, boss models.Actor) {
	for _, sort := range []models.SortKey{models.SortDue, models.SortCompleted} {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("NeedsAttention%s%sCursorBoundsEachWalk", sort, map[bool]string{false: "Asc", true: "Desc"}[desc])
			t.Run(name, func(t *testing.T) {
				f := pastFirstPage(t, s, models.TaskFilter{Tenant: "p1", Scope: models.ScopeNeedsAttention, Actor: boss, Sort: sort, Descending: desc, Limit: 5})
				rec.reset()
				if _, err := s.Query(ctx(t), f); err != nil {
					t.Fatalf("query with the cursor: %v", err)
				}
				col := map[models.SortKey]string{models.SortDue: "due_at", models.SortCompleted: "completed_at"}[sort]
				walked := false
				for _, stmt := range rec.statements() {
					if !strings.Contains(stmt, " UNION ALL ") {
						continue
					}
					walked = true
					if strings.Contains(stmt, col+" IS NULL OR") {
						t.Errorf("%s: a walk states the whole cursor (its NULL half too)\nstatement:\n%s", h.Name, stmt)
					}
					if h.SQL.Dialect != migrations.SQLite {
						continue
					}
					plan := h.SQL.Explain(t, s, stmt)
					if strings.Contains(plan, "MULTI-INDEX OR") {
						t.Errorf("%s: a walk reads an OR of index ranges\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
					}
					// The dated phase bounds the column; the NULL phase (a cursor among the
					// undated rows: every needs-attention task is without a completion) the id.
					ix, bound := "ix_tasks_status_"+string(sort), col
					if !strings.Contains(stmt, col+" IS NOT NULL") {
						bound = "id"
					}
					op := bound + map[bool]string{false: ">?", true: "<?"}[desc]
					for _, line := range strings.Split(plan, "\n") {
						if strings.Contains(line, ix) && !strings.Contains(line, op) {
							t.Errorf("%s: a walk of %s is not bounded by the cursor (%s)\nstatement:\n%s\nplan:\n%s", h.Name, ix, op, stmt, plan)
						}
					}
				}
				if !walked {
					t.Fatalf("no walk (UNION ALL) was recorded")
				}
			})
		}
	}
}
