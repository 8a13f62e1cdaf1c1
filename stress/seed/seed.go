// Package seed fills a migrated database with tenants of generated tasks at the scale target
// (100,000 open + 1,000,000 terminal tasks per tenant) straight into the tables with multi-row
// INSERTs, so that plans and timings can be checked, and load run, on data the size production
// sees. `web stress seed` and the scale test (repository/scale_test.go) use it.
//
// The rows use the store's column encodings (UTC times bound as time.Time, booleans as bool,
// JSON actions, the lower-cased search projection) and are consistent with each other, so that
// `web audit` finds nothing: every task has its created event and one candidate row (a user, or
// for a third of the people one of the groups), claimed and finished tasks their events,
// transitional tasks the rows the model's own transition writes (transition.go: an accepted
// operation a dispatcher can deliver, completions with a form and their data sealed with the
// server's key ring, and a pending resumption), open tasks past their due date are flagged
// overdue as the due sweep flags them (their timeout disabled, so a server's sweep finds
// nothing to time out), each tenant's open-task counter holds its open and transitional tasks,
// and the daily rollup counts exactly the generated creations, claims and endings.
package seed

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/storekit"
)

// Tenant is one tenant to load: its name and how many tasks of each kind.
type Tenant struct {
	Name     string
	Open     int // open and transitional tasks
	Terminal int // completed, cancelled and timed-out tasks
}

// Options say what to load. The zero value of a field takes the default named on it.
type Options struct {
	Tenants []Tenant // loaded in this order; each must hold no task yet
	// Keys seal the completing tasks' forms and completion data: the key ring the server that
	// reads the data opens them with (USERTASKS_ENCRYPTION_KEYS). Required.
	Keys *keyring.Keyring
	// Now is the load's reference time (default: now, UTC); created times spread over the 90
	// days before it.
	Now  time.Time
	Seed uint64 // default 1; tenant i draws from Seed+i
	// Batch is the tasks per transaction (default 10,000).
	Batch int
	// Progress, when set, hears each step: a phase and, for "tasks", the tasks written so far
	// of all tenants.
	Progress func(Progress)
}

// Progress is one step of a load.
type Progress struct {
	Phase       Phase
	Done, Total int    // tasks written so far and in all (PhaseTasks)
	Tenant      string // the tenant being written (PhaseTasks)
}

// Phase names a step of Load.
type Phase string

// The phases of Load, in order. The index phases happen only on empty tables (see Load).
const (
	PhaseDropIndexes   Phase = "dropping secondary indexes"
	PhaseTasks         Phase = "writing tasks"
	PhaseCreateIndexes Phase = "building indexes"
	PhaseAnalyze       Phase = "refreshing planner statistics"
)

// Result counts what Load wrote for one tenant, for tests and reports that read it back.
type Result struct {
	Tenant    string
	Tasks     int
	ByStatus  map[models.Status]int
	Overdue   int // open tasks flagged overdue
	Health    int // open and transitional tasks with a health finding
	Workflows int // distinct workflow definitions
	Backlog   int // pending resumptions
	Events    int
	Stats     int // daily rollup rows
	SampleID  string
}

// ErrTenantNotEmpty refuses to load into a tenant that already holds tasks: its counter and
// rollup would have to be merged with what is there, and its lists would mix two data sets.
var ErrTenantNotEmpty = errors.New("seed: the tenant already holds tasks")

// validate checks the tenants: named (at most 64 bytes), each once, counts not negative.
func (o Options) validate() error {
	if len(o.Tenants) == 0 {
		return errors.New("seed: no tenant to load")
	}
	if o.Keys == nil {
		return errors.New("seed: no key ring: the completions' data is sealed with the server's keys")
	}
	seen := map[string]bool{}
	for _, t := range o.Tenants {
		if t.Name == "" || len(t.Name) > 64 {
			return fmt.Errorf("seed: tenant name %q must be 1 to 64 bytes", t.Name)
		}
		if seen[t.Name] {
			return fmt.Errorf("seed: tenant %q named twice", t.Name)
		}
		seen[t.Name] = true
		if t.Open < 0 || t.Terminal < 0 {
			return fmt.Errorf("seed: tenant %q: negative task counts", t.Name)
		}
	}
	return nil
}

