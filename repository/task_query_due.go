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

// walksStatus reports whether the page is read by walking the status's sort index
// (statusIndex): the needs-attention list, without a health filter (ix_tasks_health serves
// those). Its rule matches most open tasks, so sorting all matches is what the walk avoids.
func (s *Store) walksStatus(q *taskQuery) bool {
	return s.walksIndexes() && q.f.Scope == models.ScopeNeedsAttention && !q.f.FiltersHealth()
}

// statusIndex is the index (tenant_id, status, sort column, id) of each sort.
var statusIndex = map[models.SortKey]string{
	models.SortCreated: "ix_tasks_status_created", models.SortDue: "ix_tasks_status_due",
	models.SortPriority: "ix_tasks_status_priority", models.SortTitle: "ix_tasks_status_title",
	models.SortUpdated: "ix_tasks_status_updated", models.SortCompleted: "ix_tasks_status_completed",
}

// statusPage reads the page of a walksStatus query: each open or transitional status walked
// in the sort's order through its status index, at most limit+1 ids per status (a walk that
// stops after its rows), and only those few sorted instead of every match. A nullable sort
// (due, completed) reads in two phases, the tasks with a value first and the ones without
// after them (NULLs last on every database, whatever its NULL order in an index); the second
// runs only when the first leaves the page short.
func (s *Store) statusPage(tx *gorm.DB, q *taskQuery, where []cond) ([]taskRecord, error) {
	dir := " ASC"
	if q.f.Descending {
		dir = " DESC"
	}
	col := q.sort.Column
	phases := []string{""}
	if q.sort.Nullable {
		phases = []string{col + " IS NOT NULL", col + " IS NULL"}
	}
	var out []taskRecord
	for _, phase := range phases {
		var parts []string
		var subs []any
		for _, st := range openTransitionalStatuses {
			walk := applyConds(s.tasksIndexedBy(tx, statusIndex[q.f.Sort]).Select("id"), where).
				Where("status = ?", st).Order(col + dir + ", id" + dir).Limit(q.limit + 1)
			if phase != "" {
				// Ordered by the column in the NULL phase too: PostgreSQL does not take
				// "column IS NULL" as fixing the column and would sort the walk by id.
				walk = walk.Where(phase)
			}
			parts = append(parts, fmt.Sprintf("SELECT id FROM (?) w%d", len(parts)))
			subs = append(subs, walk)
		}
		var recs []taskRecord
		err := tx.Model(&taskRecord{}).Select(q.selected()).
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
