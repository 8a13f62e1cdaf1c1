package handlers

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"sort"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/chart"
	"usertasks/views/i18n"
)

// DashboardService answers the managers' console pages; *tasks.Dashboard implements it.
type DashboardService interface {
	Overview(ctx context.Context, a models.Actor) (tasks.Overview, error)
	Runs(ctx context.Context, a models.Actor) (tasks.Runs, error)
}

// manageDashboard handles GET /manage: managers only (others get the 403 page).
func (w *web) manageDashboard(c echo.Context) error {
	o, err := w.dashboard.Overview(c.Request().Context(), webActor(c))
	if err != nil {
		return err
	}
	ch := w.chrome(c, func(t *i18n.Catalog) string { return t.Dash.Title })
	return w.render(c, http.StatusOK, views.DashboardView(dashboardPage(ch, o)))
}

// manageRuns handles GET /manage/runs: managers only.
func (w *web) manageRuns(c echo.Context) error {
	r, err := w.dashboard.Runs(c.Request().Context(), webActor(c))
	if err != nil {
		return err
	}
	ch := w.chrome(c, func(t *i18n.Catalog) string { return t.Dash.RunsTitle })
	page := views.RunsPage{Chrome: ch}
	for _, wr := range r.Workers {
		v := views.WorkerRunsView{Name: ch.T.Dash.Worker(string(wr.Worker)), Key: string(wr.Worker)}
		switch wr.Worker {
		case models.WorkerDispatcher:
			v.Note = ch.T.Dash.DispatcherNote
		case models.WorkerDeliveries:
			v.Note = ch.T.Dash.DeliveriesNote
		case models.WorkerNotify:
			v.Note = ch.T.Dash.NotifyNote
		}
		for _, run := range wr.Tenant {
			v.Tenant = append(v.Tenant, runRow(ch.T, run))
		}
		for _, run := range wr.All {
			v.All = append(v.All, runRow(ch.T, run))
		}
		page.Workers = append(page.Workers, v)
	}
	return w.render(c, http.StatusOK, views.RunsView(page))
}

// inboxLink is the All list (or another manager tab) filtered by params, as the inbox reads
// its URL.
func inboxLink(tab models.Scope, params ...string) string {
	v := url.Values{}
	v.Set("tab", string(tab))
	for i := 0; i+1 < len(params); i += 2 {
		v.Add(params[i], params[i+1])
	}
	return "/inbox?" + v.Encode()
}

// dashboardPage turns the overview into the page's view model: every count with the list
// that shows its tasks.
func dashboardPage(ch views.Chrome, o tasks.Overview) views.DashboardPage {
	t := ch.T
	d := t.Dash
	m := views.DashboardPage{Chrome: ch, Intro: fmt.Sprintf(d.Intro, tasks.DashboardDays),
		RecentHead: fmt.Sprintf(d.RecentHead, tasks.DashboardDays)}
	for _, s := range append(append([]models.Status{}, models.OpenStatuses...), models.TransitionalStatuses...) {
		m.Statuses = append(m.Statuses, views.DashCount{Label: t.Status(s), Count: o.Counts.ByStatus[s], Icon: views.StatusIcon(s),
			Href: inboxLink(models.ScopeAll, "status", string(s)), TestID: "count-status-" + string(s)})
	}
	for _, h := range o.Counts.ByHealth {
		sev := t.HealthAdvisory
		icon := "info"
		if h.Severity == models.SeverityBlocking {
			sev, icon = t.HealthBlocking, "blocking"
		}
		m.Health = append(m.Health, views.DashCount{Label: sev + ": " + t.HealthName(h.Code), Count: h.Count, Icon: icon,
			Href:   inboxLink(models.ScopeNeedsAttention, "healthCode", h.Code, "healthSeverity", string(h.Severity)),
			TestID: "count-health-" + h.Code})
	}
	m.Attention = []views.DashCount{
		{Label: d.Overdue, Count: o.Counts.Overdue, Icon: "overdue", Href: inboxLink(models.ScopeAll, "due", string(models.DueOverdue)),
			TestID: "count-overdue"},
		{Label: fmt.Sprintf(d.Stale, d.Span(t, o.StaleAfter)), Count: o.Counts.StaleTransitions,
			Icon: "pending", Href: inboxLink(models.ScopeNeedsAttention), TestID: "count-stale"},
	}
	transitional := []string{}
	for _, s := range models.TransitionalStatuses {
		transitional = append(transitional, "status", string(s))
	}
	m.Backlog = views.DashCount{Label: d.Backlog, Count: o.Counts.Backlog, Icon: "send", Href: inboxLink(models.ScopeAll, transitional...),
		TestID: "count-backlog"}
	if o.Counts.OldestPending != nil {
		m.OldestNote = fmt.Sprintf(d.OldestAge, t.Relative(*o.Counts.OldestPending, o.Counts.Now))
	}
	for _, s := range models.TerminalStatuses {
		m.Closed = append(m.Closed, views.DashCount{Label: t.Status(s), Count: o.Closed[s], Icon: views.StatusIcon(s),
			Href:   inboxLink(models.ScopeAll, "status", string(s), "sort", string(models.SortCompleted), "direction", "desc"),
			TestID: "count-closed-" + string(s)})
	}
	for _, l := range o.Counts.Workload {
		name := l.Assignee.DisplayName
		if name == "" {
			name = l.Assignee.ID
		}
		// The open tasks the number counts: the assignee's, in the open statuses.
		params := assigneeParams(l.Assignee)
		for _, s := range models.OpenStatuses {
			params = append(params, "status", string(s))
		}
		m.Workload = append(m.Workload, views.DashCount{Label: name, Count: l.Count, Icon: "user", TestID: "count-workload",
			Href: inboxLink(models.ScopeAll, params...)})
	}
	m.Escalations = escalationsTable(t, o.Escalations)
	m.Charts = dashboardCharts(t, o)
	for _, run := range o.LastRuns {
		m.Runs = append(m.Runs, runRow(t, run))
	}
	return m
}

