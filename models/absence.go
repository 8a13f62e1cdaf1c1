package models

import "time"

// Absence is a user's out-of-office (SPEC 10.5): from From (inclusive) until Until (exclusive),
// on the database clock, work for the user goes to Substitute. A user has at most one: a new one
// replaces it, so two never overlap. Times are kept to the second (every store holds that).
type Absence struct {
	Tenant     string
	User       ParticipantRef // the absent user
	From       time.Time
	Until      time.Time
	Substitute ParticipantRef
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// MaxStandsInFor bounds how many absent users one substitute stands in for at a time: the
// lists bind them as one IN list (SPEC 10.5).
const MaxStandsInFor = 100

// MaxAbsence is the longest absence: until at most 365 days after from.
const MaxAbsence = 365 * 24 * time.Hour

// ActiveAt reports whether the absence covers now: From ≤ now < Until.
func (a Absence) ActiveAt(now time.Time) bool { return !now.Before(a.From) && now.Before(a.Until) }

// NewAbsence checks and normalizes an absence of user in tenant (SPEC 10.5): from and until
// required, until after from and at most MaxAbsence later; the substitute a user of the tenant
// (provider "default" when empty, never a group or a guest) other than the absent user. The
// refusal is one 422 validation-failed listing every field. Whether the directory knows the
// substitute is the caller's check.
func NewAbsence(tenant string, user ParticipantRef, from, until time.Time, substitute ParticipantRef) (Absence, error) {
	var pr problems
	who, ok := pr.participant("user", user, tenant, UserParticipant, CodeValidationFailed)
	sub, subOK := pr.participant("substitute", substitute, tenant, UserParticipant, CodeValidationFailed)
	sub.DisplayName = substitute.DisplayName
	from, until = from.UTC().Truncate(time.Second), until.UTC().Truncate(time.Second)
	if from.IsZero() {
		pr.fail("from", "is required")
	}
	switch {
	case until.IsZero():
		pr.fail("until", "is required")
	case !from.IsZero() && !until.After(from):
		pr.fail("until", "must be after from")
	case !from.IsZero() && until.Sub(from) > MaxAbsence:
		pr.fail("until", "must be at most 365 days after from")
	}
	if ok && subOK && who.Same(sub) {
		pr.fail("substitute", "cannot be the absent user")
	}
	if err := pr.err(); err != nil {
		return Absence{}, err
	}
	who.DisplayName = ""
	return Absence{Tenant: tenant, User: who, From: from, Until: until, Substitute: sub}, nil
}
