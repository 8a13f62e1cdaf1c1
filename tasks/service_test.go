package tasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
)

const schema = `{"type":"object","required":["decision"],"properties":{
 "decision":{"type":"string","enum":["approve","reject"],"x-ui":{"label":"Decision","order":1}},
 "iban":{"type":"string","x-ui":{"label":"IBAN","masked":true,"order":2}},
 "comment":{"type":"string","maxLength":200,"x-ui":{"widget":"textarea","order":3}}}}`

type fixture struct {
	store store.Store
	svc   *tasks.Service
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	s := testfactory.OpenStore(t, testfactory.SQLite, nil)
	return fixture{store: s, svc: tasks.New(s, tasks.Options{})}
}

// person holds every user-tasks permission in tenant t1.
func person(id string, groups ...string) models.Actor { return testfactory.Person("t1", id, groups...) }

func boss() models.Actor {
	a := person("boss")
	a.Manager = true
	return a
}

// project creates a task of tenant t1 through the real projection path: candidates ann and the
// group finance, eve excluded, the form schema pinned; mutate adjusts the projection.
func (f fixture) project(t *testing.T, mutate func(p *models.Projection)) models.Task {
	t.Helper()
	return testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{
		Title: "Approve invoice", Candidates: []string{"ann"}, Groups: []string{"finance"}, Excluded: []string{"eve"},
		Instructions: "Check the IBAN", Data: `{"iban":"DE89370400440532013000","decision":"approve"}`,
		Form: json.RawMessage(schema), CancellationEnabled: true, Projection: mutate,
	})
}

