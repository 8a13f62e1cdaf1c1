package storekit

import (
	"time"

	"usertasks/models"
)

// DailyStatRow is a count of the daily rollup (user_task_daily_stats) as both stores keep it:
// the SQL store raises one such row per counter (in stripes), the document store keeps one
// per counted change; a counter is the sum of its rows' EventCount.
type DailyStatRow struct {
	TenantID               string  `gorm:"column:tenant_id;primaryKey" bson:"tenant_id"`
	StatDay                string  `gorm:"column:stat_day;primaryKey" bson:"stat_day"`
	WorkflowDefinitionID   string  `gorm:"column:workflow_definition_id;primaryKey" bson:"workflow_definition_id"`
	Metric                 string  `gorm:"column:metric;primaryKey" bson:"metric"`
	Bucket                 int     `gorm:"column:bucket;primaryKey;autoIncrement:false" bson:"bucket"`
	WorkflowDefinitionName *string `gorm:"column:workflow_definition_name" bson:"workflow_definition_name"`
	EventCount             int64   `gorm:"column:event_count" bson:"event_count"`
}

// DailyCount is the count of one change of task t at now (the database's) in metric and
// bucket (Rollup): the UTC day of now, the task's workflow definition.
func DailyCount(t *models.Task, metric string, bucket int, now time.Time) DailyStatRow {
	return DailyStatRow{TenantID: t.Tenant, StatDay: StatDay(now), WorkflowDefinitionID: t.Workflow.DefinitionID,
		Metric: metric, Bucket: bucket, WorkflowDefinitionName: Opt(t.Workflow.DefinitionName), EventCount: 1}
}
