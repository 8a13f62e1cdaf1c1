package storekit

import (
	"time"

	"usertasks/models"
)

// StatDay is the daily rollup's day of a database time.
func StatDay(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Rollup says what a committed change counts in the daily rollup: the metric and its duration
// bucket, or ok false when the change counts nothing (every change but a claim, a deadline's
// firing and the end of a task: completed on time, late or without a due date, timed out,
// cancelled). A firing that changed no state counts too: the stores pass its event with the
// task it leaves unchanged.
func Rollup(before, after *models.Task, ev *models.Event, now time.Time) (metric string, bucket int, ok bool) {
	if ev != nil && ev.Type == models.EventDeadlineFired {
		return models.MetricEscalated, 0, true
	}
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

// DailyCount is the count of one change of task t at now (the database's) in metric and
// bucket (Rollup): the UTC day of now, the task's workflow definition.
func DailyCount(t *models.Task, metric string, bucket int, now time.Time) DailyStatRow {
	return DailyStatRow{TenantID: t.Tenant, StatDay: StatDay(now), WorkflowDefinitionID: t.Workflow.DefinitionID,
		Metric: metric, Bucket: bucket, WorkflowDefinitionName: Opt(t.Workflow.DefinitionName), EventCount: 1}
}