func wantCode(t *testing.T, err error, code models.Code) {
	t.Helper()
	if got := models.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

func TestClaimCompleteFlow(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	task := f.project(t, nil)
	ann := person("ann")

	t.Run("CandidateSeesSummaryNotProtected", func(t *testing.T) {
		d, err := f.svc.Detail(ctx, ann, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.Disclosure.CanViewProtected || d.Task.Protected.Instructions != "" || d.Form != nil {
			t.Fatalf("a candidate sees protected content: %+v", d.Disclosure)
		}
		if got := d.AllowedActions; len(got) != 1 || got[0] != models.ActClaim {
			t.Fatalf("allowed %v, want [claim]", got)
		}
		evs, err := f.svc.Events(ctx, ann, task.ID, "", 10)
		if err != nil || len(evs.Items) != 0 {
			t.Fatalf("candidate history: %d events, %v; want an empty page", len(evs.Items), err)
		}
	})
	t.Run("ExcludedGroupMemberGetsNotFound", func(t *testing.T) {
		_, err := f.svc.Detail(ctx, person("eve", "finance"), task.ID)
		if !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("got %v, want not found", err)
		}
		_, err = f.svc.Claim(ctx, person("eve", "finance"), task.ID, tasks.Common{ExpectedRevision: task.Revision})
		if !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("claim by excluded: %v, want not found", err)
		}
	})
	claimed, err := f.svc.Claim(ctx, ann, task.ID, tasks.Common{ExpectedRevision: task.Revision})
	if err != nil {
		t.Fatal(err)
	}
	if claimed.Status != "completed" || claimed.Task.Task.Status != models.StatusAssigned {
		t.Fatalf("claim answered %+v", claimed)
	}
	t.Run("AssigneeSeesFormWithMaskedField", func(t *testing.T) {
		d, err := f.svc.Detail(ctx, ann, task.ID)
		if err != nil || d.Form == nil {
			t.Fatalf("detail: %v, form %v", err, d.Form)
		}
		for _, fv := range d.Form.Fields {
			if fv.Key == "iban" && (fv.Value != nil || !fv.CanReveal) {
				t.Fatalf("masked field shown: %+v", fv)
			}
			if fv.Key == "decision" && fv.Value != "approve" {
				t.Fatalf("prefill %v, want approve", fv.Value)
			}
		}
		v, err := f.svc.Reveal(ctx, ann, task.ID, "iban")
		if err != nil || v != "DE89370400440532013000" {
			t.Fatalf("reveal: %v, %v", v, err)
		}
		evs, _ := f.svc.Events(ctx, ann, task.ID, "", 50)
		last := evs.Items[len(evs.Items)-1]
		if last.Type != models.EventFieldRevealed || last.Revision != claimed.Revision {
			t.Fatalf("last event %s rev %d, want field-revealed without a revision bump", last.Type, last.Revision)
		}
		if string(last.Metadata) == "" || json.Valid(last.Metadata) && string(last.Metadata) == `"DE89370400440532013000"` {
			t.Fatalf("event metadata %s", last.Metadata)
		}
	})
	cur, _ := f.store.Get(ctx, "t1", task.ID)
	t.Run("FormInvalidWithFieldErrors", func(t *testing.T) {
		_, err := f.svc.Complete(ctx, ann, task.ID, tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: cur.Revision, OperationID: "op-bad"},
			ActionKey: "Complete", Data: json.RawMessage(`{"decision":"maybe"}`)})
		wantCode(t, err, models.CodeFormInvalid)
		var ve *models.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) == 0 || ve.Fields[0].Field != "decision" {
			t.Fatalf("field errors %+v", ve)
		}
	})
	t.Run("StrangerCompletingGetsNotFoundBeforeValidation", func(t *testing.T) {
		_, err := f.svc.Complete(ctx, person("zed"), task.ID, tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: cur.Revision, OperationID: "op-z"},
			ActionKey: "Complete", Data: json.RawMessage(`{"decision":"maybe"}`)})
		if !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("got %v, want not found (relationship before validation)", err)
		}
	})
	in := tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: cur.Revision, OperationID: "op-done"},
		ActionKey: "complete", Data: json.RawMessage(`{"decision":"reject","comment":"  wrong amount  "}`)}
	done, err := f.svc.Complete(ctx, ann, task.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "accepted" || done.Task.Task.Status != models.StatusCompleting {
		t.Fatalf("complete answered %s / %s", done.Status, done.Task.Task.Status)
	}
	stored, _ := f.store.Get(ctx, "t1", task.ID)
	// The masked iban was left out: it keeps the task's value.
	if string(stored.Protected.CompletionData) != `{"comment":"wrong amount","decision":"reject","iban":"DE89370400440532013000"}` {
		t.Fatalf("completion data stored as %s, want normalized with the kept masked value", stored.Protected.CompletionData)
	}
	t.Run("ReplaySameAnswer", func(t *testing.T) {
		again, err := f.svc.Complete(ctx, ann, task.ID, in)
		if err != nil || !again.Replayed || again.Revision != done.Revision || again.OperationID != "op-done" || again.Status != "accepted" {
			t.Fatalf("replay %+v, %v", again, err)
		}
	})
	t.Run("ReplayDifferentDataConflicts", func(t *testing.T) {
		other := in
		other.Data = json.RawMessage(`{"decision":"approve"}`)
		_, err := f.svc.Complete(ctx, ann, task.ID, other)
		wantCode(t, err, models.CodeIdempotencyConflict)
	})
	t.Run("CancelAfterCompletionConflicts", func(t *testing.T) {
		_, err := f.svc.Cancel(ctx, boss(), task.ID, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: done.Revision, OperationID: "c1"}, Reason: "late"})
		wantCode(t, err, models.CodeTransitionInProgress)
	})
	rows, _ := f.store.Resumptions(ctx, "t1", task.ID)
	if len(rows) != 1 {
		t.Fatalf("%d outbox rows, want 1", len(rows))
	}
}

func TestPermissionsDecideBeforeLoading(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	noGrants := person("ann")
	noGrants.Permissions = []string{"read:user-tasks"} // legacy names grant nothing
	missing := models.NewID()
	for name, call := range map[string]func() error{
		"Detail": func() error { _, err := f.svc.Detail(ctx, noGrants, missing); return err },
		"Claim": func() error {
			_, err := f.svc.Claim(ctx, noGrants, missing, tasks.Common{ExpectedRevision: 1})
			return err
		},
		"List": func() error { _, err := f.svc.List(ctx, noGrants, models.TaskFilter{}); return err },
		"Cancel": func() error {
			_, err := f.svc.Cancel(ctx, noGrants, missing, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: 1, OperationID: "x"}, Reason: "r"})
			return err
		},
	} {
		if err := call(); !errors.Is(err, models.ErrForbidden) {
			t.Errorf("%s: %v, want forbidden (a missing task is not looked up)", name, err)
		}
	}
	if _, err := f.svc.List(ctx, person("ann"), models.TaskFilter{Scope: models.ScopeAll}); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("non-manager all scope: %v, want forbidden", err)
	}
}

