package models

import (
	"strings"
	"time"
)

// Release gives an Assigned task back (SPEC 3.3 `released`): Available while a candidate row
// or an invitation definition remains, otherwise Unassigned with advisory health no-participants.
// Only the assignee may release, never a guest; anyone else gets ErrNotFound.
func Release(t Task, cmd Command, reason string, now time.Time) (Change, error) {
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	reason = strings.TrimSpace(reason)
	cmd, err := prepare(cmd, OpRelease, map[string]string{"reason": reason})
	if err != nil {
		return Change{}, err
	}
	if !replaysOwn(t, cmd) && (hiddenFrom(t, cmd.Actor) || !personAssignee(t, cmd.Actor)) {
		return Change{}, ErrNotFound
	}
	var pr problems
	pr.operationID(cmd.OperationID, false)
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
	// checkStored guarantees an open task with an assignee is Assigned.

	next := cloneTask(t)
	next.Assignee = nil
	next.AssignedAt = nil
	next.Status = StatusUnassigned
	if hasParticipants(next) {
		next.Status = StatusAvailable
	}
	settleParticipantsHealth(&next)
	return commit(t, next, transition{
		kind:        OpRelease,
		event:       EventReleased,
		state:       OperationCompleted,
		operationID: cmd.OperationID,
		requestHash: cmd.RequestHash,
		actor:       cmd.Actor.Ref(),
		reason:      reason,
	}, now)
}
