package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/workflow"
)

// HistoryDays is how many days of closed tasks the demo seeds behind its open ones: the
// dashboard's charts cover as many (tasks.DashboardDays).
const HistoryDays = 30

// Clock is the database clock of the history's store handle: the store reads its time from the
// database inside each transaction and passes it through Clock.Now (repository.Config.Clock,
// docstore.Config.Clock), which moves it to the moment the seed is replaying. The zero Clock is
// the database's own time.
type Clock struct{ offset atomic.Int64 }

// Now is the Clock option of the history's store handle.
func (c *Clock) Now(db time.Time) time.Time { return db.Add(time.Duration(c.offset.Load())) }

// set makes the database clock read at (give or take the time a transaction takes).
func (c *Clock) set(at time.Time) { c.offset.Store(int64(time.Until(at))) }

// History is a second handle on the seed's database whose database clock Clock moves: the
// history is written through it by the store's normal paths (projection, claim, completion,
// the due sweep's timeout, cancellation, the loopback runtime's finalization), each at the
// moment it happened, so every timestamp, event and daily rollup counter is what the live
// system would have written then. Seed moves the clock backwards only before the first step.
type History struct {
	Store store.Store
	Clock *Clock
}

// historyFlow is a workflow the history draws tasks from.
type historyFlow struct {
	tenant, id, titleFormat, refFormat string
	weight                             int
	groups, users                      []string
	claimers                           []string // who claims and completes (candidates)
	actions                            []models.Action
	due                                time.Duration
	timeout                            bool // TimeoutEnabled: some of its tasks time out (the workflow escalates)
	taskType                           string
}

var historyApproveReject = []models.Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}}

var historyFlows = []historyFlow{
	{tenant: "acme", id: "invoice-approval", titleFormat: "Approve invoice %s", refFormat: "INV-%d", weight: 5, groups: []string{"finance"},
		claimers: []string{"ben", "cara"}, actions: historyApproveReject, due: 48 * time.Hour, taskType: "approval"},
	{tenant: "acme", id: "expense-report", titleFormat: "Review expense report %s", refFormat: "EXP-%d", weight: 3, groups: []string{"finance"},
		claimers: []string{"ben", "cara"}, due: 72 * time.Hour, taskType: "review"},
	{tenant: "acme", id: "travel-request", titleFormat: "Approve travel request %s", refFormat: "TRV-%d", weight: 2, groups: []string{"finance"},
		claimers: []string{"ben", "cara"}, actions: historyApproveReject, due: 5 * 24 * time.Hour, taskType: "approval"},
	{tenant: "acme", id: "purchase-order", titleFormat: "Approve purchase order %s", refFormat: "PO-%d", weight: 2, groups: []string{"purchasing"},
		claimers: []string{"cara"}, actions: historyApproveReject, due: 24 * time.Hour, taskType: "approval"},
	{tenant: "acme", id: "customer-escalation", titleFormat: "Respond to customer escalation %s", refFormat: "ESC-%d", weight: 2, groups: []string{"finance", "purchasing"},
		claimers: []string{"ben", "cara"}, actions: []models.Action{{Key: "Refund", Label: "Refund"}, {Key: "Replace", Label: "Send a replacement"}},
		due: 8 * time.Hour, timeout: true, taskType: "response"},
	{tenant: "globex", id: "contract-renewal", titleFormat: "Renew support contract %s", refFormat: "CTR-%d", weight: 2, groups: []string{"support"},
		claimers: []string{"hal", "ida"}, actions: historyApproveReject, due: 72 * time.Hour, taskType: "approval"},
	{tenant: "globex", id: "discount-approval", titleFormat: "Approve discount %s", refFormat: "DSC-%d", weight: 1, groups: []string{"support"},
		claimers: []string{"hal"}, actions: historyApproveReject, due: 24 * time.Hour, taskType: "approval"},
	{tenant: "globex", id: "employee-onboarding", titleFormat: "Set up laptop for new hire %s", refFormat: "ONB-%d", weight: 1, users: []string{"hal", "ida"},
		claimers: []string{"hal", "ida"}, due: 24 * time.Hour, timeout: true, taskType: "setup"},
}

// historyStep is one change of a history task, at the moment it happened.
type historyStep struct {
	at   time.Time
	task int // index into the history's tasks
	kind string
	who  string // the demo user who acts (claim, complete, cancel)
	act  string // the action of a completion
}

// historyTask is one closed task of the history.
type historyTask struct {
	flow     historyFlow
	ref      string
	created  time.Time
	priority int
	id       string
}