func TestManagerCommands(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	task := f.project(t, nil)
	m := boss()
	prio := 90
	due := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	r, err := f.svc.UpdateSchedule(ctx, m, task.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: task.Revision}, Priority: &prio, DueAt: &due})
	if err != nil || r.Task.Task.Priority != 90 || !r.Task.Task.DueAt.Equal(due) {
		t.Fatalf("schedule: %+v, %v", r.Task.Task.Priority, err)
	}
	_, err = f.svc.Assign(ctx, m, task.ID, tasks.AssignInput{Common: tasks.Common{ExpectedRevision: r.Revision}, Assignee: models.ParticipantRef{Type: models.UserParticipant, ID: "eve"}})
	wantCode(t, err, models.CodeExcludedAssignee)
	a, err := f.svc.Assign(ctx, m, task.ID, tasks.AssignInput{Common: tasks.Common{ExpectedRevision: r.Revision}, Assignee: models.ParticipantRef{Type: models.UserParticipant, ID: "bob"}})
	if err != nil || a.Task.Task.Assignee == nil || a.Task.Task.Assignee.ID != "bob" || a.Task.Task.Assignee.Tenant != "t1" {
		t.Fatalf("assign: %+v, %v", a.Task.Task.Assignee, err)
	}
	retried, err := f.svc.RetryResolution(ctx, m, task.ID, tasks.Common{ExpectedRevision: a.Revision})
	if err != nil || retried.Task.Task.Health.Severity != models.SeverityNone {
		t.Fatalf("retry-resolution: %+v, %v", retried.Task.Task.Health, err)
	}
	_, err = f.svc.Cancel(ctx, m, task.ID, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: retried.Revision, OperationID: "c"}})
	wantCode(t, err, models.CodeReasonRequired)
	c, err := f.svc.Cancel(ctx, m, task.ID, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: retried.Revision, OperationID: "c"}, Reason: "duplicate"})
	if err != nil || c.Status != "accepted" || c.Task.Task.Status != models.StatusCancelling {
		t.Fatalf("cancel: %+v, %v", c.Status, err)
	}
	page, err := f.svc.List(ctx, m, models.TaskFilter{Scope: models.ScopeAll, IncludeTotal: true})
	if err != nil || page.Total == nil || *page.Total != 1 || len(page.Items) != 1 || !page.Items[0].Manager {
		t.Fatalf("all scope: %+v, %v", page, err)
	}
}

func TestCapabilities(t *testing.T) {
	f := newFixture(t)
	if c := f.svc.Capabilities(boss()); !c.Manager || len(c.Scopes) != 5 || !c.CanCancel {
		t.Fatalf("manager capabilities %+v", c)
	}
	viewer := person("ann")
	viewer.Permissions = []string{models.PermView}
	if c := f.svc.Capabilities(viewer); c.Manager || c.CanClaim || len(c.Scopes) != 3 {
		t.Fatalf("viewer capabilities %+v", c)
	}
}

func TestAvailableListOffersClaim(t *testing.T) {
	f := newFixture(t)
	f.project(t, nil)
	page, err := f.svc.List(context.Background(), person("ann"), models.TaskFilter{Scope: models.ScopeAvailable})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("available: %d items, %v", len(page.Items), err)
	}
	if got := page.Items[0].AllowedActions; len(got) != 1 || got[0] != models.ActClaim {
		t.Fatalf("allowed actions %v, want [claim]", got)
	}
	page, _ = f.svc.List(context.Background(), person("eve", "finance"), models.TaskFilter{Scope: models.ScopeAvailable})
	if len(page.Items) != 0 {
		t.Fatalf("an excluded group member lists %d available tasks", len(page.Items))
	}
}
