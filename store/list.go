package store

import (
	"context"
	"time"

	"usertasks/models"
)

// Lists are the task lists and the workflows they can be filtered by.
type Lists interface {
	Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error)
	WorkflowChoices(ctx context.Context, f models.TaskFilter, limit int) ([]models.WorkflowChoice, error)
}

// Dashboards are the managers' counts: the outbox backlog, the tenant's counts and its daily
// rollup.
type Dashboards interface {
	Backlog(ctx context.Context) (models.Backlog, error)
	DashboardCounts(ctx context.Context, tenant string, staleAfter time.Duration) (models.DashboardCounts, error)
	DailyRollup(ctx context.Context, tenant, fromDay string) (models.Rollup, error)
}