// dashboardCharts lays out the four charts of the overview.
func dashboardCharts(t *i18n.Catalog, o tasks.Overview) []chart.Layout {
	d := t.Dash
	days := make([]string, len(o.Days))
	for i, day := range o.Days {
		days[i] = fmt.Sprintf("%d %s", day.Day(), shortMonth(t, day.Month()))
	}
	floats := func(v []int) []float64 {
		out := make([]float64, len(v))
		for i, n := range v {
			out[i] = float64(n)
		}
		return out
	}
	n := tasks.DashboardDays
	out := []chart.Layout{
		chart.Lay(chart.Chart{ID: "open", Title: d.OpenChart, Desc: fmt.Sprintf(d.OpenDesc, n), CategoryHeader: d.Day, Categories: days,
			LabelEvery: 7, Series: []chart.Series{{Name: d.Open, Values: floats(o.Open)}}}),
		chart.Lay(chart.Chart{ID: "flow", Title: d.FlowChart, Desc: fmt.Sprintf(d.FlowDesc, n), CategoryHeader: d.Day, Categories: days,
			LabelEvery: 7, Series: []chart.Series{{Name: d.Created, Values: floats(o.Created)}, {Name: d.Completed, Values: floats(o.Completed)}}}),
	}
	var flows, slaFlows []string
	var claim50, claim90, done50, done90, sla []float64
	for _, w := range o.Workflows {
		flows = append(flows, w.Name)
		claim50, claim90 = append(claim50, w.ClaimP50.Minutes()), append(claim90, w.ClaimP90.Minutes())
		done50, done90 = append(done50, w.CompleteP50.Minutes()), append(done90, w.CompleteP90.Minutes())
		// Only workflows that completed a task with a due date have a share; the others would
		// read as 0 % on time.
		if share, ok := w.SLA(); ok {
			slaFlows, sla = append(slaFlows, w.Name), append(sla, share)
		}
	}
	slaMax := 0.0 // with no share at all the chart says "no data" instead of drawing an empty scale
	if len(sla) > 0 {
		slaMax = 1
	}
	minutes := func(v float64) string {
		if v <= 0 {
			return "–"
		}
		dur := time.Duration(v * float64(time.Minute))
		return d.Duration(t, dur, dur > models.DurationBuckets[len(models.DurationBuckets)-1])
	}
	percent := func(v float64) string { return fmt.Sprintf(d.Percent, int(math.Round(v*100))) }
	out = append(out,
		chart.Lay(chart.Chart{ID: "claim", Title: d.ClaimChart, Desc: fmt.Sprintf(d.ClaimDesc, n), CategoryHeader: d.Workflow, Categories: flows,
			Horizontal: true, Format: minutes, Series: []chart.Series{{Name: d.P50, Values: claim50}, {Name: d.P90, Values: claim90}}}),
		chart.Lay(chart.Chart{ID: "complete", Title: d.CompleteChart, Desc: fmt.Sprintf(d.CompleteDesc, n), CategoryHeader: d.Workflow,
			Categories: flows, Horizontal: true, Format: minutes,
			Series: []chart.Series{{Name: d.P50, Values: done50}, {Name: d.P90, Values: done90}}}),
		chart.Lay(chart.Chart{ID: "sla", Title: d.SLAChart, Desc: fmt.Sprintf(d.SLADesc, n), CategoryHeader: d.Workflow, Categories: slaFlows,
			Horizontal: true, Max: slaMax, Format: percent, Series: []chart.Series{{Name: d.SLA, Values: sla}}}),
	)
	return out
}

// shortMonth is a month's name cut to three letters, for chart labels.
func shortMonth(t *i18n.Catalog, m time.Month) string {
	name := []rune(t.Months[m-1])
	return string(name[:min(3, len(name))])
}

// runRow is one recorded run as the pages list it.
func runRow(t *i18n.Catalog, r models.WorkerRun) views.RunRow {
	row := views.RunRow{Worker: t.Dash.Worker(string(r.Worker)), Key: string(r.Worker), Started: r.StartedAt, Finished: r.FinishedAt,
		Took: t.Dash.Length(t, r.Duration()), Result: t.Dash.Succeeded, Scope: t.Dash.ThisTenant}
	if r.Tenant == models.AllTenants {
		row.Scope = t.Dash.AllTenants
	}
	if r.ErrorCode != "" {
		row.Failed, row.Result = true, fmt.Sprintf(t.Dash.FailedWith, r.ErrorCode)
	}
	names := make([]string, 0, len(r.Counts))
	for k := range r.Counts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		row.Counts = append(row.Counts, views.RunCount{Name: t.Dash.CountName(k), Count: r.Counts[k]})
	}
	return row
}
