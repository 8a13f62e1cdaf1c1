package tasks_test

import (
	"context"
	"encoding/json"
	"testing"

	"usertasks/models"
	"usertasks/tasks"
)

// manager is a second manager of the tenant.
func manager(id string) models.Actor {
	a := person(id)
	a.Manager = true
	return a
}

// TestReplayByAnotherActor covers SPEC 3.4 through the store for every command: the operation
// id one actor used, sent again by another actor who may otherwise run the command, with the
// same body, is idempotency-conflict and writes nothing; the first actor still gets its answer.
func TestReplayByAnotherActor(t *testing.T) {
	ctx := context.Background()
	ann, carl := person("ann"), person("carl", "finance") // both candidates of the fixture task
	prio := 80

	tests := []struct {
		name string
		// setup brings the task to where the first actor runs the command; it returns the
		// expected revision both actors send.
		setup  func(t *testing.T, f fixture, task models.Task) int
		first  models.Actor
		send   func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error)
		second models.Actor
		// between lets the second actor gain the command's relationship after the first ran.
		between func(t *testing.T, f fixture, task models.Task)
		want    models.Code
	}{
		{name: "Claim", first: ann, second: carl,
			send: func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error) {
				return f.svc.Claim(ctx, a, id, tasks.Common{ExpectedRevision: rev, OperationID: "op-x"})
			}, want: models.CodeIdempotencyConflict},
		{name: "Release", first: ann, second: carl,
			setup: func(t *testing.T, f fixture, task models.Task) int { return claimAs(t, f, ann, task.ID) },
			send: func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error) {
				return f.svc.Release(ctx, a, id, tasks.ReleaseInput{Common: tasks.Common{ExpectedRevision: rev, OperationID: "op-x"}, Reason: "busy"})
			},
			between: func(t *testing.T, f fixture, task models.Task) { claimAs(t, f, carl, task.ID) },
			want:    models.CodeIdempotencyConflict},
		{name: "Assign", first: boss(), second: manager("max"),
			send: func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error) {
				return f.svc.Assign(ctx, a, id, tasks.AssignInput{Common: tasks.Common{ExpectedRevision: rev, OperationID: "op-x"},
					Assignee: models.ParticipantRef{Type: models.UserParticipant, ID: "bob"}})
			}, want: models.CodeIdempotencyConflict},
		{name: "UpdateSchedule", first: boss(), second: manager("max"),
			send: func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error) {
				return f.svc.UpdateSchedule(ctx, a, id, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: rev, OperationID: "op-x"}, Priority: &prio})
			}, want: models.CodeIdempotencyConflict},
		// Nobody but the completer can hold complete's relationship once the task left Assigned,
		// so another actor — a manager who sees the task — is refused at the relationship step
		// (SPEC 4 orders it before the idempotency lookup), which is as tight as a conflict.
		{name: "Complete", first: ann, second: manager("max"),
			setup: func(t *testing.T, f fixture, task models.Task) int { return claimAs(t, f, ann, task.ID) },
			send: func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error) {
				return f.svc.Complete(ctx, a, id, tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: rev, OperationID: "op-x"},
					ActionKey: "Complete", Data: json.RawMessage(`{"decision":"approve"}`)})
			}, want: models.CodeNotFound},
		{name: "Cancel", first: boss(), second: manager("max"),
			send: func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error) {
				return f.svc.Cancel(ctx, a, id, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: rev, OperationID: "op-x"}, Reason: "duplicate"})
			}, want: models.CodeIdempotencyConflict},
		{name: "RetryResolution", first: boss(), second: manager("max"),
			send: func(f fixture, a models.Actor, id string, rev int) (tasks.Result, error) {
				return f.svc.RetryResolution(ctx, a, id, tasks.Common{ExpectedRevision: rev, OperationID: "op-x"})
			}, want: models.CodeIdempotencyConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			task := f.project(t, nil)
			rev := task.Revision
			if tt.setup != nil {
				rev = tt.setup(t, f, task)
			}
			first, err := tt.send(f, tt.first, task.ID, rev)
			if err != nil {
				t.Fatalf("first actor: %v", err)
			}
			if tt.between != nil {
				tt.between(t, f, task)
			}
			before, events := f.state(t, task.ID)

			_, err = tt.send(f, tt.second, task.ID, rev)
			wantCode(t, err, tt.want)
			after, eventsAfter := f.state(t, task.ID)
			if after.Revision != before.Revision || eventsAfter != events {
				t.Fatalf("the refused replay wrote: revision %d → %d, events %d → %d", before.Revision, after.Revision, events, eventsAfter)
			}

			again, err := tt.send(f, tt.first, task.ID, rev)
			if err != nil || !again.Replayed || again.Revision != first.Revision || again.Status != first.Status {
				t.Fatalf("the first actor's replay: %+v, %v; want the original answer (revision %d)", again, err, first.Revision)
			}
		})
	}
}

// claimAs has a claim the task and returns the revision it produced.
func claimAs(t *testing.T, f fixture, a models.Actor, id string) int {
	t.Helper()
	cur, err := f.store.Get(context.Background(), "t1", id)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.svc.Claim(context.Background(), a, id, tasks.Common{ExpectedRevision: cur.Revision})
	if err != nil {
		t.Fatalf("claim by %s: %v", a.Subject.ID, err)
	}
	return r.Revision
}

// state returns the stored task and its number of events.
func (f fixture) state(t *testing.T, id string) (models.Task, int) {
	t.Helper()
	ctx := context.Background()
	task, err := f.store.Get(ctx, "t1", id)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := f.store.Events(ctx, "t1", id, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return task, len(evs)
}
