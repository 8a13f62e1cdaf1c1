package models

import (
	"math"
	"time"
)

// Worker names a background worker whose runs are recorded (SPEC 7).
type Worker string

const (
	WorkerReconciliation Worker = "reconciliation"
	WorkerDueSweep       Worker = "due-sweep"
	WorkerDispatcher     Worker = "resumption-outbox"
	WorkerDeliveries     Worker = "invitation-delivery"
)

// AllTenants marks a worker run that covered every tenant (the due sweep and the dispatcher
// work across tenants): such a run carries timing and an error code, never counts, so no
// tenant learns another's numbers.
const AllTenants = "*"

// MaxWorkerRunCounts bounds the named counts of one recorded run.
const MaxWorkerRunCounts = 16

// WorkerRun is one finished run of a background worker for one tenant (or AllTenants).
// StartedAt and FinishedAt are the database clock's.
type WorkerRun struct {
	Worker     Worker
	Tenant     string
	StartedAt  time.Time
	FinishedAt time.Time
	// Elapsed is how long the run took, measured by the worker; the store records the run as
	// finishing at the database's now and starting Elapsed before.
	Elapsed   time.Duration
	Counts    map[string]int
	ErrorCode string // a safe code, never a message
}

// Duration is how long the run took.
func (r WorkerRun) Duration() time.Duration { return r.FinishedAt.Sub(r.StartedAt) }

// DashboardCounts are a tenant's current numbers (index-served) for the managers' dashboard.
type DashboardCounts struct {
	// ByStatus counts open and transitional tasks per status.
	ByStatus map[Status]int
	// ByHealth counts tasks with a health issue per severity and code.
	ByHealth []HealthCount
	// Overdue counts open tasks flagged overdue or past their due date.
	Overdue int
	// StaleTransitions counts tasks transitional for longer than StaleAfter.
	StaleTransitions int
	// Backlog counts pending resumption outbox rows; OldestPending is the oldest one's
	// creation time (nil without a backlog).
	Backlog       int
	OldestPending *time.Time
	// Workload counts open tasks per assignee, most loaded first (at most MaxWorkload).
	Workload []AssigneeLoad
	// Now is the database clock when the counts were read.
	Now time.Time
}

// MaxWorkload bounds the assignees the dashboard lists.
const MaxWorkload = 20

// HealthCount is the number of tasks with one health code.
type HealthCount struct {
	Severity Severity
	Code     string
	Count    int
}

// AssigneeLoad is the number of open tasks assigned to one participant.
type AssigneeLoad struct {
	Assignee ParticipantRef
	Count    int
}

// Rollup metrics: what the daily statistics count per tenant, UTC day and workflow definition.
// A completion is counted once, under the metric saying how it met its due date; claims and
// completions carry the duration bucket (DurationBuckets) of the time since creation.
const (
	MetricCreated         = "created"
	MetricClaimed         = "claimed"
	MetricCompleted       = "completed"        // completed, without a due date
	MetricCompletedOnTime = "completed-ontime" // completed at or before its due date
	MetricCompletedLate   = "completed-late"   // completed after its due date
	MetricTimedOut        = "timed-out"
	MetricCancelled       = "cancelled"
	// MetricEscalated counts the deadlines that fired (SPEC 10.4), skipped ones not: the
	// dashboard's escalations per workflow.
	MetricEscalated = "escalated"
)

// DurationBuckets are the upper bounds of the duration buckets: a duration falls in the first
// bucket whose bound it does not exceed; longer ones fall in the last, open-ended bucket
// (index len(DurationBuckets)).
var DurationBuckets = []time.Duration{
	time.Minute, 5 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour,
	4 * time.Hour, 8 * time.Hour, 24 * time.Hour, 48 * time.Hour, 96 * time.Hour, 7 * 24 * time.Hour,
	14 * 24 * time.Hour, 30 * 24 * time.Hour,
}

// DurationBucket returns the bucket index of d.
func DurationBucket(d time.Duration) int {
	for i, b := range DurationBuckets {
		if d <= b {
			return i
		}
	}
	return len(DurationBuckets)
}

// BucketQuantile returns the upper bound of the bucket holding the q-th quantile (0 < q ≤ 1)
// of counts (indexed like DurationBucket); ok is false without any count. The open-ended last
// bucket reports the last bound: the true value is at least that.
func BucketQuantile(counts []int64, q float64) (d time.Duration, ok bool) {
	var total int64
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0, false
	}
	need := max(int64(math.Ceil(float64(total)*q)), 1)
	var seen int64
	for i, c := range counts {
		seen += c
		if seen >= need {
			return DurationBuckets[min(i, len(DurationBuckets)-1)], true
		}
	}
	return DurationBuckets[len(DurationBuckets)-1], true
}

// Rollup is the daily rollup over a range of days, summed two ways: per day and metric (the
// charts' series) and per workflow definition, metric and bucket (the per-workflow table). The
// sums are taken by the database, so a read returns a few hundred rows however many counters
// the range holds.
type Rollup struct {
	ByDay      []DailyStat // Day, Metric and Count set
	ByWorkflow []DailyStat // WorkflowDefinitionID, WorkflowDefinitionName, Metric, Bucket and Count set
}

// DailyStat is one counter of the daily rollup, or a sum of them (Rollup).
type DailyStat struct {
	Day                    string // YYYY-MM-DD (UTC)
	WorkflowDefinitionID   string
	WorkflowDefinitionName string
	Metric                 string
	Bucket                 int
	Count                  int64
}
