package workflow_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// finalizeFixture projects tasks and moves them into each status a removal may meet.
type finalizeFixture struct {
	store store.Store
	proj  *workflow.Projector
	svc   *tasks.Service
}

func newFinalizeFixture(t *testing.T) finalizeFixture {
	t.Helper()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	return finalizeFixture{store: store, proj: workflow.NewProjector(store, nil), svc: tasks.New(store, tasks.Options{})}
}

func finalizeAssignee() models.Actor {
	return models.Actor{Tenant: "t1", Subject: models.ParticipantRef{Tenant: "t1", Provider: "default", Type: models.UserParticipant, ID: "ann"},
		DisplayName: "Ann", Permissions: []string{"user-tasks:*"}}
}

// assigned projects a task assigned to ann; dueAt optionally in the past, with timeout.
func (f finalizeFixture) assigned(t *testing.T, bookmarkID string, mutate func(r *workflow.ProjectionRequest)) models.Task {
	t.Helper()
	task, _, err := f.proj.Project(context.Background(), "t1", sampleBookmark(func(r *workflow.ProjectionRequest) {
		r.BookmarkID = bookmarkID
		r.Task.Assignee = &workflow.Participant{ID: "ann"}
		r.Task.CancellationEnabled = true
		if mutate != nil {
			mutate(r)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func (f finalizeFixture) completing(t *testing.T, bookmarkID string) (models.Task, string) {
	t.Helper()
	task := f.assigned(t, bookmarkID, nil)
	res, err := f.svc.Complete(context.Background(), finalizeAssignee(), task.ID, tasks.CompleteInput{
		Common: tasks.Common{ExpectedRevision: task.Revision, OperationID: "op-complete"}, ActionKey: "Complete"})
	if err != nil || res.Status != "accepted" {
		t.Fatalf("complete: %+v, %v", res, err)
	}
	return task, res.OperationID
}

func (f finalizeFixture) get(t *testing.T, id string) models.Task {
	t.Helper()
	task, err := f.store.Get(context.Background(), "t1", id)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func TestFinalizer(t *testing.T) {
	ctx := context.Background()

	t.Run("CompletingToCompleted", func(t *testing.T) {
		f := newFinalizeFixture(t)
		task, opID := f.completing(t, "bm-complete")
		if got := f.get(t, task.ID).Status; got != models.StatusCompleting {
			t.Fatalf("status = %s, want Completing", got)
		}
		outbox, err := f.store.Resumptions(ctx, "t1", task.ID)
		if err != nil || len(outbox) != 1 || outbox[0].State != models.DeliveryPending {
			t.Fatalf("outbox before = %+v, %v; want one pending row", outbox, err)
		}

		finalized, unknown, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{"bm-complete"})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(finalized) != fmt.Sprint([]string{task.ID}) || len(unknown) != 0 {
			t.Fatalf("finalized %v unknown %v, want [%s] []", finalized, unknown, task.ID)
		}
		after := f.get(t, task.ID)
		if after.Status != models.StatusCompleted || after.CompletedAt == nil || after.Outcome.ActionKey != "Complete" {
			t.Errorf("after: status %s completedAt %v outcome %+v", after.Status, after.CompletedAt, after.Outcome)
		}
		op, err := f.store.Operation(ctx, "t1", task.ID, opID)
		if err != nil || op.State != models.OperationCompleted || op.CompletedAt == nil {
			t.Errorf("operation = %+v, %v; want completed", op, err)
		}
		outbox, err = f.store.Resumptions(ctx, "t1", task.ID)
		if err != nil || len(outbox) != 1 || outbox[0].State != models.DeliverySettled {
			t.Errorf("outbox after = %+v, %v; want the row settled", outbox, err)
		}

		t.Run("RepeatIsHarmless", func(t *testing.T) {
			before := f.get(t, task.ID)
			finalized, unknown, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{"bm-complete"})
			if err != nil || len(finalized) != 1 || finalized[0] != task.ID || len(unknown) != 0 {
				t.Fatalf("repeat: finalized %v unknown %v, %v", finalized, unknown, err)
			}
			if again := f.get(t, task.ID); again.Revision != before.Revision || again.Status != models.StatusCompleted {
				t.Errorf("repeat changed the task: r%d %s", again.Revision, again.Status)
			}
		})
	})

	t.Run("OpenToCancelled", func(t *testing.T) {
		f := newFinalizeFixture(t)
		assigned := f.assigned(t, "bm-assigned", nil)
		available, _, err := f.proj.Project(ctx, "t1", sampleBookmark(func(r *workflow.ProjectionRequest) {
			r.BookmarkID = "bm-available"
			r.Task.CandidateUsers = []workflow.Participant{{ID: "bob"}}
		}))
		if err != nil {
			t.Fatal(err)
		}
		finalized, _, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{"bm-assigned", "bm-available"})
		if err != nil || len(finalized) != 2 {
			t.Fatalf("finalized %v, %v", finalized, err)
		}
		for _, id := range []string{assigned.ID, available.ID} {
			after := f.get(t, id)
			if after.Status != models.StatusCancelled || after.Outcome.ActionKey != models.ActionCancelled || after.Outcome.CompletedBy != nil {
				t.Errorf("task %s: status %s outcome %+v, want Cancelled by nobody", id, after.Status, after.Outcome)
			}
		}
		events, err := f.store.Events(ctx, "t1", assigned.ID, 0, 10)
		if err != nil || len(events) != 2 || events[1].Type != models.EventCancelled {
			t.Errorf("events = %+v, %v; want created, cancelled", events, err)
		}
	})

	t.Run("CancellingToCancelled", func(t *testing.T) {
		f := newFinalizeFixture(t)
		task := f.assigned(t, "bm-cancel", nil)
		boss := resolverManager()
		if _, err := f.svc.Cancel(ctx, boss, task.ID, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: task.Revision, OperationID: "op-cancel"}, Reason: "no longer needed"}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{"bm-cancel"}); err != nil {
			t.Fatal(err)
		}
		if got := f.get(t, task.ID).Status; got != models.StatusCancelled {
			t.Errorf("status = %s, want Cancelled", got)
		}
		if op, err := f.store.Operation(ctx, "t1", task.ID, "op-cancel"); err != nil || op.State != models.OperationCompleted {
			t.Errorf("cancel operation = %+v, %v; want completed", op, err)
		}
	})

	t.Run("TimingOutToTimedOut", func(t *testing.T) {
		f := newFinalizeFixture(t)
		task := f.assigned(t, "bm-timeout", func(r *workflow.ProjectionRequest) {
			r.Task.DueAt = time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
			r.Task.TimeoutEnabled = true
		})
		_, err := f.store.Mutate(ctx, "t1", task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
			return models.RequestTimeout(cur, now)
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{"bm-timeout"}); err != nil {
			t.Fatal(err)
		}
		after := f.get(t, task.ID)
		if after.Status != models.StatusTimedOut {
			t.Errorf("status = %s, want TimedOut", after.Status)
		}
		outbox, _ := f.store.Resumptions(ctx, "t1", task.ID)
		if len(outbox) != 1 || outbox[0].State != models.DeliverySettled {
			t.Errorf("outbox = %+v, want settled", outbox)
		}
	})

	t.Run("Notifies", func(t *testing.T) {
		f := newFinalizeFixture(t)
		task := f.assigned(t, "bm-note", nil)
		notes := &pjNotes{}
		f.store.NotifyChanges(notes)
		fin := workflow.NewFinalizer(f.store)
		for range 2 {
			if _, _, err := fin.Removed(ctx, "t1", []string{"bm-note", "bm-nope"}); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := fmt.Sprint(notes.list()), fmt.Sprintf("[t1/%s@2]", task.ID); got != want {
			t.Errorf("notifications = %s, want %s (one finalization)", got, want)
		}
	})

	t.Run("Unknown", func(t *testing.T) {
		f := newFinalizeFixture(t)
		task := f.assigned(t, "bm-known", nil)
		finalized, unknown, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{"bm-nope", "bm-known", "bm-nope", "bm-known"})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(finalized) != fmt.Sprint([]string{task.ID}) || fmt.Sprint(unknown) != "[bm-nope]" {
			t.Errorf("finalized %v unknown %v, want [%s] [bm-nope] without repeats", finalized, unknown, task.ID)
		}
	})

	t.Run("OtherTenantIsUnknown", func(t *testing.T) {
		f := newFinalizeFixture(t)
		task := f.assigned(t, "bm-t1", nil)
		finalized, unknown, err := workflow.NewFinalizer(f.store).Removed(ctx, "t2", []string{"bm-t1"})
		if err != nil || len(finalized) != 0 || fmt.Sprint(unknown) != "[bm-t1]" {
			t.Fatalf("finalized %v unknown %v, %v; want the bookmark unknown in t2", finalized, unknown, err)
		}
		if got := f.get(t, task.ID).Status; got != models.StatusAssigned {
			t.Errorf("t1's task became %s", got)
		}
	})

	t.Run("EmptyList", func(t *testing.T) {
		f := newFinalizeFixture(t)
		finalized, unknown, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{})
		if err != nil || finalized == nil || unknown == nil || len(finalized)+len(unknown) != 0 {
			t.Fatalf("finalized %#v unknown %#v, %v; want two empty lists", finalized, unknown, err)
		}
	})

	t.Run("Validation", func(t *testing.T) {
		f := newFinalizeFixture(t)
		task := f.assigned(t, "bm-keep", nil)
		many := make([]string, workflow.MaxRemovedBookmarks+1)
		for i := range many {
			many[i] = "bm-keep"
		}
		_, _, err := workflow.NewFinalizer(f.store).Removed(ctx, "t1", many)
		requireFields(t, err, models.CodeValidationFailed, "bookmarkIds")
		long := string(make([]byte, models.MaxBookmarkIDLength+1))
		_, _, err = workflow.NewFinalizer(f.store).Removed(ctx, "t1", []string{"bm-keep", "", long})
		requireFields(t, err, models.CodeValidationFailed, "bookmarkIds[1]", "bookmarkIds[2]")
		if got := f.get(t, task.ID).Status; got != models.StatusAssigned {
			t.Errorf("a refused call finalized the task (%s)", got)
		}
	})
}
