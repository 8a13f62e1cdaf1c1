package repository

import (
	"fmt"
	"strings"

	"gorm.io/gorm"

	"usertasks/models"
)

// cappedTotal counts the rows of where, at most cap+1 of them (Config.TotalCap), and reports
// whether there were more than cap (the total is then cap). The database stops after the cap
// instead of visiting every match: needs attention matches most open tasks.
func cappedTotal(tx *gorm.DB, tasks func() *gorm.DB, where []cond, cap int) (int, bool, error) {
	sub := applyConds(tasks().Select("1 AS one"), where).Limit(cap + 1)
	var n int64
	if err := tx.Table("(?) capped", sub).Count(&n).Error; err != nil {
		return 0, false, translate(err)
	}
	if n > int64(cap) {
		return cap, true, nil
	}
	return int(n), false, nil
}

// walksStatusDue reports whether the page is read by walking ix_tasks_status_due: the
// needs-attention list ordered by due date, without a health filter (ix_tasks_health serves
// those). Its rule matches most open tasks, so sorting all matches is what the walk avoids.
func (q *taskQuery) walksStatusDue() bool {
	return q.f.Scope == models.ScopeNeedsAttention && q.f.Sort == models.SortDue && !q.f.FiltersHealth()
}

// statusDueWalk selects the ids of the page's candidates: for each open or transitional
// status, the first limit+1 matching rows with a due date in due order and the first limit+1
// without one in id order, each a walk of ix_tasks_status_due (tenant, status, due_at, id)
// that stops after its rows. The page is the first limit+1 of these in the list's order, so
// the database sorts at most 12×(limit+1) rows instead of every match. Splitting off the rows
// without a due date keeps NULLs last on every database, whatever its NULL order in an index.
func (s *Store) statusDueWalk(tx *gorm.DB, q *taskQuery, where []cond) *gorm.DB {
	dir := " ASC"
	if q.f.Descending {
		dir = " DESC"
	}
	var parts []string
	var subs []any
	for _, st := range openTransitionalStatuses {
		dated := applyConds(s.tasksIndexedBy(tx, "ix_tasks_status_due").Select("id"), where).
			Where("status = ? AND due_at IS NOT NULL", st).Order("due_at" + dir + ", id" + dir).Limit(q.limit + 1)
		undated := applyConds(s.tasksIndexedBy(tx, "ix_tasks_status_due").Select("id"), where).
			Where("status = ? AND due_at IS NULL", st).Order("id" + dir).Limit(q.limit + 1)
		for _, sub := range []*gorm.DB{dated, undated} {
			parts = append(parts, fmt.Sprintf("SELECT id FROM (?) w%d", len(parts)))
			subs = append(subs, sub)
		}
	}
	return tx.Raw(strings.Join(parts, " UNION ALL "), subs...)
}
