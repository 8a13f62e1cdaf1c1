package models

import (
	"strings"
	"time"
)

// Assign gives an open task to a user of the task's tenant (SPEC 3.3 `assigned`); managers only,
// everyone else gets ErrNotFound. An excluded assignee is refused with excluded-assignee unless
// the task allows the manager override, and then only with a reason (reason-required).
func Assign(t Task, cmd Command, assignee ParticipantRef, reason string, now time.Time) (Change, error) {
	reason = strings.TrimSpace(reason)
	var pr problems
	target, ok := pr.participant("assignee", assignee, t.Tenant, UserParticipant, CodeCrossTenantAssignee)
	cmd, err := start(t, cmd, OpAssign, map[string]any{"assignee": toWire(wireIdentity(target)), "reason": reason}, manages)
	if err != nil {
		return Change{}, err
	}
	pr.operationID(cmd.OperationID, false)
	pr.reason(reason)
	if ok && t.Assignment.Excludes(target) {
		switch {
		case !t.Assignment.AllowExclusionOverride:
			pr.add(CodeExcludedAssignee, "assignee", "is excluded from the task")
		case reason == "":
			pr.add(CodeReasonRequired, "reason", "is required to assign an excluded user")
		}
	}
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}

	next := assignedTo(t, &target, now)
	return commitCommand(t, next, cmd, transition{
		event:    EventAssigned,
		state:    OperationCompleted,
		reason:   reason,
		metadata: map[string]any{"assignee": toWire(target)},
	}, now)
}

// wireIdentity drops the display name: it is a snapshot, not part of a request's meaning.
func wireIdentity(p ParticipantRef) ParticipantRef {
	p.DisplayName = ""
	return p
}
