package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Complete accepts the assignee's decision (SPEC 3.3 `completion-requested`): Assigned →
// Completing, with the accepted operation carrying the protected completion data and a pending
// resumption row. The caller validates data against the pinned schema before calling (or
// through CompleteWith); this checks only what needs no schema.
//
// Only the assignee may complete, or the guest assignee with the action among its allowed
// actions; anyone else — a manager included, managers never complete on someone's behalf — gets
// ErrNotFound. The completer may replay its operation after the task closed.
func Complete(t Task, cmd Command, actionKey string, data json.RawMessage, now time.Time) (Change, error) {
	return CompleteWith(t, cmd, actionKey, now, func() (json.RawMessage, error) { return data, nil })
}

// CompleteWith is Complete for a caller that checks the data against the pinned form, which
// this package cannot read: submitted runs once the relationship admits the caller (404 before
// 422), and its answer is the data the transition checks and records, or the refusal.
func CompleteWith(t Task, cmd Command, actionKey string, now time.Time, submitted func() (json.RawMessage, error)) (Change, error) {
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	cmd, err := ofKind(cmd, OpComplete) // replaysOwn compares the stored operation's kind with it
	if err != nil {
		return Change{}, err
	}
	if !replaysOwn(t, cmd) && !mayComplete(t, cmd.Actor, actionKey) {
		return Change{}, ErrNotFound
	}
	data, err := submitted()
	if err != nil {
		return Change{}, err
	}
	action, declared := t.FindAction(actionKey)
	key := actionKey
	if declared {
		key = action.Key
	}
	form := t.Protected.Form
	if nullJSON(data) || (form == nil && emptyObject(data)) {
		data = nil // an empty object carries nothing for a task without a form
	}
	if cmd, err = prepare(cmd, OpComplete, map[string]any{"actionKey": key, "data": hashable(data)}); err != nil {
		return Change{}, err
	}

	var pr problems
	pr.operationID(cmd.OperationID, true)
	switch {
	case isReservedAction(actionKey):
		pr.add(CodeReservedAction, "actionKey", actionKey+" is reserved")
	case !declared:
		pr.add(CodeInvalidAction, "actionKey", "is not an action of this task")
	}
	switch {
	case form == nil && data != nil:
		pr.add(CodeFormRequired, "data", "the task has no form; complete it with an action only")
	case form != nil && !form.Resolved():
		pr.add(CodeFormUnavailable, "form", "the task's form is not available")
	case len(data) > MaxProtectedPayloadBytes:
		pr.add(CodePayloadTooLarge, "data", fmt.Sprintf("must be at most %d bytes", MaxProtectedPayloadBytes))
	case data != nil && !jsonObject(data):
		pr.add(CodeFormInvalid, "data", "must be a JSON object")
	}
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	// checkStored guarantees an open task with an assignee is Assigned.

	next := cloneTask(t)
	next.Status = StatusCompleting
	next.TransitionedAt = clonePtr(&now)
	next.Outcome = Outcome{ActionKey: action.Key, CompletedBy: cmd.Actor.Ref(), OnBehalfOf: DelegatorOf(t)}
	next.Protected.CompletionData = bytes.Clone(data)
	return commitCommand(t, next, cmd, transition{
		event:     EventCompletionRequested,
		state:     OperationAccepted,
		actionKey: action.Key,
		payload:   data,
		metadata:  map[string]string{"actionKey": action.Key},
	}, now)
}

// mayComplete is the relationship of complete: the signed-in assignee, or the guest assignee
// whose grant allows the action. Blocking health hides the task from non-managers.
func mayComplete(t Task, a Actor, actionKey string) bool {
	if hiddenFrom(t, a) {
		return false
	}
	if a.Guest != nil {
		return guestAssignee(t, a) && containsFold(a.Guest.AllowedActions, actionKey)
	}
	return personAssignee(t, a)
}

// emptyObject reports whether raw is the JSON object {}.
func emptyObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil && len(m) == 0
}
