package repository

import (
	"fmt"
	"strings"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
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

// walksStatusDue reports whether the page is read by walking ix_tasks_status_due: the
// needs-attention list ordered by due date, without a health filter (ix_tasks_health serves
// those). Its rule matches most open tasks, so sorting all matches is what the walk avoids.
func (s *Store) walksStatusDue(q *taskQuery) bool {
	return s.walksIndexes() && q.f.Scope == models.ScopeNeedsAttention && q.f.Sort == models.SortDue && !q.f.FiltersHealth()
}

// statusDuePage reads the page of a walksStatusDue query: the tasks with a due date first, the
// ones without after them (NULLs last on every database, whatever its NULL order in an
// index), each phase selecting at most limit+1 ids per open or transitional status through
// ix_tasks_status_due (tenant, status, due_at, id), a walk that stops after its rows, and
// sorting those few instead of every match. The undated phase runs only when the dated one
// leaves the page short: undated tasks mostly match the rule less densely.
func (s *Store) statusDuePage(tx *gorm.DB, q *taskQuery, where []cond) ([]taskRecord, error) {
	dir := " ASC"
	if q.f.Descending {
		dir = " DESC"
	}
	var out []taskRecord
	for _, dated := range []bool{true, false} {
		var parts []string
		var subs []any
		for _, st := range openTransitionalStatuses {
			walk := applyConds(s.tasksIndexedBy(tx, "ix_tasks_status_due").Select("id"), where).Limit(q.limit + 1)
			if dated {
				walk = walk.Where("status = ? AND due_at IS NOT NULL", st).Order("due_at" + dir + ", id" + dir)
			} else {
				walk = walk.Where("status = ? AND due_at IS NULL", st).Order("id" + dir)
			}
			parts = append(parts, fmt.Sprintf("SELECT id FROM (?) w%d", len(parts)))
			subs = append(subs, walk)
		}
		var recs []taskRecord
		err := tx.Model(&taskRecord{}).Select(summaryColumns).
			// The UNION sits in a derived table (walks): MariaDB runs an IN sub-select that is
			// itself a UNION once per outer row (seconds per page; see historyCond).
			Where("tenant_id = ? AND id IN (SELECT id FROM (?) walks)", q.f.Tenant, tx.Raw(strings.Join(parts, " UNION ALL "), subs...)).
			Order(q.orderBy()).Limit(q.limit + 1 - len(out)).Find(&recs).Error
		if err != nil {
			return nil, translate(err)
		}
		if out = append(out, recs...); len(out) > q.limit {
			break
		}
	}
	return out, nil
}