// Names of the generated data, exported so tests can filter by them.
const (
	Workflows = 20
	People    = 300
	Groups    = 12
)

// WorkflowID is the id of the i-th generated workflow definition.
func WorkflowID(i int) string {
	return fmt.Sprintf("wf-%02d-%s", i, workflowNames[i%len(workflowNames)])
}

var workflowNames = []string{"invoice-approval", "leave-request", "purchase-order", "contract-review",
	"onboarding", "offboarding", "expense-claim", "credit-check", "incident-review", "change-request"}

var firstNames = []string{"Ann", "Ben", "Clara", "David", "Eva", "Felix", "Greta", "Hans", "Ines", "Jonas",
	"Karin", "Lukas", "Mia", "Noah", "Olga", "Paul", "Quinn", "Rosa", "Sven", "Tara"}

var lastNames = []string{"Becker", "Schmidt", "Müller", "Weber", "Fischer", "Wagner", "Koch", "Richter",
	"Klein", "Wolf", "Neumann", "Schwarz", "Braun", "Zimmermann", "Hartmann"}

var healthFindings = []struct {
	severity models.Severity
	code     string
}{
	{models.SeverityBlocking, models.HealthNoParticipants},
	{models.SeverityBlocking, models.HealthSnapshotResolutionFailed},
	{models.SeverityAdvisory, models.HealthSnapshotDirectoryMissing},
	{models.SeverityAdvisory, models.HealthFormProviderMissing},
	{models.SeverityBlocking, models.HealthFormResolutionFailed},
}

// Person is the i-th generated user: id and display name.
func Person(i int) (id, name string) {
	return fmt.Sprintf("u%03d", i), firstNames[i%len(firstNames)] + " " + lastNames[(i/len(firstNames))%len(lastNames)]
}

func (o Options) withDefaults() Options {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	o.Now = o.Now.UTC().Truncate(time.Microsecond)
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Batch <= 0 {
		o.Batch = 10_000
	}
	if o.Progress == nil {
		o.Progress = func(Progress) {}
	}
	return o
}

// table is the rows of one table waiting to be written.
type table struct {
	name    string
	columns []string
	rows    [][]any
}

func (t *table) add(vals ...any) { t.rows = append(t.rows, vals) }

var (
	taskColumns = []string{"id", "tenant_id", "workflow_definition_id", "workflow_definition_name",
		"workflow_definition_version", "workflow_instance_id", "activity_instance_id", "bookmark_id",
		"materialization_key", "title", "reference", "search_text", "priority", "due_at", "is_overdue", "status",
		"created_at", "updated_at", "assigned_at", "completed_at", "transitioned_at",
		"assignee_provider", "assignee_type", "assignee_id", "assignee_display",
		"membership_mode", "allow_exclusion_override", "candidate_users", "candidate_groups", "actions_json",
		"timeout_enabled", "cancellation_enabled", "health_severity", "health_code", "health_message",
		"form_enc", "completion_data_enc", "completion_action_key", "completed_by_provider", "completed_by_type", "completed_by_id",
		"completed_by_display", "revision", "last_event_seq"}
	candidateColumns = []string{"id", "tenant_id", "task_id", "provider", "participant_type", "participant_id",
		"display_name", "source", "source_key", "task_status", "created_at", "updated_at"}
	eventColumns = []string{"id", "tenant_id", "task_id", "seq", "revision", "event_type", "occurred_at",
		"actor_provider", "actor_type", "actor_id", "actor_display", "operation_id", "reason", "metadata"}
	operationColumns = []string{"id", "tenant_id", "task_id", "operation_id", "kind", "expected_revision",
		"request_hash", "state", "attempts", "created_at", "updated_at", "action_key", "reason",
		"actor_provider", "actor_type", "actor_id", "actor_display", "result_json", "payload_enc", "completed_at"}
	resumptionColumns = []string{"id", "tenant_id", "task_id", "operation_id", "kind", "state", "attempts",
		"available_at", "lease_generation", "created_at", "updated_at"}
	statColumns = []string{"tenant_id", "stat_day", "workflow_definition_id", "metric", "bucket",
		"workflow_definition_name", "event_count", "updated_at", "stripe"}
)

