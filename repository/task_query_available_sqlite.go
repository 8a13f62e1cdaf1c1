package repository

import (
	"gorm.io/gorm"

	"usertasks/models"
)

// candidateFirstWalk reads the page of the available list on SQLite (availableWalk): the walk
// of the Available tasks in the page's order (ix, which holds the sort column and id), each
// tested for a candidate row of the actor before its row is fetched, then the row's terms.
//
// The walk is a sub-select of the index's columns alone (w: id and the sort value, "USING
// COVERING INDEX" in the plan) whose WHERE holds the candidate test from
// ux_candidates_identity (candidateIndexOnly: without the task's membership mode, which needs
// the row); the tasks it yields are then fetched by id (CROSS JOIN: SQLite keeps that order of
// the loops) and tested with the query's whole conditions (where, the candidate test exactly
// included). SQLite codes a term in the outermost loop that holds its tables, so the candidate
// probe, which names only w's task, runs in the index's loop: the plan lists its sub-query
// between the walk and the fetch. Stated in one loop, SQLite ran the EXISTS probes after the
// terms that need the row, so the row of every Available task walked was fetched, three of four
// not the actor's at the scale target (a common needle's window, 1,001 list rows from 3,883
// Available tasks: 18 → 13 ms of statement). The order is the walk's (w's sort value, then id),
// which the index yields, so the walk stops after the page. A nullable sort walks its dated
// rows, then its undated ones (walkPhases), each phase with its own half of the cursor in the
// walk, where it bounds the index's range. QueryPlans/Available…ProbesCandidatesBeforeTheRow
// (storetest/plan_available.go) pins the shape.
func (s *Store) candidateFirstWalk(tx *gorm.DB, q *taskQuery, ix string, where []cond) ([]taskRecord, error) {
	dir := " ASC"
	if q.f.Descending {
		dir = " DESC"
	}
	pre := *q
	pre.candidateIndexOnly = true
	walkConds := []cond{{"tenant_id = ?", []any{q.f.Tenant}}, {"status = ?", []any{string(models.StatusAvailable)}}, pre.candidateCond()}
	if q.f.WorkflowDefinitionID != "" {
		walkConds = append(walkConds, cond{"workflow_definition_id = ?", []any{q.f.WorkflowDefinitionID}})
	}
	var out []taskRecord
	for _, phase := range walkPhases(q) {
		walk := applyConds(s.tasksIndexedBy(tx, ix).Select("id AS wid, "+q.sort.Column+" AS wsort"), append(walkConds, phase...))
		var recs []taskRecord
		err := applyConds(tx.Table("(?) w CROSS JOIN user_tasks ON user_tasks.id = w.wid", walk).Select(q.selected()), where).
			Order("w.wsort" + dir + ", w.wid" + dir).Limit(q.limit + 1 - len(out)).Find(&recs).Error
		if err != nil {
			return nil, translate(err)
		}
		if out = append(out, recs...); len(out) > q.limit {
			break
		}
	}
	return out, nil
}
