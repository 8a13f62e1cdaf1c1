package models

import (
	"encoding/json"
	"strings"
	"testing"
)

// delegated is an Assigned task alice delegated to bob.
func delegated(t *testing.T) Task {
	t.Helper()
	task := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(userRef("bob"))})
	task.DelegatedBy = refPtr(userRef("alice"))
	return task
}

func TestDelegate(t *testing.T) {
	delegate := func(a Actor, to ParticipantRef, reason string) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return Delegate(t, cmdOf(a, t), to, reason, now) }
	}
	alice, boss := person("alice"), manager("boss")
	assigned := newTask(t, &taskOpts{status: StatusAssigned})

	for _, tt := range []struct {
		name  string
		actor Actor
	}{{"OK_ByTheAssignee", alice}, {"OK_ByAManager", boss}} {
		t.Run(tt.name, func(t *testing.T) {
			ch := mustCommit(t, assigned, wantChange{status: StatusAssigned, event: EventDelegated, kind: OpDelegate, state: OperationCompleted, actor: tt.actor.Ref(), operationID: "op-1"},
				delegate(tt.actor, ParticipantRef{ID: "bob", DisplayName: "Bob"}, " holiday "))
			if got := ch.Task.Assignee; got == nil || !got.Same(userRef("bob")) || got.DisplayName != "Bob" {
				t.Errorf("assignee: got %v, want bob named Bob", got)
			}
			if got := ch.Task.DelegatedBy; got == nil || !got.Same(userRef("alice")) {
				t.Errorf("delegatedBy: got %v, want alice (the previous assignee, not the caller)", got)
			}
			if ch.Task.AssignedAt == nil || !ch.Task.AssignedAt.Equal(now) {
				t.Errorf("assignedAt: got %v, want %v", ch.Task.AssignedAt, now)
			}
			if ch.Event.Reason != "holiday" {
				t.Errorf("reason: got %q, want %q", ch.Event.Reason, "holiday")
			}
			var meta struct{ To, DelegatedBy wireRef }
			if err := json.Unmarshal(ch.Event.Metadata, &meta); err != nil || meta.To.ID != "bob" || meta.DelegatedBy.ID != "alice" {
				t.Errorf("metadata: got %s (%v), want to bob, delegatedBy alice", ch.Event.Metadata, err)
			}
		})
	}
	t.Run("OK_TheDisplayNameIsNoPartOfTheRequest", func(t *testing.T) {
		a := cmdOf(alice, assigned)
		b := cmdOf(alice, assigned)
		ca, _ := Delegate(assigned, a, ParticipantRef{ID: "bob", DisplayName: "Bob"}, "", now)
		cb, _ := Delegate(assigned, b, ParticipantRef{ID: "bob"}, "", now)
		if ca.Operation.RequestHash != cb.Operation.RequestHash {
			t.Errorf("request hashes differ by the display name")
		}
	})
	t.Run("OK_TheDelegateDelegatesOn", func(t *testing.T) {
		ch := mustCommit(t, delegated(t), wantChange{status: StatusAssigned, event: EventDelegated, kind: OpDelegate, state: OperationCompleted, actor: person("bob").Ref(), operationID: "op-1"},
			delegate(person("bob"), ParticipantRef{ID: "carol"}, ""))
		if got := ch.Task.DelegatedBy; got == nil || !got.Same(userRef("bob")) {
			t.Errorf("delegatedBy: got %v, want bob, the previous assignee", got)
		}
	})

	t.Run("OK_AGuestsTaskIsNotTheGuestsToGetBack", func(t *testing.T) {
		task := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(GuestRef(testTenant, "inv-1"))})
		ch := mustCommit(t, task, wantChange{status: StatusAssigned, event: EventDelegated, kind: OpDelegate, state: OperationCompleted, actor: boss.Ref(), operationID: "op-1"},
			delegate(boss, ParticipantRef{ID: "bob"}, ""))
		if ch.Task.DelegatedBy != nil {
			t.Errorf("delegatedBy: got %v, want none for a guest's task", ch.Task.DelegatedBy)
		}
	})

	hidden := withHealth(assigned, HealthFormProviderMissing)
	guestTask := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(GuestRef(testTenant, "inv-1"))})
	runRefusals(t, []refusal{
		{"ErrNotFound_NotTheAssignee", assigned, delegate(person("dave", "approvers"), ParticipantRef{ID: "bob"}, ""), CodeNotFound},
		{"ErrNotFound_Guest", guestTask, delegate(guest(guestTask, "inv-1", "Approve"), ParticipantRef{ID: "bob"}, ""), CodeNotFound},
		{"ErrNotFound_AvailableTaskForAPerson", newTask(t, nil), delegate(alice, ParticipantRef{ID: "bob"}, ""), CodeNotFound},
		{"ErrNotFound_BlockingHealth", hidden, delegate(alice, ParticipantRef{ID: "bob"}, ""), CodeNotFound},
		{"ErrNotFound_TheDelegatorAfterwards", delegated(t), delegate(alice, ParticipantRef{ID: "carol"}, ""), CodeNotFound},
		{"ErrValidation_Oneself", assigned, delegate(boss, ParticipantRef{ID: "boss"}, ""), CodeValidationFailed},
		{"ErrValidation_OneselfAsAssignee", assigned, delegate(alice, ParticipantRef{ID: "alice"}, ""), CodeValidationFailed},
		{"ErrValidation_TheCurrentDelegate", delegated(t), delegate(boss, ParticipantRef{ID: "bob"}, ""), CodeValidationFailed},
		{"ErrValidation_AGroup", assigned, delegate(alice, ParticipantRef{Type: GroupParticipant, ID: "approvers"}, ""), CodeValidationFailed},
		{"ErrValidation_AGuestProvider", assigned, delegate(alice, ParticipantRef{Provider: GuestProvider, ID: "x"}, ""), CodeValidationFailed},
		{"ErrValidation_NoID", assigned, delegate(alice, ParticipantRef{}, ""), CodeValidationFailed},
		{"ErrValidation_ControlCharacterID", assigned, delegate(alice, ParticipantRef{ID: "bo\x00b"}, ""), CodeValidationFailed},
		{"ErrValidation_ReasonTooLong", assigned, delegate(alice, ParticipantRef{ID: "bob"}, strings.Repeat("r", MaxReasonLength+1)), CodeValidationFailed},
		{"ErrCrossTenant", assigned, delegate(alice, ParticipantRef{Tenant: "other", ID: "bob"}, ""), CodeCrossTenantAssignee},
		{"ErrExcluded", assigned, delegate(alice, ParticipantRef{ID: "mallory"}, ""), CodeExcludedAssignee},
		{"ErrExcluded_EvenWithTheOverride", newTask(t, &taskOpts{status: StatusAssigned, projection: func(p *Projection) { p.AllowExclusionOverride = true }}),
			delegate(boss, ParticipantRef{ID: "mallory"}, "because"), CodeExcludedAssignee},
		{"ErrNotAssigned_AvailableForAManager", newTask(t, nil), delegate(boss, ParticipantRef{ID: "bob"}, ""), CodeNotAssigned},
		{"ErrTransitionInProgress", newTask(t, &taskOpts{status: StatusCompleting}), delegate(boss, ParticipantRef{ID: "bob"}, ""), CodeTransitionInProgress},
		{"ErrTerminal", newTask(t, &taskOpts{status: StatusCompleted}), delegate(boss, ParticipantRef{ID: "bob"}, ""), CodeTerminal},
		{"ErrRevisionConflict", assigned, func(task Task) (Change, error) {
			cmd := cmdOf(alice, task)
			cmd.ExpectedRevision = 1
			return Delegate(task, cmd, ParticipantRef{ID: "bob"}, "", now)
		}, CodeRevisionConflict},
		{"ErrIdempotencyConflict_AnotherActorReplays", assigned, func(task Task) (Change, error) {
			first, err := Delegate(task, cmdOf(alice, task), ParticipantRef{ID: "bob"}, "", now)
			if err != nil {
				return Change{}, err
			}
			cmd := cmdOf(boss, task)
			cmd.Prior = first.Operation
			return Delegate(task, cmd, ParticipantRef{ID: "bob"}, "", now)
		}, CodeIdempotencyConflict},
	})

	t.Run("OK_ReplayByTheSameActor", func(t *testing.T) {
		first, err := Delegate(assigned, cmdOf(alice, assigned), ParticipantRef{ID: "bob"}, "", now)
		if err != nil {
			t.Fatal(err)
		}
		cmd := cmdOf(alice, assigned) // alice is no longer the assignee: her own replay still answers
		cmd.Prior = first.Operation
		ch, err := Delegate(first.Task, cmd, ParticipantRef{ID: "bob"}, "", now)
		if err != nil || ch.Replay == nil || ch.Replay.OperationID != first.Operation.OperationID {
			t.Fatalf("got %+v, %v; want a replay of the first operation", ch.Replay, err)
		}
	})
}

