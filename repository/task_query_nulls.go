package repository

import (
	"gorm.io/gorm"

	"usertasks/models"
)

// walksNullsLast reports whether the page of a nullable sort (due, completed) is read by
// nullsLastPage: on the dialects of the scale target, except where statusPage serves it, and
// the history scope, whose plan reads and sorts every match of the person whichever way it is
// ordered (historyCond): the two walks would read them twice.
func (s *Store) walksNullsLast(q *taskQuery) bool {
	return s.walksIndexes() && q.sort.Nullable && !s.walksStatus(q) && q.f.Scope != models.ScopeHistory
}

// nullsLastPage reads the page of a nullable sort in up to two ordered walks instead of one
// ORDER BY CASE WHEN column IS NULL …, which no index serves, so every match was sorted (the
// whole tenant for the all scope): first the rows with a value in (column, id) order, which
// the sort's index (tenant_id, column, id) yields in order and stops after the page; then, only
// when the page is not full, the rows without one in id order, which the same index yields
// from its NULL entries. The order is orderBy's: NULLs last in both directions. where is the
// query's conditions without the cursor: each walk takes its own half of it (cursorCond's
// "column IS NULL OR …" would turn the first walk into an OR of two index ranges and a sort).
// A cursor among the NULL rows skips the first walk.
func (s *Store) nullsLastPage(tx *gorm.DB, tasks func() *gorm.DB, q *taskQuery, where []cond) ([]taskRecord, error) {
	dir, op := " ASC", ">"
	if q.f.Descending {
		dir, op = " DESC", "<"
	}
	col := q.sort.Column
	var out []taskRecord
	undated := applyConds(s.undatedTasks(tx, tasks, q)().Select(q.selected()), where).Where(col + " IS NULL")
	switch {
	case q.after != nil && q.after.Null:
		undated = undated.Where("id "+op+" ?", q.afterID)
	default:
		dated := applyConds(tasks().Select(q.selected()), where).Where(col + " IS NOT NULL")
		if q.after != nil {
			c := q.valueCursorCond()
			dated = dated.Where(c.sql, c.args...)
		}
		if err := dated.Order(col + dir + ", id" + dir).Limit(q.limit + 1).Find(&out).Error; err != nil {
			return nil, translate(err)
		}
		if len(out) > q.limit {
			return out, nil
		}
	}
	var rest []taskRecord
	// Ordered by the column too, all NULL here: PostgreSQL does not take "column IS NULL" as
	// fixing the column, and would sort the walk of (…, column, id) by id alone.
	if err := undated.Order(col + dir + ", id" + dir).Limit(q.limit + 1 - len(out)).Find(&rest).Error; err != nil {
		return nil, translate(err)
	}
	return append(out, rest...), nil
}

// undatedTasks is the table the second walk reads. SQLite's statistics give "column = ?" a
// few rows per value, NULL included, so it reads "column IS NULL" through the sort's index
// (tenant_id, column, id) — every undated task of the tenant, half a million at the scale
// target — even where the scope narrows to a few hundred rows by an index of its own. The
// assigned scope's is ix_tasks_workload (the actor's open tasks, which the first walk reads):
// the second walk is held to it (docs/query-plans.md, "Nullable sorts").
func (s *Store) undatedTasks(tx *gorm.DB, tasks func() *gorm.DB, q *taskQuery) func() *gorm.DB {
	if q.f.Scope != models.ScopeAssigned {
		return tasks
	}
	return func() *gorm.DB { return s.tasksIndexedBy(tx, "ix_tasks_workload") }
}
