package views

import (
	"time"

	"usertasks/models"
	"usertasks/views/chart"
)

// DashboardPage is /manage: the tenant's numbers now, each linking to its filtered list, the
// charts of the last days, and the workers' last runs.
type DashboardPage struct {
	Chrome
	Intro      string
	Statuses   []DashCount
	Health     []DashCount
	Attention  []DashCount
	Backlog    DashCount
	OldestNote string // "oldest queued 3 minutes ago"; empty without a backlog
	RecentHead string
	Closed     []DashCount
	Workload   []DashCount
	Charts     []chart.Layout
	Runs       []RunRow
	// Escalations are the fired deadlines of the last days per workflow (manage_escalations.templ).
	Escalations EscalationsTable
}

// DashCount is one number of the dashboard: what it counts, the count, and the list that
// shows those tasks (empty Href: no list filters exactly these).
type DashCount struct {
	Label  string
	Count  int
	Href   string
	TestID string
	Icon   string // an Icon name beside the label; empty for none
}

// RunsPage is /manage/runs: per worker, the tenant's latest runs and those over all tenants.
type RunsPage struct {
	Chrome
	Workers []WorkerRunsView
}

// WorkerRunsView is one worker's section of the runs page.
type WorkerRunsView struct {
	Name   string
	Key    string // the worker's name in hooks
	Note   string // optional explanation (the dispatcher's aggregation)
	Tenant []RunRow
	All    []RunRow
}

// RunRow is one recorded run.
type RunRow struct {
	Worker   string
	Key      string
	Scope    string // "this tenant" or "all tenants"
	Started  time.Time
	Finished time.Time
	Took     string
	Failed   bool
	Result   string // "Succeeded" or "Failed: <code>"
	Counts   []RunCount
}

// RunCount is one named count of a run.
type RunCount struct {
	Name  string
	Count int
}

// StatusIcon is the icon name of a status, for DashCount.Icon.
func StatusIcon(s models.Status) string { return statusIcon(s) }
