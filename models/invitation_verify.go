package models

import "time"

// MaxCodeAttempts is how many wrong codes an invitation takes; the last one revokes it for good.
const MaxCodeAttempts = 5

// Why the system revoked an invitation, recorded in the invitation-revoked event.
const (
	RevokedSiblingVerified   = "sibling-verified"   // another invitation of its sibling group was verified first
	RevokedAttemptsExhausted = "attempts-exhausted" // MaxCodeAttempts wrong codes
)

// Verifiable reports whether an invitation may still be verified at now: issued or dispatched,
// not past its expiry, with wrong-code attempts left.
func (inv Invitation) Verifiable(now time.Time) bool {
	return (inv.Status == InvitationPending || inv.Status == InvitationDispatched) &&
		now.Before(inv.ExpiresAt) && inv.CodeAttempts < MaxCodeAttempts
}

// SystemRevokedInvitation is the invitation-revoked event of an invitation the system revoked
// (reason is RevokedSiblingVerified or RevokedAttemptsExhausted). Like InvitationEvent it
// keeps the task's revision and takes the next sequence.
func SystemRevokedInvitation(t Task, invitationID, reason string, now time.Time) (Event, error) {
	if err := checkStored(t); err != nil {
		return Event{}, err
	}
	var pr problems
	pr.text("invitationId", invitationID, maxInvitationIDLength, true, Identifier)
	if err := pr.err(); err != nil {
		return Event{}, err
	}
	return newEvent(t, SystemActor(t.Tenant), EventInvitationRevoked,
		map[string]string{"invitationId": invitationID, "reason": reason}, now)
}

// GuestSessionLive reports whether a guest session still grants its task at now, judged on
// live state (SPEC 6): the session is neither revoked nor expired, its invitation is verified
// (not revoked, expired or consumed), and the task is Assigned to this very guest.
func GuestSessionLive(s GuestSession, inv Invitation, t Task, now time.Time) bool {
	guest := GuestRef(s.Tenant, inv.ID)
	return s.RevokedAt == nil && now.Before(s.ExpiresAt) &&
		inv.ID == s.InvitationID && inv.Tenant == s.Tenant && inv.TaskID == s.TaskID &&
		inv.Status == InvitationVerified &&
		t.Tenant == s.Tenant && t.ID == s.TaskID && t.Status == StatusAssigned &&
		t.Assignee != nil && t.Assignee.Same(guest) && s.Participant.Same(guest)
}

// GuestDoneFor is how long after its completion the guest may see what it answered (the guest
// page /guest/done); after that its browser is shown nothing more.
const GuestDoneFor = time.Hour

// GuestDoneVisible reports whether a guest session may show its done page at now: its guest
// completed the task (the outcome is the guest's) and that consumed its invitation less than
// GuestDoneFor ago, the session's own lifetime has not run out, and the session did not end
// before the consumption (the consumption ends it).
func GuestDoneVisible(s GuestSession, inv Invitation, t Task, now time.Time) bool {
	guest := GuestRef(s.Tenant, inv.ID)
	return now.Before(s.ExpiresAt) &&
		inv.ID == s.InvitationID && inv.Tenant == s.Tenant && inv.TaskID == s.TaskID &&
		inv.Status == InvitationConsumed && inv.ConsumedAt != nil && now.Before(inv.ConsumedAt.Add(GuestDoneFor)) &&
		(s.RevokedAt == nil || !s.RevokedAt.Before(*inv.ConsumedAt)) &&
		t.Tenant == s.Tenant && t.ID == s.TaskID && t.Outcome.CompletedBy != nil &&
		t.Outcome.CompletedBy.Same(guest) && s.Participant.Same(guest)
}

// GuestActor is the actor a live guest session speaks for: its task only, read and complete
// with the session's allowed actions.
func GuestActor(s GuestSession) Actor {
	return Actor{
		Tenant:  s.Tenant,
		Subject: GuestRef(s.Tenant, s.InvitationID),
		Guest: &GuestGrant{TaskID: s.TaskID, InvitationID: s.InvitationID,
			AllowedActions: append([]string(nil), s.Capabilities...)},
	}
}
