package repository

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// DueSoonTasks pages the open tasks, of every tenant, with a due time in (from, to], by due
// time then id, after the given task (nil for the first page): the due-soon worker's scan.
// Each open status is one walk of ix_tasks_due_sweep (status, due_at, id) in index order that
// stops after the page, as DueTasks walks it; the walks' rows are merged into due-time order
// here. Items carry safe columns only.
func (s *Store) DueSoonTasks(ctx context.Context, from, to time.Time, after *models.Task, limit int) ([]models.Task, error) {
	limit = storekit.WorkerPageLimit(limit)
	from, to = sqlCodec.Time(from), sqlCodec.Time(to)
	if after != nil && after.DueAt == nil {
		return nil, fmt.Errorf("due-soon scan: the page cursor %q has no due date", after.ID)
	}
	var out []models.Task
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var recs []taskRecord
		for _, status := range openStatuses {
			q := tx.Model(&taskRecord{}).Select(summaryColumns).Where("status = ? AND due_at > ? AND due_at <= ?", status, from, to)
			if after != nil {
				due := sqlCodec.Time(*after.DueAt)
				// due_at >= ? bounds the index range; the OR only filters its first entries.
				q = q.Where("due_at >= ? AND (due_at > ? OR id > ?)", due, due, after.ID)
			}
			var page []taskRecord
			if err := q.Order("due_at").Order("id").Limit(limit).Find(&page).Error; err != nil {
				return translate(err)
			}
			recs = append(recs, page...)
		}
		slices.SortFunc(recs, func(a, b taskRecord) int {
			if c := a.DueAt.Compare(*b.DueAt); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
		var err error
		out, err = s.safeTasks(recs[:min(limit, len(recs))])
		return err
	})
	return out, err
}
