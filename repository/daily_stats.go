package repository

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
)

// The daily rollup behind the dashboard's charts (migration 00003): one counter per tenant,
// UTC day of the database clock, workflow definition, metric and duration bucket. It is raised
// inside the transaction of the change it counts, with one guarded UPDATE (or one INSERT for a
// day's first count), so a rolled-back change counts nothing and a replay, which writes
// nothing, counts nothing either.

type dailyStatRecord struct {
	TenantID               string    `gorm:"column:tenant_id;primaryKey"`
	StatDay                string    `gorm:"column:stat_day;primaryKey"`
	WorkflowDefinitionID   string    `gorm:"column:workflow_definition_id;primaryKey"`
	Metric                 string    `gorm:"column:metric;primaryKey"`
	Bucket                 int       `gorm:"column:bucket;primaryKey;autoIncrement:false"`
	WorkflowDefinitionName *string   `gorm:"column:workflow_definition_name"`
	EventCount             int64     `gorm:"column:event_count"`
	UpdatedAt              time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (dailyStatRecord) TableName() string { return "user_task_daily_stats" }

// dailyStatReadColumns are the columns DailyStats reads, all of them in ix_daily_stats_read.
var dailyStatReadColumns = []string{"tenant_id", "stat_day", "workflow_definition_id", "metric", "bucket",
	"workflow_definition_name", "event_count"}

// statDay is the rollup's day of a database time.
func statDay(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// rollupOf says what a committed change counts: the metric and its duration bucket, or ok
// false when the change counts nothing (every change but a claim and the end of a task).
func rollupOf(before, after *models.Task, ev *models.Event, now time.Time) (metric string, bucket int, ok bool) {
	if ev != nil && ev.Type == models.EventClaimed {
		return models.MetricClaimed, models.DurationBucket(now.Sub(after.CreatedAt)), true
	}
	if before.Status == after.Status || !after.Status.IsTerminal() {
		return "", 0, false
	}
	switch after.Status {
	case models.StatusCompleted:
		done := now
		if after.CompletedAt != nil {
			done = *after.CompletedAt
		}
		metric = models.MetricCompleted
		if after.DueAt != nil {
			metric = models.MetricCompletedLate
			if !done.After(*after.DueAt) {
				metric = models.MetricCompletedOnTime
			}
		}
		return metric, models.DurationBucket(done.Sub(after.CreatedAt)), true
	case models.StatusTimedOut:
		return models.MetricTimedOut, 0, true
	case models.StatusCancelled:
		return models.MetricCancelled, 0, true
	}
	return "", 0, false
}

// countDaily raises one counter of the rollup by one. A concurrent first count of the same
// day wins the primary key; the whole transaction then runs again and finds the row.
func (s *Store) countDaily(tx *gorm.DB, t *models.Task, metric string, bucket int, now time.Time) error {
	day := statDay(now)
	name := opt(t.Workflow.DefinitionName)
	res := tx.Model(&dailyStatRecord{}).
		Where("tenant_id = ? AND stat_day = ? AND workflow_definition_id = ? AND metric = ? AND bucket = ?",
			t.Tenant, day, t.Workflow.DefinitionID, metric, bucket).
		Updates(map[string]any{"event_count": gorm.Expr("event_count + 1"), "workflow_definition_name": name, "updated_at": now})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected > 0 {
		return nil
	}
	rec := dailyStatRecord{TenantID: t.Tenant, StatDay: day, WorkflowDefinitionID: t.Workflow.DefinitionID, Metric: metric,
		Bucket: bucket, WorkflowDefinitionName: name, EventCount: 1, UpdatedAt: now}
	if err := translate(tx.Create(&rec).Error); err != nil {
		if errors.Is(err, errDuplicate) {
			return fmt.Errorf("%w: daily counter created concurrently", errRetry)
		}
		return err
	}
	return nil
}

// DailyStats returns the tenant's rollup counters from the UTC day fromDay (YYYY-MM-DD) on,
// ordered by day: in key order from ix_daily_stats_read alone, which holds every column read.
func (s *Store) DailyStats(ctx context.Context, tenant, fromDay string) ([]models.DailyStat, error) {
	var recs []dailyStatRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Select(dailyStatReadColumns).Where("tenant_id = ? AND stat_day >= ?", tenant, fromDay).
			Order("stat_day").Order("workflow_definition_id").Order("metric").Order("bucket").Find(&recs).Error)
	})
	out := make([]models.DailyStat, 0, len(recs))
	for _, r := range recs {
		out = append(out, models.DailyStat{Day: r.StatDay, WorkflowDefinitionID: r.WorkflowDefinitionID,
			WorkflowDefinitionName: str(r.WorkflowDefinitionName), Metric: r.Metric, Bucket: r.Bucket, Count: r.EventCount})
	}
	return out, err
}
