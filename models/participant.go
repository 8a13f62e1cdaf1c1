package models

import "strings"

// ParticipantType distinguishes people from groups.
type ParticipantType string

const (
	UserParticipant  ParticipantType = "user"
	GroupParticipant ParticipantType = "group"
)

// DefaultProvider is used when a claim or a wire participant names none.
const DefaultProvider = "default"

// GuestProvider is the provider of guest participants created by invitation verification.
const GuestProvider = "guest"

// ParticipantRef is an opaque reference to a user or group. Equality is exact and
// case-sensitive on tenant, provider, type and id; the display name is a snapshot only.
type ParticipantRef struct {
	Tenant      string
	Provider    string
	Type        ParticipantType
	ID          string
	DisplayName string
}

// WireParticipant is a participant as the JSON API and the runtime protocol carry it: never its
// tenant.
type WireParticipant struct {
	Type        ParticipantType `json:"type"`
	Provider    string          `json:"provider"`
	ID          string          `json:"id"`
	DisplayName string          `json:"displayName,omitempty"`
}

// Wire is the participant on the wire; nil stays nil.
func (p *ParticipantRef) Wire() *WireParticipant {
	if p == nil {
		return nil
	}
	return &WireParticipant{Type: p.Type, Provider: p.Provider, ID: p.ID, DisplayName: p.DisplayName}
}

// Same reports whether two references name the same participant.
func (p ParticipantRef) Same(o ParticipantRef) bool {
	return p.Tenant == o.Tenant && p.Provider == o.Provider && p.Type == o.Type && p.ID == o.ID
}

// Label is how people read the participant: the display name, else the id.
func (p ParticipantRef) Label() string {
	if p.DisplayName != "" {
		return p.DisplayName
	}
	return p.ID
}

// Valid reports whether every identifying field is present and within its limit.
func (p ParticipantRef) Valid() bool {
	if p.Tenant == "" || p.Provider == "" || p.ID == "" {
		return false
	}
	if p.Type != UserParticipant && p.Type != GroupParticipant {
		return false
	}
	return len(p.Provider) <= MaxProviderLength && len(p.ID) <= MaxParticipantIDLength &&
		len(p.DisplayName) <= MaxDisplayNameLength && len(p.Tenant) <= MaxTenantLength
}

// Key renders the identifying fields, for maps and hashes.
func (p ParticipantRef) Key() string {
	return strings.Join([]string{p.Tenant, p.Provider, string(p.Type), p.ID}, "\x00")
}

// GuestRef is the participant a verified invitation assigns the task to.
func GuestRef(tenant, invitationID string) ParticipantRef {
	return ParticipantRef{Tenant: tenant, Provider: GuestProvider, Type: UserParticipant, ID: "invitation:" + invitationID, DisplayName: "Guest"}
}

// IsGuest reports whether the reference is a guest participant.
func (p ParticipantRef) IsGuest() bool {
	return p.Provider == GuestProvider && strings.HasPrefix(p.ID, "invitation:")
}
