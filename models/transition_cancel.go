package models

import (
	"strings"
	"time"
)

// Cancel asks the workflow to cancel an open task (SPEC 3.3 `cancellation-requested`):
// Cancelling, with an accepted operation carrying the reason and a pending resumption row with
// the Cancelled action. Managers only (everyone else gets ErrNotFound); the task must allow
// cancellation (cancellation-disabled) and the reason is required (reason-required).
func Cancel(t Task, cmd Command, reason string, now time.Time) (Change, error) {
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	reason = strings.TrimSpace(reason)
	cmd, err := prepare(cmd, OpCancel, map[string]string{"reason": reason})
	if err != nil {
		return Change{}, err
	}
	if !replaysOwn(t, cmd) && !manages(t, cmd.Actor) {
		return Change{}, ErrNotFound
	}
	var pr problems
	pr.operationID(cmd.OperationID, true)
	if !t.CancellationEnabled {
		pr.add(CodeCancellationDisabled, "cancellationEnabled", "the task cannot be cancelled")
	}
	if reason == "" {
		pr.add(CodeReasonRequired, "reason", "is required")
	}
	pr.reason(reason)
	if err := pr.err(); err != nil {
		return Change{}, err
	}
	if replay, err := admit(t, cmd); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	if err := requireOpen(t); err != nil {
		return Change{}, err
	}

	next := cloneTask(t)
	next.Status = StatusCancelling
	next.TransitionedAt = clonePtr(&now)
	next.Outcome = Outcome{ActionKey: ActionCancelled, CompletedBy: cmd.Actor.Ref()}
	return commit(t, next, transition{
		kind:        OpCancel,
		event:       EventCancellationRequested,
		state:       OperationAccepted,
		operationID: cmd.OperationID,
		requestHash: cmd.RequestHash,
		actor:       cmd.Actor.Ref(),
		reason:      reason,
		actionKey:   ActionCancelled,
	}, now)
}
