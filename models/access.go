package models

import (
	"strings"
	"time"
)

// The access explanation of SPEC 5.1 (`GET /user-tasks/{id}/access`): a manager asks why a
// participant can or cannot view, claim and complete a task, and gets the steps the policy took.
// The answers come from the decisions in policy.go themselves, run with a recorder, so the
// explanation cannot drift from what the service enforces.

// AccessDecision is one operation's answer and the steps that led to it, in order.
type AccessDecision struct {
	Allowed bool
	Because []Reason
}

// Access explains view, claim and complete for one participant. Premises say what is known of
// the participant and what is assumed; they hold for all three decisions.
type Access struct {
	Participant ParticipantRef
	Premises    []Reason
	View        AccessDecision
	Claim       AccessDecision
	Complete    AccessDecision
}

// AccessSubject is what is known of the participant an explanation is about.
type AccessSubject struct {
	// Actor is the participant as the policy sees a caller: subject, the groups known, grants.
	Actor     Actor
	PastActor bool
	// PermissionsAssumed says Actor.Permissions are not the person's own (those are not known
	// here) but the ones each operation needs; every permission step then says so.
	PermissionsAssumed bool
	Premises           []Reason
}

// AccessPermissions are the grants an explanation assumes for another person: exactly what
// view, claim and complete need.
var AccessPermissions = []string{PermView, PermClaim, PermComplete}

// ExplainAccess runs the view, claim and complete decisions for s with a recorder. Allowed is
// exactly CanReadSummary and whether AllowedActions offers claim and complete to s.Actor.
func ExplainAccess(t Task, s AccessSubject) Access {
	a := s.Actor
	r := Relate(t, a, s.PastActor)
	run := func(decide func(Task, Actor, Relation, *because) bool) AccessDecision {
		b := &because{assumed: s.PermissionsAssumed}
		ok := decide(t, a, r, b)
		return AccessDecision{Allowed: ok, Because: b.reasons}
	}
	return Access{
		Participant: a.Subject,
		Premises:    s.Premises,
		View:        run(canView),
		Claim:       run(canClaim),
		Complete:    run(canComplete),
	}
}

// ParseAccessParticipant reads the `participant=<type>:<id>` parameter (and an optional
// provider, DefaultProvider when empty) into a reference of tenant. The type is user or group;
// the id is everything after the first colon, compared exactly. Refusals are 422
// validation-failed naming the parameter.
func ParseAccessParticipant(tenant, raw, provider string) (ParticipantRef, error) {
	return parseParticipantParam(tenant, raw, provider, "participant", "provider")
}

// parseParticipantParam reads a `<type>:<id>` query parameter and its provider parameter
// (DefaultProvider when empty); refusals name the parameters field and providerField.
func parseParticipantParam(tenant, raw, provider, field, providerField string) (ParticipantRef, error) {
	var pr problems
	typ, id, ok := strings.Cut(raw, ":")
	switch {
	case !ok:
		pr.fail(field, "must be <type>:<id>, for example user:ann")
	case typ != string(UserParticipant) && typ != string(GroupParticipant):
		pr.fail(field, "the type must be user or group")
	default:
		pr.text(field, id, MaxParticipantIDLength, true, Identifier)
	}
	if provider == "" {
		provider = DefaultProvider
	}
	pr.text(providerField, provider, MaxProviderLength, true, Identifier)
	if provider == GuestProvider {
		pr.fail(providerField, "guest participants come from invitations only")
	}
	if err := pr.err(); err != nil {
		return ParticipantRef{}, err
	}
	return ParticipantRef{Tenant: tenant, Provider: provider, Type: ParticipantType(typ), ID: id}, nil
}

// AccessExplained records that a manager asked for an access explanation (`access-explained`).
// Like FieldRevealed it changes no state. Managers only (everyone else gets ErrNotFound); the
// metadata names the participant, nothing else.
func AccessExplained(t Task, a Actor, p ParticipantRef, now time.Time) (Event, error) {
	if err := checkStored(t); err != nil {
		return Event{}, err
	}
	if !manages(t, a) {
		return Event{}, ErrNotFound
	}
	return newEvent(t, a, EventAccessExplained, map[string]any{"participant": toWire(wireIdentity(p))}, now)
}
