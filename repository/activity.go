package repository

import (
	"context"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// ActivityCounts counts the comments (not deleted) and the finished attachments of the tasks
// named (store.Activity): one GROUP BY per table in one read transaction, each over the
// tasks' ranges of ix_comments_list and ix_attachments_task (tenant_id, task_id leading).
// The deleted and unfinished rows are filtered from those ranges: a task holds at most
// models.MaxCommentsPerTask comments and a few attachments, so no wider index is needed.
func (s *Store) ActivityCounts(ctx context.Context, tenant string, taskIDs []string) (map[string]models.ActivityCount, error) {
	ids, err := storekit.ActivityTaskIDs(taskIDs)
	if err != nil {
		return nil, err
	}
	out := map[string]models.ActivityCount{}
	if len(ids) == 0 {
		return out, nil
	}
	type count struct {
		TaskID string `gorm:"column:task_id"`
		N      int    `gorm:"column:n"`
	}
	err = s.inRead(ctx, func(tx *gorm.DB) error {
		var comments, files []count
		if err := tx.Model(&commentRecord{}).Select("task_id, COUNT(*) AS n").
			Where("tenant_id = ? AND task_id IN ? AND deleted_at IS NULL", tenant, ids).Group("task_id").Scan(&comments).Error; err != nil {
			return translate(err)
		}
		if err := tx.Model(&attachmentRecord{}).Select("task_id, COUNT(*) AS n").
			Where("tenant_id = ? AND task_id IN ? AND created_at IS NOT NULL", tenant, ids).Group("task_id").Scan(&files).Error; err != nil {
			return translate(err)
		}
		for _, c := range comments {
			storekit.AddActivity(out, c.TaskID, c.N, false)
		}
		for _, f := range files {
			storekit.AddActivity(out, f.TaskID, f.N, true)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
