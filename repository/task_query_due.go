package repository

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// cappedTotal counts the rows of where, at most cap+1 of them (Config.TotalCap), and reports
// whether there were more than cap (the total is then cap). The database stops after the cap
// instead of visiting every match: needs attention matches most open tasks. SQL Server and
// Oracle, outside the scale target and checked offline against golden SQL, count every row
// and cap the number here: the same answer.
func (s *Store) cappedTotal(tx *gorm.DB, tasks func() *gorm.DB, where []cond, cap int) (int, bool, error) {
	var n int64
	var err error
	if s.walksIndexes() {
		err = tx.Table("(?) capped", applyConds(tasks().Select("1 AS one"), where).Limit(cap+1)).Count(&n).Error
	} else {
		err = applyConds(tasks(), where).Count(&n).Error
	}
	if err != nil {
		return 0, false, translate(err)
	}
	if n > int64(cap) {
		return cap, true, nil
	}
	return int(n), false, nil
}

// walksIndexes reports whether the store reads list totals and the due-ordered needs-attention
// page in the bounded shapes of this file (derived tables, UNION ALL): SQLite, PostgreSQL and
// MariaDB, where the scale target is measured. SQL Server and Oracle keep the plain shapes.
func (s *Store) walksIndexes() bool {
	return s.dialect == migrations.SQLite || s.dialect == migrations.Postgres || s.dialect == migrations.MySQL
}

// walksStatus reports whether the page is read by walking each status in the sort's order
// (statusPage): the needs-attention list, whose rule matches most open tasks, and the all list
// filtered by a workflow definition, whose tasks the definition's sort index holds status by
// status (ix_tasks_workflow_<sort>). Without it the definition's tasks were all read and
// sorted, or the tenant's sort index walked past the other definitions' tasks. A health filter
// keeps ix_tasks_health, which finds the few findings directly; on the all list a filter that
// an index finds more narrowly than the definition (an instance, a reference, an assignee, a
// tag) keeps that index, as SQLite would otherwise be told to walk the definition's tasks.
func (s *Store) walksStatus(q *taskQuery) bool {
	if !s.walksIndexes() || q.f.FiltersHealth() {
		return false
	}
	f := q.f
	narrower := f.WorkflowInstanceID != "" || f.Reference != "" || f.Assignee.Participant.ID != "" || models.NormalizeTag(f.Tag) != ""
	return f.Scope == models.ScopeNeedsAttention || (f.Scope == models.ScopeAll && f.WorkflowDefinitionID != "" && !narrower)
}

// workflowIndex is the index (tenant_id, workflow_definition_id, status, sort column, id) of
// each sort (migration 00014): statusSortIndexes' walk within one workflow definition.
var workflowIndex = map[models.SortKey]string{
	models.SortCreated: "ix_tasks_workflow_created", models.SortDue: "ix_tasks_workflow_due",
	models.SortPriority: "ix_tasks_workflow_priority", models.SortTitle: "ix_tasks_workflow_title",
	models.SortUpdated: "ix_tasks_workflow_updated", models.SortCompleted: "ix_tasks_workflow_completed",
}

// walkIndex is the index statusPage walks for q: the workflow's when q names one.
func walkIndex(q *taskQuery) string {
	if q.f.WorkflowDefinitionID != "" {
		return workflowIndex[q.f.Sort]
	}
	return statusSortIndexes[q.f.Sort]
}

// walkStatuses are the statuses statusPage walks: those its scope can list (open and
// transitional for needs attention, every status for all), narrowed by a status filter and the
// overdue filter (open tasks only). A walk of a status the filter excludes would read its whole
// range and keep nothing.
func walkStatuses(q *taskQuery) []string {
	out := openTransitionalStatuses
	if q.f.Scope == models.ScopeAll {
		out = allStatuses
	}
	keep := func(set []string) {
		out = slices.DeleteFunc(slices.Clone(out), func(st string) bool { return !slices.Contains(set, st) })
	}
	if len(q.f.Statuses) > 0 {
		keep(storekit.StatusStrings(q.f.Statuses))
	}
	if q.f.Due == models.DueOverdue {
		keep(openStatuses)
	}
	return out
}