// historyPlan draws the history's tasks and their steps, oldest first: every one of the last
// HistoryDays-1 days ends a few tasks per tenant, most completed (some after their due time),
// a few timed out (nobody acted: the workflow escalates) or cancelled by the manager. The plan
// is the same on every seed; only now moves it.
func historyPlan(now time.Time) ([]historyTask, []historyStep) {
	rng := rand.New(rand.NewPCG(26, 30))
	var all []historyTask
	var steps []historyStep
	pick := func(tenant string) historyFlow {
		var flows []historyFlow
		total := 0
		for _, f := range historyFlows {
			if f.tenant == tenant {
				flows = append(flows, f)
				total += f.weight
			}
		}
		n := rng.IntN(total)
		for _, f := range flows {
			if n < f.weight {
				return f
			}
			n -= f.weight
		}
		return flows[0]
	}
	seq := map[string]int{}
	latest := now.Add(-10 * time.Minute)
	today := now.UTC().Truncate(24 * time.Hour)
	for daysAgo := HistoryDays - 1; daysAgo >= 1; daysAgo-- {
		day := today.AddDate(0, 0, -daysAgo)
		for _, tenant := range demoTenants {
			n := 2 + rng.IntN(3) // acme 2–4 a day
			if tenant == "globex" {
				n = 1 + rng.IntN(2)
			}
			for range n {
				f := pick(tenant)
				seq[f.refFormat]++
				// Created during the working hours of the day before the one it closes on, or
				// that same morning.
				created := day.Add(-time.Duration(6+rng.IntN(14)) * time.Hour).Add(time.Duration(rng.IntN(60)) * time.Minute)
				i := len(all)
				all = append(all, historyTask{flow: f, ref: fmt.Sprintf(f.refFormat, 900+seq[f.refFormat]), created: created,
					priority: []int{30, 50, 50, 60, 70, 85}[rng.IntN(6)]})
				steps = append(steps, historyStep{at: created, task: i, kind: "create"})
				claimer := f.claimers[rng.IntN(len(f.claimers))]
				switch r := rng.IntN(100); {
				case f.timeout && r < 25:
					// Nobody claimed it: at its due time the due sweep timed it out.
					steps = append(steps, historyStep{at: created.Add(f.due + 2*time.Minute), task: i, kind: "timeout"})
				case r >= 95:
					manager := map[string]string{"acme": "ava", "globex": "gina"}[tenant]
					steps = append(steps, historyStep{at: created.Add(time.Duration(1+rng.IntN(20)) * time.Hour), task: i, kind: "cancel", who: manager})
				default:
					claim := created.Add(time.Duration(5+rng.IntN(6*60)) * time.Minute)
					work := time.Duration(10+rng.IntN(8*60)) * time.Minute
					if rng.IntN(100) < 15 {
						work = f.due + time.Duration(1+rng.IntN(30))*time.Hour // late
					}
					done := claim.Add(work)
					if done.After(latest) {
						done = latest
					}
					if !claim.Before(done) {
						claim = done.Add(-time.Minute)
					}
					action := models.ActionComplete
					if len(f.actions) > 0 {
						action = f.actions[0].Key
						if rng.IntN(100) < 20 {
							action = f.actions[1].Key
						}
					}
					steps = append(steps, historyStep{at: claim, task: i, kind: "claim", who: claimer},
						historyStep{at: done, task: i, kind: "complete", who: claimer, act: action})
				}
			}
		}
	}
	slices.SortStableFunc(steps, func(a, b historyStep) int { return a.at.Compare(b.at) })
	return all, steps
}

