package tasks

import (
	"context"
	"slices"
	"time"

	"usertasks/models"
)

// DashboardStore is what the managers' dashboard needs from the repository.
type DashboardStore interface {
	DashboardCounts(ctx context.Context, tenant string, staleAfter time.Duration) (models.DashboardCounts, error)
	DailyRollup(ctx context.Context, tenant, fromDay string) (models.Rollup, error)
	WorkerRuns(ctx context.Context, tenant string, worker models.Worker, limit int) ([]models.WorkerRun, error)
}

// Dashboard answers the managers' console: the tenant's current numbers, the charts of the
// last DashboardDays days from the daily rollup, and the workers' recorded runs.
type Dashboard struct {
	store DashboardStore
	stale time.Duration
}

// NewDashboard builds a Dashboard; staleAfter <= 0 takes models.DefaultStaleAfter.
func NewDashboard(store DashboardStore, staleAfter time.Duration) *Dashboard {
	if staleAfter <= 0 {
		staleAfter = models.DefaultStaleAfter
	}
	return &Dashboard{store: store, stale: staleAfter}
}

// DashboardDays is how many UTC days the charts cover, today included.
const DashboardDays = 30

// Overview is the dashboard's content.
type Overview struct {
	Counts models.DashboardCounts
	// Days are the charts' UTC days, oldest first; the per-day series below are indexed alike.
	Days      []time.Time
	Open      []int // open and transitional tasks at the end of each day (today: now)
	Created   []int
	Completed []int // completed, timed out or cancelled: every task that closed that day
	// Closed counts the last DashboardDays days' ends of tasks per terminal status.
	Closed    map[models.Status]int
	Workflows []WorkflowStats
	// LastRuns are, per worker, the latest recorded run for the tenant and the latest over all
	// tenants (timing and error code only), where there are any.
	LastRuns []models.WorkerRun
	// StaleAfter is the staleness threshold the counts used.
	StaleAfter time.Duration
	// Escalations are the deadlines fired over the last EscalationDays days, per workflow
	// (dashboard_escalations.go).
	Escalations []WorkflowEscalations
}

// WorkflowStats are one workflow definition's numbers over the charts' days.
type WorkflowStats struct {
	ID, Name string
	Created  int
	Claimed  int
	// ClaimP50/P90 and CompleteP50/P90 are bucket bounds (see models.BucketQuantile); the
	// Has… flags are false without any claim or completion.
	ClaimP50, ClaimP90       time.Duration
	HasClaim                 bool
	CompleteP50, CompleteP90 time.Duration
	HasComplete              bool
	Completed                int // completions, with or without a due date
	WithDue                  int // completions of tasks with a due date
	OnTime                   int // of those, completed at or before it
}

// SLA is the share of completions with a due date that met it, and ok false without any.
func (w WorkflowStats) SLA() (float64, bool) {
	if w.WithDue == 0 {
		return 0, false
	}
	return float64(w.OnTime) / float64(w.WithDue), true
}

