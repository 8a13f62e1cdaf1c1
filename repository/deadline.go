package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// deadlineRecord is a row of user_task_deadlines (migration 00018).
type deadlineRecord struct {
	storekit.DeadlineRow `gorm:"embedded"`
}

func (deadlineRecord) TableName() string { return "user_task_deadlines" }

// insertDeadlines writes a created task's deadlines (Change.Deadlines) in its transaction.
func (s *Store) insertDeadlines(tx *gorm.DB, ds []models.Deadline, now time.Time) error {
	if len(ds) == 0 {
		return nil
	}
	recs := make([]deadlineRecord, len(ds))
	for i := range ds {
		row, err := sqlCodec.DeadlineRow(&ds[i], now)
		if err != nil {
			return err
		}
		recs[i] = deadlineRecord{row}
	}
	return translate(tx.Create(&recs).Error)
}

// TaskDeadlines lists the task's deadlines by index (the primary key's order).
func (s *Store) TaskDeadlines(ctx context.Context, tenant, taskID string) ([]models.Deadline, error) {
	var out []models.Deadline
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var recs []deadlineRecord
		if err := tx.Where("task_id = ? AND tenant_id = ?", taskID, tenant).Order("idx").Find(&recs).Error; err != nil {
			return translate(err)
		}
		out = make([]models.Deadline, 0, len(recs))
		for i := range recs {
			d, err := sqlCodec.Deadline(&recs[i].DeadlineRow)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	return out, err
}

// DueDeadlines pages the pending deadlines due by the database clock. One walk of
// ix_deadlines_due (state, due_at, task_id, idx) from state pending in index order that stops
// after the page: due_at >= the cursor's bounds the range, the OR only filters its first
// entries. A settled deadline has left the pending range, so the walk never meets it again.
func (s *Store) DueDeadlines(ctx context.Context, limit int, after *models.DeadlineKey) ([]models.Deadline, error) {
	limit = storekit.WorkerPageLimit(limit)
	var out []models.Deadline
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		q := tx.Model(&deadlineRecord{}).Where("state = ? AND due_at <= ?", string(models.DeadlinePending), now)
		if after != nil {
			due := sqlCodec.Time(after.DueAt)
			q = q.Where("due_at >= ? AND (due_at > ? OR task_id > ? OR (task_id = ? AND idx > ?))",
				due, due, after.TaskID, after.TaskID, after.Index)
		}
		var recs []deadlineRecord
		if err := q.Order("due_at").Order("task_id").Order("idx").Limit(limit).Find(&recs).Error; err != nil {
			return translate(err)
		}
		out = make([]models.Deadline, 0, len(recs))
		for i := range recs {
			d, err := sqlCodec.Deadline(&recs[i].DeadlineRow)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	return out, err
}
