package directory

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"usertasks/models"
)

// Static is a participant directory held in memory, typically loaded from a JSON file:
//
//	{"tenants": {"acme": {"provider": "default",
//	  "users":  [{"id": "ann", "displayName": "Ann", "email": "ann@example.com", "groups": ["finance"]}],
//	  "groups": [{"id": "finance", "displayName": "Finance"}]}}}
//
// A group exists when it is listed under groups or named by a user; its members are the users
// that name it. Every participant of a tenant has the tenant's provider (default "default").
// The value is read-only and safe for concurrent use.
type Static struct {
	Tenants map[string]StaticTenant `json:"tenants"`
}

// StaticTenant is one tenant's users and groups.
type StaticTenant struct {
	Provider string        `json:"provider,omitempty"`
	Users    []StaticUser  `json:"users"`
	Groups   []StaticGroup `json:"groups"`
}

// StaticUser is a user, the address notifications are mailed to (optional), and the ids of
// the groups it belongs to.
type StaticUser struct {
	ID          string   `json:"id"`
	DisplayName string   `json:"displayName,omitempty"`
	Email       string   `json:"email,omitempty"`
	Groups      []string `json:"groups,omitempty"`
}

// StaticGroup is a group.
type StaticGroup struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"`
}

// LoadStatic reads and checks a directory file.
func LoadStatic(path string) (Static, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Static{}, fmt.Errorf("directory file: %w", err)
	}
	d, err := ParseStatic(raw)
	if err != nil {
		return Static{}, fmt.Errorf("directory file %s: %w", path, err)
	}
	return d, nil
}

// ParseStatic decodes a directory document strictly (unknown members are refused, so
// a typo does not silently empty a group) and checks it.
func ParseStatic(raw []byte) (Static, error) {
	var d Static
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return Static{}, fmt.Errorf("decode: %w", err)
	}
	if dec.More() {
		return Static{}, fmt.Errorf("decode: trailing data after the document")
	}
	return d, d.Check()
}

// Check reports the first entry that could not be a participant: empty or over-long ids and
// names, and ids listed twice.
func (d Static) Check() error {
	for tenant, t := range d.Tenants {
		if tenant == "" || len(tenant) > models.MaxTenantLength {
			return fmt.Errorf("tenant %q: the name must be 1 to %d bytes", tenant, models.MaxTenantLength)
		}
		if len(t.Provider) > models.MaxProviderLength || t.Provider == models.GuestProvider {
			return fmt.Errorf("tenant %q: provider %q is not allowed", tenant, t.Provider)
		}
		seen := map[string]bool{}
		for _, u := range t.Users {
			if err := checkEntry(u.ID, u.DisplayName); err != nil {
				return fmt.Errorf("tenant %q: user %q: %w", tenant, u.ID, err)
			}
			if err := checkEmail(u.Email); err != nil {
				return fmt.Errorf("tenant %q: user %q: %w", tenant, u.ID, err)
			}
			if seen["u"+u.ID] {
				return fmt.Errorf("tenant %q: user %q is listed twice", tenant, u.ID)
			}
			seen["u"+u.ID] = true
			for _, g := range u.Groups {
				if err := checkEntry(g, ""); err != nil {
					return fmt.Errorf("tenant %q: user %q: group %q: %w", tenant, u.ID, g, err)
				}
			}
		}
		for _, g := range t.Groups {
			if err := checkEntry(g.ID, g.DisplayName); err != nil {
				return fmt.Errorf("tenant %q: group %q: %w", tenant, g.ID, err)
			}
			if seen["g"+g.ID] {
				return fmt.Errorf("tenant %q: group %q is listed twice", tenant, g.ID)
			}
			seen["g"+g.ID] = true
		}
	}
	return nil
}

func checkEntry(id, displayName string) error {
	switch {
	case id == "":
		return fmt.Errorf("the id is empty")
	case len(id) > models.MaxParticipantIDLength:
		return fmt.Errorf("the id is longer than %d bytes", models.MaxParticipantIDLength)
	case len(displayName) > models.MaxDisplayNameLength:
		return fmt.Errorf("the display name is longer than %d bytes", models.MaxDisplayNameLength)
	}
	return nil
}

// provider is the tenant's participant provider.
func (t StaticTenant) provider() string {
	if t.Provider == "" {
		return models.DefaultProvider
	}
	return t.Provider
}

// hasGroup reports whether the tenant knows group id.
func (t StaticTenant) hasGroup(id string) bool {
	for _, g := range t.Groups {
		if g.ID == id {
			return true
		}
	}
	for _, u := range t.Users {
		if slices.Contains(u.Groups, id) {
			return true
		}
	}
	return false
}

// Expand implements Directory.
func (d Static) Expand(_ context.Context, tenant string, group models.ParticipantRef) ([]models.ParticipantRef, error) {
	t, ok := d.Tenants[tenant]
	if !ok || group.Provider != t.provider() || !t.hasGroup(group.ID) {
		return nil, fmt.Errorf("directory: group %q: %w", group.ID, models.ErrNotFound)
	}
	members := []models.ParticipantRef{}
	for _, u := range t.Users {
		if slices.Contains(u.Groups, group.ID) {
			members = append(members, models.ParticipantRef{Tenant: tenant, Provider: t.provider(),
				Type: models.UserParticipant, ID: u.ID, DisplayName: u.DisplayName})
		}
	}
	return members, nil
}

// Contact implements Contacts: the user's email, "" when the document gives none.
func (d Static) Contact(_ context.Context, tenant string, user models.ParticipantRef) (string, error) {
	t, ok := d.Tenants[tenant]
	if ok && user.Provider == t.provider() && user.Type == models.UserParticipant {
		for _, u := range t.Users {
			if u.ID == user.ID {
				return u.Email, nil
			}
		}
	}
	return "", fmt.Errorf("directory: user %q: %w", user.ID, models.ErrNotFound)
}

// Search implements Directory.
func (d Static) Search(_ context.Context, tenant, query string, typ models.ParticipantType, limit int) ([]models.ParticipantRef, error) {
	t, ok := d.Tenants[tenant]
	if !ok {
		return []models.ParticipantRef{}, nil
	}
	var all []models.ParticipantRef
	for _, u := range t.Users {
		all = append(all, models.ParticipantRef{Tenant: tenant, Provider: t.provider(), Type: models.UserParticipant, ID: u.ID, DisplayName: u.DisplayName})
	}
	groups := map[string]bool{}
	addGroup := func(id, name string) {
		if !groups[id] {
			groups[id] = true
			all = append(all, models.ParticipantRef{Tenant: tenant, Provider: t.provider(), Type: models.GroupParticipant, ID: id, DisplayName: name})
		}
	}
	for _, g := range t.Groups {
		addGroup(g.ID, g.DisplayName)
	}
	for _, u := range t.Users {
		for _, g := range u.Groups {
			addGroup(g, "")
		}
	}
	out := []models.ParticipantRef{}
	for _, p := range all {
		if searchMatches(p, query, typ) {
			out = append(out, p)
		}
	}
	sortParticipants(out)
	if n := searchLimit(limit); len(out) > n {
		out = out[:n]
	}
	return out, nil
}