// seedHistory replays the history plan through h, step by step in time order, with h's
// database clock at each step's moment. Every task ends closed: nothing of the history is open.
func seedHistory(ctx context.Context, h *History, now time.Time) error {
	all, steps := historyPlan(now)
	p := workflow.NewProjector(h.Store, workflow.NewResolver(ResolverOptions()))
	svc := tasks.New(h.Store, tasks.Options{})
	runtime := workflow.NewLoopback(h.Store)
	actors := map[string]models.Actor{}
	for _, u := range Users {
		actors[u.Tenant+"/"+u.ID] = u.Actor()
	}
	defer h.Clock.offset.Store(0)
	for _, s := range steps {
		t := &all[s.task]
		h.Clock.set(s.at)
		var err error
		switch s.kind {
		case "create":
			t.id, err = projectHistory(ctx, p, t)
		case "claim":
			err = historyCommand(ctx, h.Store, t, func(cur models.Task) error {
				_, err := svc.Claim(ctx, actors[t.flow.tenant+"/"+s.who], t.id, tasks.Common{ExpectedRevision: cur.Revision, OperationID: models.NewID()})
				return err
			})
		case "complete":
			err = historyCommand(ctx, h.Store, t, func(cur models.Task) error {
				_, err := svc.Complete(ctx, actors[t.flow.tenant+"/"+s.who], t.id, tasks.CompleteInput{
					Common: tasks.Common{ExpectedRevision: cur.Revision, OperationID: models.NewID()}, ActionKey: s.act})
				return err
			})
		case "cancel":
			err = historyCommand(ctx, h.Store, t, func(cur models.Task) error {
				_, err := svc.Cancel(ctx, actors[t.flow.tenant+"/"+s.who], t.id, tasks.CancelInput{
					Common: tasks.Common{ExpectedRevision: cur.Revision, OperationID: models.NewID()}, Reason: "No longer needed"})
				return err
			})
		case "timeout":
			// What the due sweep does to a task past its due time with a timeout enabled.
			_, err = h.Store.Mutate(ctx, t.flow.tenant, t.id, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
				return models.RequestTimeout(cur, now)
			})
		}
		if err == nil && (s.kind == "complete" || s.kind == "cancel" || s.kind == "timeout") {
			// The loopback runtime acknowledges within a second or two, as the dispatcher
			// would have delivered it then.
			h.Clock.set(s.at.Add(2 * time.Second))
			err = finalizeHistory(ctx, h.Store, runtime, t)
		}
		if err != nil {
			return fmt.Errorf("seed history: %s %s: %w", s.kind, t.ref, err)
		}
	}
	return nil
}

// projectHistory projects one history task as its workflow would have, at its creation.
func projectHistory(ctx context.Context, p *workflow.Projector, t *historyTask) (string, error) {
	named := func(ids []string) []workflow.Participant {
		out := make([]workflow.Participant, len(ids))
		for i, id := range ids {
			out[i] = workflow.Participant{ID: id}
		}
		return out
	}
	one := 3
	instance := fmt.Sprintf("hist-%s", t.ref)
	task, _, err := p.Project(ctx, t.flow.tenant, workflow.ProjectionRequest{
		BookmarkLink: workflow.BookmarkLink{WorkflowDefinitionID: t.flow.id, WorkflowDefinitionName: demoDefinitionNames[t.flow.id],
			WorkflowDefinitionVersion: &one, WorkflowInstanceID: instance, WorkflowInstanceReference: "demo:" + instance,
			ActivityInstanceID: "step", BookmarkID: "demo-" + t.flow.tenant + "-" + instance},
		Task: workflow.TaskDefinition{
			Title: fmt.Sprintf(t.flow.titleFormat, t.ref), Reference: t.ref, TaskType: t.flow.taskType, Priority: &t.priority,
			DueAt: t.created.Add(t.flow.due).UTC().Format(time.RFC3339), CandidateGroups: named(t.flow.groups), CandidateUsers: named(t.flow.users),
			Actions: t.flow.actions, TimeoutEnabled: t.flow.timeout, CancellationEnabled: true,
		},
	})
	return task.ID, err
}

// historyCommand runs one command of the service on the task as it stands now.
func historyCommand(ctx context.Context, st store.Store, t *historyTask, run func(models.Task) error) error {
	cur, err := st.Get(ctx, t.flow.tenant, t.id)
	if err != nil {
		return err
	}
	return run(cur)
}

// finalizeHistory delivers the task's pending resumption to the loopback runtime, which
// finalizes it (Completed, TimedOut, Cancelled) and settles the outbox row: what the dispatcher
// does.
func finalizeHistory(ctx context.Context, st store.Store, runtime *workflow.Loopback, t *historyTask) error {
	task, err := st.Get(ctx, t.flow.tenant, t.id)
	if err != nil {
		return err
	}
	rows, err := st.Resumptions(ctx, t.flow.tenant, t.id)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r.State != models.DeliveryPending {
			continue
		}
		op, err := st.Operation(ctx, t.flow.tenant, t.id, r.OperationID)
		if err != nil {
			return err
		}
		stimulus, err := workflow.NewStimulus(task, op)
		if err != nil {
			return err
		}
		if err := runtime.Deliver(ctx, stimulus); err != nil {
			return err
		}
	}
	return nil
}
