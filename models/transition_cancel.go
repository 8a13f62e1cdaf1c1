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
	reason = strings.TrimSpace(reason)
	cmd, err := start(t, cmd, OpCancel, map[string]string{"reason": reason}, manages)
	if err != nil {
		return Change{}, err
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
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}

	next := cloneTask(t)
	next.Status = StatusCancelling
	next.TransitionedAt = clonePtr(&now)
	next.Outcome = Outcome{ActionKey: ActionCancelled, CompletedBy: cmd.Actor.Ref()}
	return commitCommand(t, next, cmd, transition{
		event:     EventCancellationRequested,
		state:     OperationAccepted,
		reason:    reason,
		actionKey: ActionCancelled,
	}, now)
}
