package models

import "time"

// VerifyGuest assigns the task to the guest of the first valid invitation (SPEC 3.3
// `invitation-verified`, SPEC 6): Available or Unassigned → Assigned to GuestRef(tenant,
// invitationID). It never overwrites an assignee (not-claimable). The caller has verified the
// invitation; this decides only whether the task may still go to the guest.
//
// Blocking health hides the task from everyone but managers, so a task with a blocking finding
// refuses verification with ErrNotFound (the invitation stays unused); so does an excluded guest.
func VerifyGuest(t Task, invitationID string, now time.Time) (Change, error) {
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	var pr problems
	pr.text("invitationId", invitationID, maxInvitationIDLength, true, Identifier)
	if err := pr.err(); err != nil {
		return Change{}, err
	}
	guest := GuestRef(t.Tenant, invitationID)
	if t.Health.Blocking() || t.Assignment.Excludes(guest) {
		return Change{}, ErrNotFound
	}
	if err := requireOpen(t); err != nil {
		return Change{}, err
	}
	if t.Status == StatusAssigned {
		return Change{}, Conflict(CodeNotClaimable)
	}

	next := assignedTo(t, &guest, now)
	return commit(t, next, transition{
		kind:        OpVerifyGuest,
		event:       EventInvitationVerified,
		state:       OperationCompleted,
		requestHash: RequestHash(OpVerifyGuest, t.Revision, map[string]string{"invitationId": invitationID}),
		actor:       clonePtr(&guest),
		metadata:    map[string]string{"invitationId": invitationID},
	}, now)
}
