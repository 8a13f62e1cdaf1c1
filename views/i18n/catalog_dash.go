package i18n

import (
	"fmt"
	"time"
)

// DashText is the text of the managers' dashboard (/manage) and runs page (/manage/runs).
// Fields holding %s or %d are format strings.
type DashText struct {
	NavManage   string
	Title       string
	Intro       string // %d: the chart days
	RunsTitle   string
	RunsIntro   string
	RunsLink    string
	CurrentHead string
	OpenByState string
	Health      string
	NoHealth    string
	Attention   string
	Overdue     string
	Stale       string // %s: the threshold in words
	Backlog     string
	OldestAge   string // %s: relative time
	NoBacklog   string
	RecentHead  string // %d: days
	Workload    string
	NoWorkload  string
	Assignee    string
	OpenTasks   string
	Count       string

	ChartsHead     string
	ShowTable      string
	NoChartData    string
	Day            string
	Workflow       string
	OpenChart      string
	OpenDesc       string // %d days
	Open           string
	FlowChart      string
	FlowDesc       string // %d days
	Created        string
	Completed      string // closed: completed, timed out or cancelled
	ClaimChart     string
	ClaimDesc      string // %d days
	CompleteChart  string
	CompleteDesc   string // %d days
	P50            string
	P90            string
	SLAChart       string
	SLADesc        string // %d days
	SLA            string
	NoDueDates     string
	UpTo           string // %s: a duration ("up to 5 minutes")
	MoreThan       string // %s: a duration, for the open-ended bucket
	Percent        string // %d: a whole percentage
	AllTenants     string
	ThisTenant     string
	LastRunsHead   string
	NeverRan       string
	Started        string
	Finished       string
	Took           string
	Result         string
	Succeeded      string
	FailedWith     string // %s: the safe error code
	Seconds        [2]string
	Workers        map[string]string
	CountNames     map[string]string
	RunsOfTenant   string
	RunsOfAll      string
	RunsAllNote    string
	DispatcherNote string
	DeliveriesNote string
	NotifyNote     string
}

// Duration writes a bucket bound in words: "up to 5 minutes", "up to 2 days"; open is the
// open-ended last bucket ("more than 30 days").
func (d DashText) Duration(c *Catalog, v time.Duration, open bool) string {
	s := d.Span(c, v)
	if open {
		return fmt.Sprintf(d.MoreThan, s)
	}
	return fmt.Sprintf(d.UpTo, s)
}

// Span writes a length of time in whole minutes, hours or days: "15 minutes", "2 days".
func (d DashText) Span(c *Catalog, v time.Duration) string {
	switch {
	case v < time.Hour:
		return c.Count(c.Minutes, int(v/time.Minute))
	case v < 48*time.Hour:
		return c.Count(c.Hours, int(v/time.Hour))
	}
	return c.Count(c.Days, int(v/(24*time.Hour)))
}

// Length writes a run's length: seconds below two minutes, else minutes.
func (d DashText) Length(c *Catalog, v time.Duration) string {
	if v < 2*time.Minute {
		return c.Count(d.Seconds, int(v.Round(time.Second)/time.Second))
	}
	return c.Count(c.Minutes, int(v/time.Minute))
}

// Worker names a worker.
func (d DashText) Worker(name string) string { return or(d.Workers[name], name) }

// CountName names a run's count.
func (d DashText) CountName(name string) string { return or(d.CountNames[name], name) }
