package repository

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// The daily rollup behind the dashboard's charts (migration 00003): one counter per tenant,
// UTC day of the database clock, workflow definition, metric and duration bucket. It is raised
// inside the transaction of the change it counts, with one guarded UPDATE (or one INSERT for a
// day's first count), so a rolled-back change counts nothing and a replay, which writes
// nothing, counts nothing either.
//
// Each counter is split into stripes (migration 00012), like the tenant's open-task count
// (tenant_counter.go): a change raises the stripe its task id picks, so a tenant's writers that
// count the same workflow, metric and bucket on one day lock different rows instead of queueing
// on one. A counter is the sum of its stripes; the dashboard's read sums them anyway.

type dailyStatRecord struct {
	storekit.DailyStatRow `gorm:"embedded"`
	UpdatedAt             time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
	Stripe                int       `gorm:"column:stripe;primaryKey;autoIncrement:false"`
}

func (dailyStatRecord) TableName() string { return "user_task_daily_stats" }

// countDaily raises the task's stripe of one counter of the rollup by one. A concurrent first
// count of the same stripe wins the primary key; the whole transaction then runs again and finds
// the row. The stripes are as many as the open-task counter's: one on SQLite, whose single
// writer gains nothing from more.
func (s *Store) countDaily(tx *gorm.DB, t *models.Task, metric string, bucket int, now time.Time) error {
	count := storekit.DailyCount(t, metric, bucket, now)
	stripe := stripeOf(t.ID, s.counterStripes())
	res := tx.Model(&dailyStatRecord{}).
		Where("tenant_id = ? AND stat_day = ? AND workflow_definition_id = ? AND metric = ? AND bucket = ? AND stripe = ?",
			count.TenantID, count.StatDay, count.WorkflowDefinitionID, count.Metric, count.Bucket, stripe).
		Updates(map[string]any{"event_count": gorm.Expr("event_count + 1"), "workflow_definition_name": count.WorkflowDefinitionName, "updated_at": now})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected > 0 {
		return nil
	}
	rec := dailyStatRecord{DailyStatRow: count, UpdatedAt: now, Stripe: stripe}
	if err := translate(tx.Create(&rec).Error); err != nil {
		if errors.Is(err, errDuplicate) {
			return fmt.Errorf("%w: daily counter created concurrently", errRetry)
		}
		return err
	}
	return nil
}

// DailyRollup sums the tenant's rollup counters from the UTC day fromDay (YYYY-MM-DD) on, per
// day and metric and per workflow, metric and bucket: two aggregates over one range of
// ix_daily_stats_read, which holds every column read. The range holds up to days × workflows
// × metrics × buckets counters (20,000 at the scale target), each in up to 16 stripe rows; the
// sums are a few hundred rows, so the database adds them up (a counter's stripes with the rest)
// rather than handing every row to Go. A workflow renamed within the range shows one of its
// names.
func (s *Store) DailyRollup(ctx context.Context, tenant, fromDay string) (models.Rollup, error) {
	var days []struct {
		StatDay string
		Metric  string
		N       int64
	}
	var flows []struct {
		WorkflowDefinitionID string
		Name                 *string
		Metric               string
		Bucket               int
		N                    int64
	}
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		inRange := func() *gorm.DB {
			return tx.Model(&dailyStatRecord{}).Where("tenant_id = ? AND stat_day >= ?", tenant, fromDay)
		}
		if err := inRange().Select("stat_day, metric, SUM(event_count) AS n").
			Group("stat_day, metric").Order("stat_day, metric").Scan(&days).Error; err != nil {
			return translate(err)
		}
		return translate(inRange().Select("workflow_definition_id, MAX(workflow_definition_name) AS name, metric, bucket, SUM(event_count) AS n").
			Group("workflow_definition_id, metric, bucket").Order("workflow_definition_id, metric, bucket").Scan(&flows).Error)
	})
	if err != nil {
		return models.Rollup{}, err
	}
	var out models.Rollup
	for _, d := range days {
		out.ByDay = append(out.ByDay, models.DailyStat{Day: d.StatDay, Metric: d.Metric, Count: d.N})
	}
	for _, f := range flows {
		out.ByWorkflow = append(out.ByWorkflow, models.DailyStat{WorkflowDefinitionID: f.WorkflowDefinitionID,
			WorkflowDefinitionName: storekit.Str(f.Name), Metric: f.Metric, Bucket: f.Bucket, Count: f.N})
	}
	return out, nil
}
