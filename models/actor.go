package models

// Actor is the resolved caller of a command: a person (from a token or session), a guest
// (from a guest session), or the system (runtime protocol, sweeps, reconciliation).
type Actor struct {
	Tenant      string
	Subject     ParticipantRef
	Groups      []ParticipantRef
	DisplayName string
	// Email is the credential's email claim ("" when none, or not plausibly an address): the
	// notification address of SPEC 10.3 when the directory has none. A browser session does
	// not keep it; the sign-in records it with the person (store.People).
	Email       string
	Permissions []string
	Manager     bool
	Guest       *GuestGrant
	System      bool
	// StandsInFor are the users whose absence, active on the database clock when the request
	// read it (store.Absences.SubstitutedBy), names this actor as substitute (SPEC 10.5): their
	// direct-user candidacies count as the actor's (candidacy). One hop: nobody stands in for
	// someone through a third person.
	StandsInFor []ParticipantRef
}

// StandsIn reports whether a stands in for p, an absent user (Actor.StandsInFor).
func (a Actor) StandsIn(p ParticipantRef) bool {
	for _, u := range a.StandsInFor {
		if u.Type == UserParticipant && u.Same(p) {
			return true
		}
	}
	return false
}

// GuestGrant is what a guest session allows: one task, read and complete with some actions.
type GuestGrant struct {
	TaskID         string
	InvitationID   string
	AllowedActions []string
}

// SystemActor acts for the runtime protocol and background workers.
func SystemActor(tenant string) Actor { return Actor{Tenant: tenant, System: true} }

// Ref is the actor's participant reference for events and operations; nil for the system.
func (a Actor) Ref() *ParticipantRef {
	if a.System {
		return nil
	}
	r := a.Subject
	if r.DisplayName == "" {
		r.DisplayName = a.DisplayName
	}
	return &r
}

// InGroup reports whether the actor currently holds group g (live membership).
func (a Actor) InGroup(g ParticipantRef) bool {
	for _, mine := range a.Groups {
		if mine.Same(g) {
			return true
		}
	}
	return false
}
