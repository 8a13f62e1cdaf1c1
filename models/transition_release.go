package models

import (
	"strings"
	"time"
)

// Release gives an Assigned task back (SPEC 3.3 `released`): Available while a candidate row
// or an invitation definition remains, otherwise Unassigned with advisory health no-participants.
// Only the assignee may release, never a guest; anyone else gets ErrNotFound.
func Release(t Task, cmd Command, reason string, now time.Time) (Change, error) {
	reason = strings.TrimSpace(reason)
	cmd, err := start(t, cmd, OpRelease, map[string]string{"reason": reason}, mayRelease)
	if err != nil {
		return Change{}, err
	}
	var pr problems
	pr.operationID(cmd.OperationID, false)
	pr.reason(reason)
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}
	// checkStored guarantees an open task with an assignee is Assigned.

	next := cloneTask(t)
	next.Assignee = nil
	next.DelegatedBy = nil
	next.AssignedAt = nil
	next.Status = StatusUnassigned
	if hasParticipants(next) {
		next.Status = StatusAvailable
	}
	settleParticipantsHealth(&next)
	return commitCommand(t, next, cmd, transition{
		event:  EventReleased,
		state:  OperationCompleted,
		reason: reason,
	}, now)
}

// mayRelease is the relationship of release: the signed-in assignee the task is not hidden from.
func mayRelease(t Task, a Actor) bool { return !hiddenFrom(t, a) && personAssignee(t, a) }
