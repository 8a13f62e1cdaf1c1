package models

import (
	"reflect"
	"testing"
)

// TestReplayIsBoundToTheCaller covers SPEC 3.4 for every command: an operation id belongs to
// the actor that used it. Another actor — one the command's relationship admits, so the
// idempotency lookup is reached — sending the same id with the same fields gets
// idempotency-conflict, never the first actor's stored answer; the first actor still gets it.
func TestReplayIsBoundToTheCaller(t *testing.T) {
	alice, erin := person("alice"), person("erin", "approvers")
	boss, max := manager("boss"), manager("max")
	available := newTask(t, nil)
	assigned := newTask(t, &taskOpts{status: StatusAssigned})
	guestTask := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(GuestRef(testTenant, "inv-1"))})
	guestTask.ID = "task-guest"
	assignTo := func(ref ParticipantRef) func(Task) Task {
		return func(t Task) Task {
			t = cloneTask(t)
			t.Status, t.Assignee, t.AssignedAt = StatusAssigned, &ref, timePtr(now)
			t.Outcome, t.TransitionedAt = Outcome{}, nil
			return t
		}
	}
	keep := func(t Task) Task { return t }

	tests := []struct {
		name      string
		task      Task
		first     Actor
		second    func(Task) Actor
		run       func(Task, Command) (Change, error)
		forSecond func(after Task) Task // a state in which the command admits the second actor
	}{
		{"Claim", available, alice, func(Task) Actor { return erin },
			func(t Task, c Command) (Change, error) { return Claim(t, c, now) }, keep},
		{"Release", assigned, alice, func(Task) Actor { return erin },
			func(t Task, c Command) (Change, error) { return Release(t, c, "busy", now) }, assignTo(userRef("erin"))},
		{"Assign", available, boss, func(Task) Actor { return max },
			func(t Task, c Command) (Change, error) { return Assign(t, c, ParticipantRef{ID: "erin"}, "", now) }, keep},
		{"UpdateSchedule", available, boss, func(Task) Actor { return max },
			func(t Task, c Command) (Change, error) { return UpdateSchedule(t, c, intPtr(80), nil, false, now) }, keep},
		{"Complete", assigned, alice, func(Task) Actor { return erin },
			func(t Task, c Command) (Change, error) { return Complete(t, c, "Approve", nil, now) }, assignTo(userRef("erin"))},
		{"CompleteAsGuest", guestTask, guest(guestTask, "inv-1", "Approve"), func(t Task) Actor { return guest(t, "inv-2", "Approve") },
			func(t Task, c Command) (Change, error) { return Complete(t, c, "Approve", nil, now) }, assignTo(GuestRef(testTenant, "inv-2"))},
		{"Cancel", available, boss, func(Task) Actor { return max },
			func(t Task, c Command) (Change, error) { return Cancel(t, c, "duplicate", now) }, keep},
		{"RetryResolution", available, boss, func(Task) Actor { return max },
			func(t Task, c Command) (Change, error) { return RetryResolution(t, c, nil, nil, Health{}, now) }, keep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, err := tt.run(tt.task, cmdOf(tt.first, tt.task))
			if err != nil || first.Operation == nil {
				t.Fatalf("first command: %v", err)
			}
			prior := first.Operation
			state := tt.forSecond(first.Task)

			t.Run("ErrIdempotencyConflict_AnotherActor", func(t *testing.T) {
				cmd := cmdOf(tt.second(state), tt.task) // the same body: id, expected revision, fields
				cmd.Prior = prior
				snapshot := cloneTask(state)
				ch, err := tt.run(state, cmd)
				wantCode(t, err, CodeIdempotencyConflict)
				if !reflect.DeepEqual(ch, Change{}) {
					t.Errorf("got change %+v with the refusal, want the zero Change", ch)
				}
				if !reflect.DeepEqual(state, snapshot) {
					t.Errorf("a refused command mutated its input")
				}
			})
			t.Run("OK_TheSameActorReplays", func(t *testing.T) {
				cmd := cmdOf(tt.first, tt.task)
				cmd.Prior = prior
				ch, err := tt.run(first.Task, cmd)
				if err != nil || ch.Replay != prior || ch.Event != nil || ch.Operation != nil {
					t.Fatalf("got %+v, %v; want the stored operation replayed", ch, err)
				}
			})
		})
	}
}

// TestOperationRanBy pins who counts as the same caller: the same subject (tenant, provider,
// type, id; the display name is a snapshot), and the system only for the system's operations.
func TestOperationRanBy(t *testing.T) {
	byAlice := &Operation{Actor: refPtr(userRef("alice"))}
	bySystem := &Operation{}
	renamed := person("alice")
	renamed.DisplayName = "Alice Renamed"
	otherProvider := person("alice")
	otherProvider.Subject.Provider = "other-idp"
	otherTenant := person("alice")
	otherTenant.Tenant, otherTenant.Subject.Tenant = "globex", "globex"
	g1 := Actor{Tenant: testTenant, Subject: GuestRef(testTenant, "inv-1"), Guest: &GuestGrant{InvitationID: "inv-1"}}
	g2 := Actor{Tenant: testTenant, Subject: GuestRef(testTenant, "inv-2"), Guest: &GuestGrant{InvitationID: "inv-2"}}
	byGuest := &Operation{Actor: g1.Ref()}

	tests := []struct {
		name string
		op   *Operation
		a    Actor
		want bool
	}{
		{"SameSubject", byAlice, person("alice"), true},
		{"SameSubjectRenamed", byAlice, renamed, true},
		{"AnotherUser", byAlice, person("erin"), false},
		{"AnotherProvider", byAlice, otherProvider, false},
		{"AnotherTenant", byAlice, otherTenant, false},
		{"TheSystemForAUsersOperation", byAlice, SystemActor(testTenant), false},
		{"AUserForTheSystemsOperation", bySystem, person("alice"), false},
		{"TheSystemForItsOwn", bySystem, SystemActor(testTenant), true},
		{"TheSameGuest", byGuest, g1, true},
		{"AnotherGuest", byGuest, g2, false},
		{"NoOperation", nil, person("alice"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.op.RanBy(tt.a); got != tt.want {
				t.Fatalf("RanBy = %v, want %v", got, tt.want)
			}
		})
	}
}