// generator makes one tenant's rows, task by task, and keeps the rollup they add up to.
type generator struct {
	tenant          string
	open, terminal  int
	now             time.Time
	rng             *rand.Rand
	codec           storekit.Codec // seals as the store does
	actions         string
	res             Result
	stats           map[statKey]int64
	stripes         int               // rollup stripes per counter, as the store uses on the dialect
	names           map[string]string // workflow definition id → name
	tasks, cands    table
	events, ops     table
	resumes, rollup table
}

type statKey struct {
	day, workflow, metric string
	bucket, stripe        int
}

func newGenerator(tenant string, open, terminal, stripes int, now time.Time, seed uint64, keys *keyring.Keyring) *generator {
	actions, _ := json.Marshal(models.DefaultActions())
	return &generator{tenant: tenant, open: open, terminal: terminal, now: now,
		rng: rand.New(rand.NewPCG(seed, seed*7919)), actions: string(actions),
		codec: storekit.Codec{Sealer: storekit.Sealer{Keys: keys}, Precision: time.Microsecond},
		res:   Result{Tenant: tenant, Tasks: open + terminal, ByStatus: map[models.Status]int{}},
		stats: map[statKey]int64{}, stripes: stripes, names: map[string]string{},
		tasks: table{name: "user_tasks", columns: taskColumns}, cands: table{name: "user_task_candidates", columns: candidateColumns},
		events: table{name: "user_task_events", columns: eventColumns}, ops: table{name: "user_task_operations", columns: operationColumns},
		resumes: table{name: "user_task_resumptions", columns: resumptionColumns}, rollup: table{name: "user_task_daily_stats", columns: statColumns}}
}

// count adds one to the rollup counter of a change of task id, on the stripe the store would
// pick for the task (migration 00012, repository/daily_stats.go: FNV-1a of the id), or on
// stripe 0 for a day the due sweep has folded already (repository.FoldDailyStatsAfter).
func (g *generator) count(at time.Time, id, wf, metric string, bucket int) {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	stripe := int(h.Sum32() % uint32(g.stripes))
	day := at.UTC().Format(time.DateOnly)
	if day <= g.now.Add(-repository.FoldDailyStatsAfter).AddDate(0, 0, -1).UTC().Format(time.DateOnly) {
		stripe = 0
	}
	g.stats[statKey{day, wf, metric, bucket, stripe}]++
}