func TestReturn(t *testing.T) {
	ret := func(a Actor) func(Task) (Change, error) {
		return func(t Task) (Change, error) { return Return(t, cmdOf(a, t), "done looking", now) }
	}
	bob := person("bob")
	t.Run("OK_BackToTheDelegator", func(t *testing.T) {
		ch := mustCommit(t, delegated(t), wantChange{status: StatusAssigned, event: EventReturned, kind: OpReturn, state: OperationCompleted, actor: bob.Ref(), operationID: "op-1"}, ret(bob))
		if got := ch.Task.Assignee; got == nil || !got.Same(userRef("alice")) {
			t.Errorf("assignee: got %v, want alice", got)
		}
		if ch.Task.DelegatedBy != nil {
			t.Errorf("delegatedBy: got %v, want none after the return", ch.Task.DelegatedBy)
		}
	})
	runRefusals(t, []refusal{
		{"ErrNotFound_TheDelegator", delegated(t), ret(person("alice")), CodeNotFound},
		{"ErrNotFound_AManager", delegated(t), ret(manager("boss")), CodeNotFound},
		{"ErrNotFound_AvailableTask", newTask(t, nil), ret(bob), CodeNotFound},
		{"ErrNotDelegated", newTask(t, &taskOpts{status: StatusAssigned}), ret(person("alice")), CodeNotDelegated},
		{"ErrRevisionConflict", delegated(t), func(task Task) (Change, error) {
			cmd := cmdOf(bob, task)
			cmd.ExpectedRevision = 2
			return Return(task, cmd, "", now)
		}, CodeRevisionConflict},
	})
}

