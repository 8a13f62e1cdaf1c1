package models

import (
	"slices"
	"time"
)

// WebSession is a browser sign-in kept on the server (SPEC 5.4). The browser holds only a
// random id; the row is keyed by the id's SHA-256 hash, so a copy of the table cannot be
// replayed as cookies. Logout, "sign out everywhere", the absolute expiry and the idle timeout
// end a session at once: the next request finds no row.
type WebSession struct {
	IDHash string // hex SHA-256 of the id in the cookie
	WebIdentity
	Via string // how the person signed in: WebViaDev or WebViaOIDC
	// RefreshToken is the OIDC refresh token (sealed at rest); empty when none was issued.
	RefreshToken string
	// IDToken is the OIDC ID token of the sign-in or of the latest refresh that carried one
	// (sealed at rest): the id_token_hint of the logout at the provider. Empty for dev sessions.
	IDToken string
	// TimeZone is the IANA zone the browser reported; empty until it does.
	TimeZone string
	// IdleTimeout ends the session after this long without a request.
	IdleTimeout time.Duration

	CreatedAt     time.Time
	LastSeenAt    time.Time // updated at most once a minute
	RefreshedAt   time.Time // when the identity was last (re-)read
	ExpiresAt     time.Time // absolute: sign-in plus the lifetime
	IdleExpiresAt time.Time // last seen plus the idle timeout, never past ExpiresAt
	// Now is the database clock when the session was read; decisions about the session (is a
	// refresh due?) use it rather than the host's clock.
	Now time.Time
}

// WebTokens are what an OIDC sign-in or refresh got from the provider besides the identity:
// the refresh token and the raw ID token. An empty field keeps the session's stored value.
type WebTokens struct {
	Refresh string
	ID      string
}

// How a web session was signed in.
const (
	WebViaDev  = "dev"
	WebViaOIDC = "oidc"
)

// Limits of web sessions.
const (
	// MaxTimeZoneLength bounds a stored IANA zone name (the longest today has 32 characters).
	MaxTimeZoneLength = 64
	// MaxWebIdentityBytes bounds the groups and permissions of one session, each as JSON.
	MaxWebIdentityBytes = 64 << 10
)

// WebIdentity is who a web session speaks for, as the sign-in (or the latest refresh) mapped
// it. Group ids share the subject's provider.
type WebIdentity struct {
	Tenant      string
	Provider    string
	Subject     string
	DisplayName string
	Groups      []string
	Permissions []string
	Manager     bool
}

// IdentityOf is the web identity of an actor the sign-in mapped.
func IdentityOf(a Actor) WebIdentity {
	id := WebIdentity{
		Tenant: a.Tenant, Provider: a.Subject.Provider, Subject: a.Subject.ID, DisplayName: a.DisplayName,
		Permissions: slices.Clone(a.Permissions), Manager: a.Manager,
	}
	if id.DisplayName == "" {
		id.DisplayName = a.Subject.DisplayName
	}
	for _, g := range a.Groups {
		id.Groups = append(id.Groups, g.ID)
	}
	return id
}

// Actor rebuilds the actor the identity stands for.
func (id WebIdentity) Actor() Actor {
	a := Actor{
		Tenant:      id.Tenant,
		Subject:     ParticipantRef{Tenant: id.Tenant, Provider: id.Provider, Type: UserParticipant, ID: id.Subject, DisplayName: id.DisplayName},
		DisplayName: id.DisplayName,
		Permissions: slices.Clone(id.Permissions),
		Manager:     id.Manager,
	}
	for _, g := range id.Groups {
		a.Groups = append(a.Groups, ParticipantRef{Tenant: id.Tenant, Provider: id.Provider, Type: GroupParticipant, ID: g})
	}
	return a
}

// SamePerson reports whether two identities name the same person: tenant, provider and subject.
func (id WebIdentity) SamePerson(o WebIdentity) bool {
	return id.Tenant == o.Tenant && id.Provider == o.Provider && id.Subject == o.Subject
}
