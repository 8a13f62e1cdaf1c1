package models

import (
	"strings"
	"time"
)

// Delegate hands an Assigned task to another user (SPEC 10.5 `delegated`): the assignee or a
// manager, never a guest; anyone else gets ErrNotFound. The delegate must be a user of the
// task's tenant, not the caller, not the assignee already and not excluded (excluded-assignee,
// without the manager override assign has: delegation is no manager decision). The task stays
// Assigned, to the delegate, with DelegatedBy the previous assignee; a task nobody holds is
// refused with not-assigned. Whether the directory knows the delegate is the caller's check
// (tasks.Service), made before the transaction.
func Delegate(t Task, cmd Command, to ParticipantRef, reason string, now time.Time) (Change, error) {
	reason = strings.TrimSpace(reason)
	var pr problems
	target, ok := pr.participant("to", to, t.Tenant, UserParticipant, CodeCrossTenantAssignee)
	cmd, err := start(t, cmd, OpDelegate, map[string]any{"to": toWire(wireIdentity(target)), "reason": reason}, mayDelegate)
	if err != nil {
		return Change{}, err
	}
	pr.operationID(cmd.OperationID, false)
	pr.reason(reason)
	if ok {
		switch {
		case target.Same(cmd.Actor.Subject):
			pr.fail("to", "cannot be yourself")
		case t.Assignment.Excludes(target):
			pr.add(CodeExcludedAssignee, "to", "is excluded from the task")
		}
	}
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	if t.Status != StatusAssigned {
		return Change{}, Conflict(CodeNotAssigned)
	}
	// After the replay check: once delegated, the delegate holds the task, and a replay of the
	// delegation must still answer.
	if t.IsAssignee(target) {
		return Change{}, Invalid(CodeValidationFailed, FieldError{Field: "to", Message: "holds the task already"})
	}

	next := assignedTo(t, &target, now)
	meta := map[string]any{"to": toWire(target)}
	// A guest's task a manager delegates is not the guest's to get back: a return hands a task
	// to a person, and a guest holds a task only through a verified invitation.
	if !t.Assignee.IsGuest() {
		next.DelegatedBy = clonePtr(t.Assignee)
		meta["delegatedBy"] = toWire(*t.Assignee)
	}
	return commitCommand(t, next, cmd, transition{
		event:    EventDelegated,
		state:    OperationCompleted,
		reason:   reason,
		metadata: meta,
	}, now)
}

// Return gives a delegated task back to its delegator (SPEC 10.5 `returned`): only the
// delegate (the assignee of a delegated task), never a guest; anyone else gets ErrNotFound. A
// task that is not delegated is refused with not-delegated.
func Return(t Task, cmd Command, reason string, now time.Time) (Change, error) {
	reason = strings.TrimSpace(reason)
	cmd, err := start(t, cmd, OpReturn, map[string]string{"reason": reason}, mayReturn)
	if err != nil {
		return Change{}, err
	}
	var pr problems
	pr.operationID(cmd.OperationID, false)
	pr.reason(reason)
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	if t.DelegatedBy == nil {
		return Change{}, Conflict(CodeNotDelegated)
	}

	back := *t.DelegatedBy
	next := assignedTo(t, &back, now)
	return commitCommand(t, next, cmd, transition{
		event:    EventReturned,
		state:    OperationCompleted,
		reason:   reason,
		metadata: map[string]any{"to": toWire(back)},
	}, now)
}

// DelegatorOf is whom a completion by t's assignee is on behalf of: the delegator of a
// delegated task, else nil.
func DelegatorOf(t Task) *ParticipantRef {
	if t.Assignee == nil {
		return nil
	}
	return clonePtr(t.DelegatedBy)
}

// mayDelegate is the relationship of delegate: the signed-in assignee or a manager, the task not
// hidden from them.
func mayDelegate(t Task, a Actor) bool {
	return !hiddenFrom(t, a) && (personAssignee(t, a) || manages(t, a))
}

// mayReturn is the relationship of return: the signed-in assignee (the delegate); whether the
// task is delegated is a state check, after the revision.
func mayReturn(t Task, a Actor) bool { return !hiddenFrom(t, a) && personAssignee(t, a) }
