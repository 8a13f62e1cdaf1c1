package models

import "time"

// FieldRevealed records that a masked form field was revealed (SPEC 3.3 `field-revealed`). It
// changes no state: the event keeps the task's revision and takes the next sequence, so the
// store must raise the task's LastEventSeq with it. The event names the field, never its value.
//
// Revealing is reading protected content (SPEC 4): a manager; the assignee (or the guest
// assignee) while open or transitional; the completer once terminal. Anyone else, and anyone
// but a manager while blocking health hides the task, gets ErrNotFound.
func FieldRevealed(t Task, a Actor, fieldKey string, now time.Time) (Event, error) {
	if err := checkStored(t); err != nil {
		return Event{}, err
	}
	if !mayReadProtected(t, a) {
		return Event{}, ErrNotFound
	}
	var pr problems
	pr.text("fieldKey", fieldKey, maxFieldKeyLength, true, Identifier)
	if err := pr.err(); err != nil {
		return Event{}, err
	}
	return newEvent(t, a, EventFieldRevealed, map[string]string{"field": fieldKey}, now)
}

// mayReadProtected is SPEC 4's "read protected" relationship.
func mayReadProtected(t Task, a Actor) bool {
	switch {
	case manages(t, a):
		return true
	case hiddenFrom(t, a):
		return false
	case t.Status.IsTerminal():
		return a.Guest == nil && !a.System && a.Tenant == t.Tenant &&
			t.Outcome.CompletedBy != nil && t.Outcome.CompletedBy.Same(a.Subject)
	}
	return personAssignee(t, a) || guestAssignee(t, a)
}

// InvitationEvent records that a manager issued or revoked a guest invitation (SPEC 3.3
// `invitation-issued` / `invitation-revoked`); like FieldRevealed it changes no state. Managers
// only (everyone else gets ErrNotFound); issuing needs an open task, revoking works in any status.
func InvitationEvent(t Task, a Actor, typ EventType, invitationID string, now time.Time) (Event, error) {
	if err := checkStored(t); err != nil {
		return Event{}, err
	}
	if !manages(t, a) {
		return Event{}, ErrNotFound
	}
	var pr problems
	if typ != EventInvitationIssued && typ != EventInvitationRevoked {
		pr.fail("type", "must be invitation-issued or invitation-revoked")
	}
	pr.text("invitationId", invitationID, maxInvitationIDLength, true, Identifier)
	if err := pr.err(); err != nil {
		return Event{}, err
	}
	if typ == EventInvitationIssued {
		if err := requireOpen(t); err != nil {
			return Event{}, err
		}
	}
	return newEvent(t, a, typ, map[string]string{"invitationId": invitationID}, now)
}