// Overview reads the dashboard of the manager's tenant. Non-managers get ErrForbidden.
func (d *Dashboard) Overview(ctx context.Context, a models.Actor) (Overview, error) {
	if err := requireManager(a); err != nil {
		return Overview{}, err
	}
	counts, err := d.store.DashboardCounts(ctx, a.Tenant, d.stale)
	if err != nil {
		return Overview{}, err
	}
	today := counts.Now.UTC().Truncate(24 * time.Hour)
	first := today.AddDate(0, 0, -(DashboardDays - 1))
	rollup, err := d.store.DailyRollup(ctx, a.Tenant, first.Format(time.DateOnly))
	if err != nil {
		return Overview{}, err
	}
	// The escalations' shorter range is a second read of the same index range (the rollup's
	// per-workflow sums cover the whole range, not days).
	recent, err := d.store.DailyRollup(ctx, a.Tenant, today.AddDate(0, 0, -(EscalationDays-1)).Format(time.DateOnly))
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Counts: counts, Closed: map[models.Status]int{}, StaleAfter: d.stale, Escalations: escalationsOf(recent),
		Created: make([]int, DashboardDays), Completed: make([]int, DashboardDays), Open: make([]int, DashboardDays)}
	for i := range DashboardDays {
		o.Days = append(o.Days, first.AddDate(0, 0, i))
	}
	byDay := map[string]int{}
	for i, day := range o.Days {
		byDay[day.Format(time.DateOnly)] = i
	}
	for _, st := range rollup.ByDay {
		i, ok := byDay[st.Day]
		if !ok {
			continue
		}
		n := int(st.Count)
		switch st.Metric {
		case models.MetricCreated:
			o.Created[i] += n
		case models.MetricCompleted, models.MetricCompletedOnTime, models.MetricCompletedLate:
			o.Completed[i] += n
			o.Closed[models.StatusCompleted] += n
		case models.MetricTimedOut:
			o.Completed[i] += n
			o.Closed[models.StatusTimedOut] += n
		case models.MetricCancelled:
			o.Completed[i] += n
			o.Closed[models.StatusCancelled] += n
		}
	}
	type hist struct{ claim, complete []int64 }
	flows := map[string]*WorkflowStats{}
	hists := map[string]*hist{}
	for _, st := range rollup.ByWorkflow {
		w := flows[st.WorkflowDefinitionID]
		if w == nil {
			w = &WorkflowStats{ID: st.WorkflowDefinitionID}
			flows[st.WorkflowDefinitionID] = w
			hists[st.WorkflowDefinitionID] = &hist{claim: make([]int64, len(models.DurationBuckets)+1),
				complete: make([]int64, len(models.DurationBuckets)+1)}
		}
		if st.WorkflowDefinitionName != "" {
			w.Name = st.WorkflowDefinitionName
		}
		h, n, b := hists[st.WorkflowDefinitionID], int(st.Count), min(max(st.Bucket, 0), len(models.DurationBuckets))
		switch st.Metric {
		case models.MetricCreated:
			w.Created += n
		case models.MetricClaimed:
			w.Claimed += n
			h.claim[b] += st.Count
		case models.MetricCompleted, models.MetricCompletedOnTime, models.MetricCompletedLate:
			w.Completed += n
			h.complete[b] += st.Count
			if st.Metric != models.MetricCompleted {
				w.WithDue += n
			}
			if st.Metric == models.MetricCompletedOnTime {
				w.OnTime += n
			}
		}
	}
	// Open at the end of a day is open now, less what was created after it, plus what closed
	// after it.
	open := 0
	for _, n := range counts.ByStatus {
		open += n
	}
	for i := DashboardDays - 1; i >= 0; i-- {
		o.Open[i] = max(open, 0)
		open += o.Completed[i] - o.Created[i]
	}
	for id, w := range flows {
		if w.Name == "" {
			w.Name = id
		}
		h := hists[id]
		w.ClaimP50, w.HasClaim = models.BucketQuantile(h.claim, 0.5)
		w.ClaimP90, _ = models.BucketQuantile(h.claim, 0.9)
		w.CompleteP50, w.HasComplete = models.BucketQuantile(h.complete, 0.5)
		w.CompleteP90, _ = models.BucketQuantile(h.complete, 0.9)
		o.Workflows = append(o.Workflows, *w)
	}
	slices.SortFunc(o.Workflows, func(a, b WorkflowStats) int {
		if a.Name != b.Name {
			if a.Name < b.Name {
				return -1
			}
			return 1
		}
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
	for _, w := range recordedWorkers {
		for _, tenant := range []string{a.Tenant, models.AllTenants} {
			runs, err := d.store.WorkerRuns(ctx, tenant, w, 1)
			if err != nil {
				return Overview{}, err
			}
			o.LastRuns = append(o.LastRuns, runs...)
		}
	}
	return o, nil
}

// Runs is the runs page's content: the latest runs of each worker, the tenant's own (with
// their counts) and those over all tenants (timing and error codes only).
type Runs struct {
	Workers []WorkerRuns
}

// WorkerRuns are one worker's latest runs, newest first.
type WorkerRuns struct {
	Worker models.Worker
	Tenant []models.WorkerRun
	All    []models.WorkerRun
}

// recordedWorkers are the workers whose runs the dashboard and the runs page show, in order.
var recordedWorkers = []models.Worker{models.WorkerReconciliation, models.WorkerDueSweep, models.WorkerDispatcher,
	models.WorkerDeliveries, models.WorkerNotify, models.WorkerPurge}

// RunsShown is how many runs per worker the runs page lists.
const RunsShown = 10

// Runs reads the latest recorded runs of every worker for the manager's tenant.
func (d *Dashboard) Runs(ctx context.Context, a models.Actor) (Runs, error) {
	if err := requireManager(a); err != nil {
		return Runs{}, err
	}
	var out Runs
	for _, w := range recordedWorkers {
		mine, err := d.store.WorkerRuns(ctx, a.Tenant, w, RunsShown)
		if err != nil {
			return Runs{}, err
		}
		all, err := d.store.WorkerRuns(ctx, models.AllTenants, w, RunsShown)
		if err != nil {
			return Runs{}, err
		}
		out.Workers = append(out.Workers, WorkerRuns{Worker: w, Tenant: mine, All: all})
	}
	return out, nil
}

// requireManager admits managers with the supervise permission only.
func requireManager(a models.Actor) error {
	if a.Guest != nil || a.System || !a.Manager || !models.ActorCan(a, models.PermSupervise) {
		return models.ErrForbidden
	}
	return nil
}