// statusPage reads the page of a walksStatus query: each status of walkStatuses walked in the
// sort's order through walkIndex, at most limit+1 ids per status (a walk that stops after its
// rows), and only those few sorted instead of every match: at most 6 × (limit + 1) rows for
// needs attention, 9 × (limit + 1) for all. Each walk states the query's conditions for its
// status (attentionCond). A nullable sort (due, completed) reads in two phases, the tasks with
// a value first and the ones without after them (NULLs last on every database, whatever its
// NULL order in an index); the second runs only when the first leaves the page short. Each
// phase states its own half of the cursor (walkPhases). SQLite and PostgreSQL read each
// phase's walks as one ordered merge instead (mergedWalks), which stops after the page.
func (s *Store) statusPage(tx *gorm.DB, q *taskQuery, now time.Time) ([]taskRecord, error) {
	var out []taskRecord
	for _, phase := range walkPhases(q) {
		var recs []taskRecord
		var err error
		if s.mergesWalks() {
			recs, err = s.mergedWalks(tx, q, now, phase, q.limit+1-len(out))
		} else {
			recs, err = s.unitedWalks(tx, q, now, phase, q.limit+1-len(out))
		}
		if err != nil {
			return nil, err
		}
		if out = append(out, recs...); len(out) > q.limit {
			break
		}
	}
	return out, nil
}

// unitedWalks is one phase of statusPage where the walks are not merged (mergesWalks): each
// status's walk reads at most n ids in the sort's order, and the rows of their union are read
// by id and sorted.
func (s *Store) unitedWalks(tx *gorm.DB, q *taskQuery, now time.Time, phase []cond, n int) ([]taskRecord, error) {
	var parts []string
	var subs []any
	for _, st := range walkStatuses(q) {
		// Ordered by the column in the NULL phase too: PostgreSQL does not take "column
		// IS NULL" as fixing the column and would sort the walk by id.
		walk := s.statusWalk(tx, q, now, phase, st, []string{"id"}).Order(q.walkOrder()).Limit(n)
		parts = append(parts, fmt.Sprintf("SELECT id FROM (?) w%d", len(parts)))
		subs = append(subs, walk)
	}
	if len(parts) == 0 {
		return nil, nil // the filters exclude every status the scope lists
	}
	var recs []taskRecord
	err := tx.Model(&taskRecord{}).Select(q.selected()).
		// The UNION sits in a derived table (walks): MariaDB runs an IN sub-select that is
		// itself a UNION once per outer row (seconds per page; see historyCond).
		Where("tenant_id = ? AND id IN (SELECT id FROM (?) walks)", q.f.Tenant, tx.Raw(strings.Join(parts, " UNION ALL "), subs...)).
		Order(q.orderBy()).Limit(n).Find(&recs).Error
	if err != nil {
		return nil, translate(err)
	}
	return recs, nil
}

// statusWalk is the walk of one status of statusPage in one phase: q's conditions for that
// status (walkStatus narrows the needs-attention rule) through walkIndex, reading columns.
func (s *Store) statusWalk(tx *gorm.DB, q *taskQuery, now time.Time, phase []cond, status string, columns []string) *gorm.DB {
	w := *q
	w.walkStatus = status
	where := append(w.conditions(now, s.dialect), phase...)
	return applyConds(s.tasksIndexedBy(tx, walkIndex(q)).Select(columns), where).Where("status = ?", status)
}

// walkOrder is the ORDER BY of a walk of q's sort index: the column, then id, in the sort's
// direction (NULLs apart: each phase of statusPage reads one side of them).
func (q *taskQuery) walkOrder() string {
	dir := " ASC"
	if q.f.Descending {
		dir = " DESC"
	}
	return q.sort.Column + dir + ", id" + dir
}

// walkPhases are the phases of statusPage, each as the conditions it adds to every walk: one
// phase with the cursor for a sort without NULLs; for a nullable sort the rows with a value and
// then those without, each with only its own half of the cursor, as nullsLastPage reads them.
// The whole cursor condition ("column IS NULL OR (column <= ? AND …)") beside "column IS NOT
// NULL" made SQLite read a deep page sorted by due date descending as an OR of two ranges of
// the status's index — every dated row past the cursor, each tested for the rule — and sort
// them: 170–200 ms at the scale target, where the range walk stops after the page (1 ms). A
// cursor among the NULL rows skips the first phase: no row with a value comes after it.
func walkPhases(q *taskQuery) [][]cond {
	if !q.sort.Nullable {
		if c, ok := q.cursorCond(); ok {
			return [][]cond{{c}}
		}
		return [][]cond{nil}
	}
	col, op := q.sort.Column, ">"
	if q.f.Descending {
		op = "<"
	}
	dated, undated := []cond{{col + " IS NOT NULL", nil}}, []cond{{col + " IS NULL", nil}}
	switch {
	case q.after == nil:
	case q.after.Null:
		return [][]cond{append(undated, cond{"id " + op + " ?", []any{q.afterID}})}
	default:
		dated = append(dated, q.valueCursorCond())
	}
	return [][]cond{dated, undated}
}
