package repository

import "gorm.io/gorm"

// walksNullsLast reports whether the page of a nullable sort (due, completed) is read by
// nullsLastPage: on the dialects of the scale target, except where statusDuePage serves it.
func (s *Store) walksNullsLast(q *taskQuery) bool {
	return s.walksIndexes() && q.sort.nullable && !s.walksStatusDue(q)
}

// nullsLastPage reads the page of a nullable sort in up to two ordered walks instead of one
// ORDER BY CASE WHEN column IS NULL …, which no index serves, so every match was sorted (the
// whole tenant for the all scope): first the rows with a value in (column, id) order, which
// the sort's index (tenant_id, column, id) yields in order and stops after the page; then, only
// when the page is not full, the rows without one in id order, which the same index yields
// from its NULL entries. The order is orderBy's: NULLs last in both directions. A cursor among
// the NULL rows skips the first walk (its condition already excludes every valued row).
func (s *Store) nullsLastPage(tasks func() *gorm.DB, q *taskQuery, where []cond) ([]taskRecord, error) {
	dir := " ASC"
	if q.f.Descending {
		dir = " DESC"
	}
	col := q.sort.column
	var out []taskRecord
	if q.after == nil || !q.after.null {
		err := applyConds(tasks().Select(summaryColumns), where).Where(col + " IS NOT NULL").
			Order(col + dir + ", id" + dir).Limit(q.limit + 1).Find(&out).Error
		if err != nil {
			return nil, translate(err)
		}
		if len(out) > q.limit {
			return out, nil
		}
	}
	var undated []taskRecord
	err := applyConds(tasks().Select(summaryColumns), where).Where(col + " IS NULL").
		Order("id" + dir).Limit(q.limit + 1 - len(out)).Find(&undated).Error
	if err != nil {
		return nil, translate(err)
	}
	return append(out, undated...), nil
}
