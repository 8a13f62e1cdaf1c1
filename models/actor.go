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
