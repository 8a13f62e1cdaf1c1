package tasks_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/tasks"
)

// TestDashboardEscalations: the last 7 UTC days' fired deadlines per workflow, most first,
// read from the rollup; older escalations and other metrics are not counted.
func TestDashboardEscalations(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)
	store := &dashStore{
		counts: models.DashboardCounts{Now: now},
		stats: []models.DailyStat{
			{Day: "2026-03-10", WorkflowDefinitionID: "loan", WorkflowDefinitionName: "Loan", Metric: models.MetricEscalated, Count: 2},
			{Day: "2026-03-04", WorkflowDefinitionID: "loan", Metric: models.MetricEscalated, Count: 1},  // the 7th day back
			{Day: "2026-03-03", WorkflowDefinitionID: "loan", Metric: models.MetricEscalated, Count: 40}, // the 8th: outside
			{Day: "2026-03-09", WorkflowDefinitionID: "hr/x?y#z", Metric: models.MetricEscalated, Count: 5},
			{Day: "2026-03-09", WorkflowDefinitionID: "idle", Metric: models.MetricCreated, Count: 9},
		},
	}
	boss := models.Actor{Tenant: "t1", Subject: models.ParticipantRef{ID: "boss"}, Manager: true, Permissions: []string{"user-tasks:*"}}
	o, err := tasks.NewDashboard(store, 0).Overview(t.Context(), boss)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(store.froms, "2026-03-04") {
		t.Fatalf("rollup reads from %v, want one from 2026-03-04 (7 days, today included)", store.froms)
	}
	got := fmt.Sprint(o.Escalations)
	if want := fmt.Sprint([]tasks.WorkflowEscalations{{ID: "hr/x?y#z", Count: 5}, {ID: "loan", Name: "Loan", Count: 3}}); got != want {
		t.Fatalf("escalations %s, want %s", got, want)
	}
}