func TestDelegationEndsWithAnotherAssignment(t *testing.T) {
	t.Run("Release", func(t *testing.T) {
		task := delegated(t)
		ch, err := Release(task, cmdOf(person("bob"), task), "", now)
		if err != nil || ch.Task.DelegatedBy != nil {
			t.Fatalf("got delegatedBy %v, %v; want none", ch.Task.DelegatedBy, err)
		}
	})
	t.Run("Assign", func(t *testing.T) {
		task := delegated(t)
		ch, err := Assign(task, cmdOf(manager("boss"), task), ParticipantRef{ID: "carol"}, "", now)
		if err != nil || ch.Task.DelegatedBy != nil {
			t.Fatalf("got delegatedBy %v, %v; want none", ch.Task.DelegatedBy, err)
		}
	})
}

func TestCompleteByADelegate(t *testing.T) {
	task := delegated(t)
	ch := mustCommit(t, task, wantChange{status: StatusCompleting, event: EventCompletionRequested, kind: OpComplete, state: OperationAccepted, actor: person("bob").Ref(), operationID: "op-1"},
		func(t Task) (Change, error) { return Complete(t, cmdOf(person("bob"), t), "Approve", nil, now) })
	if by := ch.Task.Outcome.CompletedBy; by == nil || !by.Same(userRef("bob")) {
		t.Errorf("completedBy: got %v, want bob", by)
	}
	if o := ch.Task.Outcome.OnBehalfOf; o == nil || !o.Same(userRef("alice")) {
		t.Errorf("onBehalfOf: got %v, want alice", o)
	}
	if ch.Task.DelegatedBy == nil {
		t.Errorf("delegatedBy: dropped by the completion, want kept for the record")
	}
	plain := newTask(t, &taskOpts{status: StatusAssigned})
	ch, err := Complete(plain, cmdOf(person("alice"), plain), "Approve", nil, now)
	if err != nil || ch.Task.Outcome.OnBehalfOf != nil {
		t.Errorf("onBehalfOf of an undelegated completion: got %v, %v; want none", ch.Task.Outcome.OnBehalfOf, err)
	}
}
