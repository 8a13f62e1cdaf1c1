package tasks_test

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
)

// countingStore counts the loads of a task: reads, and the loads inside write transactions.
type countingStore struct {
	store.Store
	loads atomic.Int32
}

func (s *countingStore) Get(ctx context.Context, tenant, id string) (models.Task, error) {
	s.loads.Add(1)
	return s.Store.Get(ctx, tenant, id)
}

func (s *countingStore) Mutate(ctx context.Context, tenant, id, operationID string, decide models.MutateFunc) (models.Change, error) {
	return s.Store.Mutate(ctx, tenant, id, operationID, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		s.loads.Add(1)
		return decide(now, t, prior)
	})
}

// TestCompleteFormLoadsAndParsesOnce: a completion posted from the page loads the task once and
// parses its form once, whether it succeeds or is refused; a refusal carries the page to show.
func TestCompleteFormLoadsAndParsesOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	store := &countingStore{Store: f.store}
	svc := tasks.New(store, tasks.Options{})
	ann := person("ann")
	assigned := func(t *testing.T) models.Task {
		t.Helper()
		return f.project(t, func(p *models.Projection) { p.Assignee = &models.ParticipantRef{ID: "ann"} })
	}
	// post completes as a; once says to count the loads and parses.
	post := func(t *testing.T, a models.Actor, task models.Task, rev int, values url.Values, once bool) (tasks.FormCompletion, error) {
		t.Helper()
		store.loads.Store(0)
		parses := tasks.CountFormParses(t)
		res, err := svc.CompleteForm(ctx, a, task.ID, tasks.FormCompleteInput{
			Common: tasks.Common{ExpectedRevision: rev, OperationID: models.NewID()}, ActionKey: models.ActionComplete, Values: values})
		if got := store.loads.Load(); once && got != 1 {
			t.Errorf("%d loads of the task, want 1", got)
		}
		if got := parses.Load(); once && got != 1 {
			t.Errorf("%d parses of the form, want 1", got)
		}
		return res, err
	}
	wantPage := func(t *testing.T, res tasks.FormCompletion, task models.Task) {
		t.Helper()
		p := res.Page
		if p == nil || p.Task.ID != task.ID || p.Form == nil || len(p.Form.Fields) != 3 || p.Task.Protected.Instructions != "Check the IBAN" {
			t.Fatalf("page to show again: %+v", p)
		}
		if !slices.Contains(p.AllowedActions, models.ActComplete) {
			t.Fatalf("allowed %v, want complete", p.AllowedActions)
		}
		for _, fv := range p.Form.Fields {
			if fv.Masked && fv.Value != nil {
				t.Fatalf("the page shows the masked %s", fv.Key)
			}
		}
	}

	t.Run("OK", func(t *testing.T) {
		task := assigned(t)
		res, err := post(t, ann, task, task.Revision, url.Values{"decision": {"reject"}, "comment": {"  wrong amount  "}, "iban": {""}}, true)
		if err != nil || res.Status != "accepted" || res.Page != nil {
			t.Fatalf("complete: %+v, %v", res, err)
		}
		stored, err := f.store.Get(ctx, "t1", task.ID)
		if err != nil {
			t.Fatal(err)
		}
		// Normalized by the pinned form, the masked iban left empty keeps the task's value.
		if string(stored.Protected.CompletionData) != `{"comment":"wrong amount","decision":"reject","iban":"DE89370400440532013000"}` {
			t.Fatalf("completion data stored as %s", stored.Protected.CompletionData)
		}
	})
	t.Run("ErrFormInvalid", func(t *testing.T) {
		task := assigned(t)
		res, err := post(t, ann, task, task.Revision, url.Values{"decision": {"maybe"}}, true)
		wantCode(t, err, models.CodeFormInvalid)
		wantPage(t, res, task)
		if res.Page.Task.Revision != task.Revision {
			t.Fatalf("page at revision %d, want %d", res.Page.Task.Revision, task.Revision)
		}
	})
	t.Run("ErrRevisionConflict", func(t *testing.T) {
		task := assigned(t)
		prio := 99
		moved, err := svc.UpdateSchedule(ctx, boss(), task.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: task.Revision}, Priority: &prio})
		if err != nil {
			t.Fatal(err)
		}
		// Not counted: the store decides a command with an operation id once more after any
		// revision conflict, in case it lost a race to its own operation.
		res, err := post(t, ann, task, task.Revision, url.Values{"decision": {"approve"}}, false)
		wantCode(t, err, models.CodeRevisionConflict)
		wantPage(t, res, task)
		if res.Page.Task.Revision != moved.Revision || res.Page.Task.Priority != 99 {
			t.Fatalf("page at revision %d priority %d, want the task as it is now", res.Page.Task.Revision, res.Page.Task.Priority)
		}
	})
	t.Run("ErrNotFoundBeforeValidation", func(t *testing.T) {
		task := assigned(t)
		for _, a := range []models.Actor{person("zed"), person("ann-other"), boss()} {
			res, err := post(t, a, task, task.Revision, url.Values{"decision": {"maybe"}}, false)
			if !errors.Is(err, models.ErrNotFound) || res.Page != nil {
				t.Fatalf("%s: %v with page %v, want not found and nothing to show", a.Subject.ID, err, res.Page != nil)
			}
		}
	})
	t.Run("ErrForbiddenBeforeLoading", func(t *testing.T) {
		task := assigned(t)
		for _, perms := range [][]string{{"user-tasks:complete"}, {"user-tasks:view"}} {
			a := person("ann")
			a.Permissions = perms
			store.loads.Store(0)
			_, err := svc.CompleteForm(ctx, a, task.ID, tasks.FormCompleteInput{Common: tasks.Common{ExpectedRevision: task.Revision}, ActionKey: models.ActionComplete})
			if !errors.Is(err, models.ErrForbidden) || store.loads.Load() != 0 {
				t.Fatalf("%v: %v after %d loads, want forbidden before loading", perms, err, store.loads.Load())
			}
		}
	})
}
