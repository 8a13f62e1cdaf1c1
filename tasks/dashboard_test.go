package tasks_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/tasks"
)

// dashStore is an in-memory DashboardStore: the service's arithmetic is under test here; the
// store's queries are the contract suite's.
type dashStore struct {
	counts models.DashboardCounts
	stats  []models.DailyStat
	froms  []string // the days each DailyRollup read from
	runs   map[string][]models.WorkerRun
}

func (s *dashStore) DashboardCounts(context.Context, string, time.Duration) (models.DashboardCounts, error) {
	return s.counts, nil
}

// DailyRollup sums the counters from day from on, as the store's two aggregates do.
func (s *dashStore) DailyRollup(_ context.Context, _ string, from string) (models.Rollup, error) {
	s.froms = append(s.froms, from)
	days, flows := map[models.DailyStat]int64{}, map[models.DailyStat]int64{}
	names := map[string]string{}
	for _, st := range s.stats {
		if st.Day < from {
			continue
		}
		days[models.DailyStat{Day: st.Day, Metric: st.Metric}] += st.Count
		flows[models.DailyStat{WorkflowDefinitionID: st.WorkflowDefinitionID, Metric: st.Metric, Bucket: st.Bucket}] += st.Count
		names[st.WorkflowDefinitionID] = max(names[st.WorkflowDefinitionID], st.WorkflowDefinitionName)
	}
	var r models.Rollup
	for k, n := range days {
		k.Count = n
		r.ByDay = append(r.ByDay, k)
	}
	for k, n := range flows {
		k.Count, k.WorkflowDefinitionName = n, names[k.WorkflowDefinitionID]
		r.ByWorkflow = append(r.ByWorkflow, k)
	}
	return r, nil
}

func (s *dashStore) WorkerRuns(_ context.Context, tenant string, w models.Worker, _ int) ([]models.WorkerRun, error) {
	return s.runs[tenant+"/"+string(w)], nil
}

func TestDashboardOverview(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)
	store := &dashStore{
		counts: models.DashboardCounts{Now: now, ByStatus: map[models.Status]int{models.StatusAvailable: 4, models.StatusCompleting: 1}},
		stats: []models.DailyStat{
			{Day: "2026-03-10", WorkflowDefinitionID: "loan", WorkflowDefinitionName: "Loan", Metric: models.MetricCreated, Count: 3},
			{Day: "2026-03-09", WorkflowDefinitionID: "loan", Metric: models.MetricCreated, Count: 2},
			{Day: "2026-03-10", WorkflowDefinitionID: "loan", Metric: models.MetricCompletedOnTime, Bucket: 1, Count: 3},
			{Day: "2026-03-10", WorkflowDefinitionID: "loan", Metric: models.MetricCompletedLate, Bucket: 8, Count: 1},
			{Day: "2026-03-09", WorkflowDefinitionID: "loan", Metric: models.MetricCancelled, Count: 1},
			{Day: "2026-03-10", WorkflowDefinitionID: "loan", Metric: models.MetricClaimed, Bucket: 0, Count: 9},
			{Day: "2026-03-10", WorkflowDefinitionID: "loan", Metric: models.MetricClaimed, Bucket: 4, Count: 1},
			{Day: "2026-03-10", WorkflowDefinitionID: "hr", Metric: models.MetricCompleted, Bucket: 2, Count: 2},
			{Day: "2020-01-01", WorkflowDefinitionID: "old", Metric: models.MetricCreated, Count: 50}, // outside the days
		},
		runs: map[string][]models.WorkerRun{"t1/due-sweep": {{Worker: models.WorkerDueSweep, Tenant: "t1"}},
			"*/due-sweep": {{Worker: models.WorkerDueSweep, Tenant: models.AllTenants}}},
	}
	d := tasks.NewDashboard(store, 0)
	boss := models.Actor{Tenant: "t1", Subject: models.ParticipantRef{ID: "boss"}, Manager: true, Permissions: []string{"user-tasks:*"}}

	t.Run("ErrForbidden", func(t *testing.T) {
		for name, a := range map[string]models.Actor{
			"NotManager":    {Tenant: "t1", Permissions: []string{"user-tasks:*"}},
			"NoSupervise":   {Tenant: "t1", Manager: true, Permissions: []string{"user-tasks:view"}},
			"Guest":         {Tenant: "t1", Manager: true, Permissions: []string{"*"}, Guest: &models.GuestGrant{}},
			"SystemNoPerms": {Tenant: "t1", System: true},
		} {
			if _, err := d.Overview(t.Context(), a); !errors.Is(err, models.ErrForbidden) {
				t.Errorf("%s: overview %v, want forbidden", name, err)
			}
			if _, err := d.Runs(t.Context(), a); !errors.Is(err, models.ErrForbidden) {
				t.Errorf("%s: runs %v, want forbidden", name, err)
			}
		}
	})

	t.Run("OK", func(t *testing.T) {
		o, err := d.Overview(t.Context(), boss)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(store.froms, "2026-02-09") || len(o.Days) != tasks.DashboardDays || !o.Days[len(o.Days)-1].Equal(now.Truncate(24*time.Hour)) {
			t.Fatalf("days from %s (%d, last %v), want the 30 days to today", store.froms, len(o.Days), o.Days[len(o.Days)-1])
		}
		last := tasks.DashboardDays - 1
		if o.Created[last] != 3 || o.Created[last-1] != 2 || o.Completed[last] != 6 || o.Completed[last-1] != 1 {
			t.Fatalf("created %v completed %v", o.Created[last-1:], o.Completed[last-1:])
		}
		// Open now 5; end of yesterday: 5 - 3 created today + 6 closed today = 8; the day
		// before: 8 - 2 + 1 = 7.
		if o.Open[last] != 5 || o.Open[last-1] != 8 || o.Open[last-2] != 7 || o.Open[0] != 7 {
			t.Fatalf("open %v", o.Open)
		}
		if o.Closed[models.StatusCompleted] != 6 || o.Closed[models.StatusCancelled] != 1 {
			t.Fatalf("closed %v", o.Closed)
		}
		if len(o.Workflows) != 2 || o.Workflows[0].Name != "Loan" || o.Workflows[1].Name != "hr" {
			t.Fatalf("workflows %+v, want Loan and hr (its id for a name), by name", o.Workflows)
		}
		loan := o.Workflows[0]
		if !loan.HasClaim || loan.ClaimP50 != models.DurationBuckets[0] || loan.ClaimP90 != models.DurationBuckets[0] {
			t.Fatalf("loan claim p50 %s p90 %s", loan.ClaimP50, loan.ClaimP90)
		}
		if loan.CompleteP50 != models.DurationBuckets[1] || loan.CompleteP90 != models.DurationBuckets[8] {
			t.Fatalf("loan complete p50 %s p90 %s", loan.CompleteP50, loan.CompleteP90)
		}
		if sla, ok := loan.SLA(); !ok || sla != 0.75 {
			t.Fatalf("loan SLA %v %v, want 3 of 4", sla, ok)
		}
		if _, ok := o.Workflows[1].SLA(); ok || o.Workflows[1].HasClaim {
			t.Fatalf("hr has no due dates and no claims: %+v", o.Workflows[1])
		}
		if len(o.LastRuns) != 2 || o.LastRuns[0].Tenant != "t1" || o.LastRuns[1].Tenant != models.AllTenants {
			t.Fatalf("last runs %+v, want the sweep's for t1 and for all tenants", o.LastRuns)
		}
	})
}
