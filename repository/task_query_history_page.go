package repository

import (
	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// historyRecord is a narrow row of the history's first page with the count of every match.
type historyRecord struct {
	storekit.TaskRow `gorm:"embedded"`
	ListTotal        int64 `gorm:"column:list_total"`
}

// readsHistoryAtOnce reports whether the page is the history's first page with its total on a
// dialect of the scale target: read by historyFirstPage. The history's plan reads every match
// and sorts it (no index orders one person's tasks), and the capped total read the same rows
// by primary key again (up to TotalCap+1 of them): at the scale target half of the request,
// all of the person's history with a search or a workflow filter. A health filter keeps the
// plain shape (ix_tasks_health).
func (s *Store) readsHistoryAtOnce(q *taskQuery) bool {
	return s.walksIndexes() && q.f.Scope == models.ScopeHistory && q.f.IncludeTotal && q.after == nil &&
		!q.f.FiltersHealth() && !q.readsPlain()
}

// historyFirstPage reads the history's first page and its total in one statement: the page's
// ids and sort values in the list's order, each with count(*) OVER () (every match, counted
// while they are read for the sort), then the page's rows by id. Only id and the sort column
// are read and sorted; the window materializes every match, so the wide rows would cost more
// than the second read saves (SQLite at the scale target: 23 ms of CPU with every column,
// 16 with two). A nullable sort is one statement in orderBy's order (nulls last): the sort
// reads every match either way, where nullsLastPage's walks could read them twice.
func (s *Store) historyFirstPage(tx *gorm.DB, q *taskQuery, where []cond, page *models.TaskPage) ([]taskRecord, error) {
	var rows []historyRecord
	cols := []string{"id", q.sort.Column, "count(*) OVER () AS list_total"}
	if err := applyConds(tx.Model(&taskRecord{}).Select(cols), where).Order(q.orderBy()).Limit(q.limit + 1).Find(&rows).Error; err != nil {
		return nil, translate(err)
	}
	total, capped := 0, false
	if len(rows) > 0 {
		total = int(min(rows[0].ListTotal, int64(s.cfg.TotalCap)))
		capped = rows[0].ListTotal > int64(s.cfg.TotalCap)
	}
	page.Total, page.TotalCapped = &total, capped
	ids := make([]string, 0, len(rows))
	for i := range rows {
		ids = append(ids, rows[i].ID)
	}
	// The read is one snapshot on these dialects (readOptions): the rows are all there.
	return s.tasksByID(tx, q.f.Tenant, ids)
}
