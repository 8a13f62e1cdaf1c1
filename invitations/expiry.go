package invitations

import (
	"time"

	"usertasks/models"
)

// DefaultLifetime is an invitation's lifetime when its definition names none (SPEC 6).
const DefaultLifetime = 7 * 24 * time.Hour

// SessionLifetime caps a guest session (SPEC 6): min(4 h, the invitation's expiry).
const SessionLifetime = 4 * time.Hour

// ExpiresAt is when an invitation issued now from def for task t stops working: the
// definition's lifetime (or DefaultLifetime), capped at the task's dueAt. A due date in the
// past yields an expiry at or before now, which issuance refuses.
func ExpiresAt(def models.InvitationDefinition, t models.Task, now time.Time) (time.Time, error) {
	life := DefaultLifetime
	if def.Lifetime != "" {
		d, err := models.ParseLifetime(def.Lifetime)
		if err != nil {
			return time.Time{}, models.InvalidField("lifetime", err.Error())
		}
		life = d
	}
	at := now.Add(life)
	if t.DueAt != nil && t.DueAt.Before(at) {
		at = *t.DueAt
	}
	return at.UTC(), nil
}

// SessionExpiresAt is a new guest session's expiry.
func SessionExpiresAt(inv models.Invitation, now time.Time) time.Time {
	at := now.Add(SessionLifetime)
	if inv.ExpiresAt.Before(at) {
		at = inv.ExpiresAt
	}
	return at.UTC()
}