// pick returns the index of the weight w falls under.
func (g *generator) pick(weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := g.rng.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

func (g *generator) ago(max time.Duration) time.Time {
	return g.now.Add(-time.Duration(g.rng.Int64N(int64(max)))).Truncate(time.Microsecond)
}

// task adds the i-th task: open (or transitional) for i < g.open, terminal after.
func (g *generator) task(i int) error {
	id := models.NewID()
	wfi := int(float64(Workflows) * g.rng.Float64() * g.rng.Float64()) // a few busy workflows, a long tail
	wf, wfName := WorkflowID(wfi), strings.ReplaceAll(workflowNames[wfi%len(workflowNames)], "-", " ")
	g.names[wf] = wfName
	var status models.Status
	var created time.Time
	if i < g.open {
		status = []models.Status{models.StatusUnassigned, models.StatusAvailable, models.StatusAssigned,
			models.StatusCompleting, models.StatusCancelling, models.StatusTimingOut}[g.pick(80, 520, 380, 8, 8, 4)]
		created = g.ago(30 * 24 * time.Hour)
	} else {
		status = []models.Status{models.StatusCompleted, models.StatusCancelled, models.StatusTimedOut}[g.pick(90, 7, 3)]
		created = g.ago(90 * 24 * time.Hour)
	}
	g.res.ByStatus[status]++
	if i == g.open/2 {
		g.res.SampleID = id
	}
	g.count(created, id, wf, models.MetricCreated, 0)
	priority := []int{0, 25, 50, 75, 100}[g.pick(5, 20, 50, 20, 5)]
	var due *time.Time
	if g.rng.IntN(10) < 6 || status == models.StatusTimingOut {
		d := created.Add(time.Duration(1+g.rng.IntN(14*24)) * time.Hour)
		due = &d
	}
	overdue := status.IsOpen() && due != nil && due.Before(g.now)
	if overdue {
		g.res.Overdue++
	}
	person := g.rng.IntN(People)
	pid, pname := Person(person)
	ev := &eventSeq{g: g, task: id}
	ev.add(models.EventCreated, created, nil)

	var assignedAt, completedAt, transitionedAt *time.Time
	var assignee []any = []any{nil, nil, nil, nil}
	claimed := status == models.StatusAssigned || status.IsTransitional() || (status == models.StatusCompleted)
	at := created
	if claimed {
		at = created.Add(time.Duration(1+g.rng.Int64N(int64(48*time.Hour))) / time.Microsecond * time.Microsecond)
		if at.After(g.now) {
			at = g.now
		}
		assignedAt = &at
		assignee = []any{models.DefaultProvider, string(models.UserParticipant), pid, pname}
		ev.add(models.EventClaimed, at, &person)
		g.count(at, id, wf, models.MetricClaimed, models.DurationBucket(at.Sub(created)))
	}
	updated := at
	var completedBy = []any{nil, nil, nil, nil}
	var actionKey, formEnc, dataEnc any
	switch {
	case status.IsTransitional():
		t := at.Add(time.Duration(g.rng.Int64N(int64(time.Hour))) / time.Microsecond * time.Microsecond)
		if g.rng.IntN(4) == 0 {
			t = g.ago(3 * 24 * time.Hour) // some are stale
		}
		if status == models.StatusTimingOut && due.After(at) {
			*due = at // a timeout is requested once the task is due
		}
		if t.Before(at) {
			t = at // never before the claim
		}
		if t.After(g.now) {
			t = g.now
		}
		tr, err := g.transition(id, status, person, due, ev, t)
		if err != nil {
			return err
		}
		transitionedAt, updated = &tr.transitionedAt, tr.transitionedAt
		actionKey, formEnc, dataEnc = tr.outcome.ActionKey, null(tr.form), null(tr.data)
		if by := tr.outcome.CompletedBy; by != nil {
			completedBy = []any{by.Provider, string(by.Type), by.ID, by.DisplayName}
		}
	case status.IsTerminal():
		done := at.Add(time.Duration(g.rng.Int64N(int64(72*time.Hour))) / time.Microsecond * time.Microsecond)
		if done.After(g.now) {
			done = g.now
		}
		completedAt, updated = &done, done
		switch status {
		case models.StatusCompleted:
			metric := models.MetricCompleted
			if due != nil {
				metric = models.MetricCompletedLate
				if !done.After(*due) {
					metric = models.MetricCompletedOnTime
				}
			}
			g.count(done, id, wf, metric, models.DurationBucket(done.Sub(created)))
			completedBy, actionKey = assignee, models.ActionComplete
			ev.add(models.EventCompleted, done, &person)
		case models.StatusCancelled:
			g.count(done, id, wf, models.MetricCancelled, 0)
			actionKey = models.ActionCancelled
			ev.add(models.EventCancelled, done, nil)
		default:
			g.count(done, id, wf, models.MetricTimedOut, 0)
			actionKey = models.ActionTimeout
			ev.add(models.EventTimedOut, done, nil)
		}
	}
	if overdue {
		// The due sweep flagged it soon after it fell due (or after its claim, when later).
		markAt := *due
		if at.After(markAt) {
			markAt = at
		}
		markAt = markAt.Add(time.Duration(g.rng.Int64N(int64(15*time.Minute))) / time.Microsecond * time.Microsecond)
		if markAt.After(g.now) {
			markAt = g.now
		}
		var who *models.ParticipantRef
		if status == models.StatusAssigned {
			who = &models.ParticipantRef{Tenant: g.tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: pid, DisplayName: pname}
		}
		if err := g.markOverdue(id, status, who, *due, ev, markAt); err != nil {
			return err
		}
		if markAt.After(updated) {
			updated = markAt
		}
	}
	// The timeout is enabled only where one was requested: an open task past its due date is
	// flagged overdue instead, so the due sweep has nothing left to time out.
	timeoutEnabled := status == models.StatusTimingOut || status == models.StatusTimedOut
	var hSev, hCode, hMsg any
	if !status.IsTerminal() && g.rng.IntN(100) == 0 {
		h := healthFindings[g.rng.IntN(len(healthFindings))]
		hSev, hCode, hMsg = string(h.severity), h.code, "generated finding"
		g.res.Health++
	}
	instance := fmt.Sprintf("wi-%d", i)
	title := fmt.Sprintf("%s #%d", strings.ToUpper(wfName[:1])+wfName[1:], i)
	reference := "REF-" + strconv.Itoa(100000+i)
	search := strings.ToLower(strings.Join([]string{title, "", reference, "", "", wf, wfName, instance, ""}, "\n"))
	mode, users, groups := models.MembershipLive, 1, 0
	if g.candidate(id, status, created, person, pid, pname) == models.GroupParticipant {
		users, groups = 0, 1
	}
	g.tasks.add(id, g.tenant, wf, wfName, 1, instance, "act-"+strconv.Itoa(i), "bm-"+id,
		"mk-"+id, title, reference, search, priority, due, overdue, string(status),
		created, updated, assignedAt, completedAt, transitionedAt,
		assignee[0], assignee[1], assignee[2], assignee[3],
		string(mode), false, users, groups, g.actions, timeoutEnabled, true, hSev, hCode, hMsg,
		formEnc, dataEnc, actionKey, completedBy[0], completedBy[1], completedBy[2], completedBy[3], ev.seq, ev.seq)
	return nil
}

// candidate adds the task's one candidate row: a user, or for every third person a group,
// and returns which.
func (g *generator) candidate(task string, status models.Status, at time.Time, person int, pid, pname string) models.ParticipantType {
	typ, id, name, src := models.UserParticipant, pid, pname, models.SourceDirectUser
	if person%3 == 0 {
		gi := person % Groups
		typ, id, name, src = models.GroupParticipant, fmt.Sprintf("g%02d", gi), fmt.Sprintf("Team %02d", gi), models.SourceDirectGroup
	}
	g.cands.add(models.NewID(), g.tenant, task, models.DefaultProvider, string(typ), id, name, string(src), "-",
		string(status), at, at)
	return typ
}

// eventSeq numbers a task's events.
type eventSeq struct {
	g    *generator
	task string
	seq  int
}

func (e *eventSeq) add(typ models.EventType, at time.Time, person *int) {
	e.seq++
	actor := []any{nil, nil, nil, nil}
	if person != nil {
		id, name := Person(*person)
		actor = []any{models.DefaultProvider, string(models.UserParticipant), id, name}
	}
	e.g.events.add(models.NewID(), e.g.tenant, e.task, e.seq, e.seq, string(typ), at, actor[0], actor[1], actor[2], actor[3], nil, nil, nil)
	e.g.res.Events++
}

// addRow adds the event a transition wrote (its sequence the next one).
func (e *eventSeq) addRow(r storekit.EventRow) {
	e.seq++
	e.g.events.add(r.ID, r.TenantID, r.TaskID, r.Seq, r.Revision, r.EventType, r.OccurredAt, null(r.ActorProvider),
		null(r.ActorType), null(r.ActorID), null(r.ActorDisplay), null(r.OperationID), null(r.Reason), null(r.Metadata))
	e.g.res.Events++
}
