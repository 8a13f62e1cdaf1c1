package directory

import (
	"context"
	"fmt"

	"usertasks/models"
)

// Searcher is the part of a Directory that finds participants; Find needs nothing more.
type Searcher interface {
	Search(ctx context.Context, tenant, query string, typ models.ParticipantType, limit int) ([]models.ParticipantRef, error)
}

// finder is a directory that can look one participant up exactly (Static can).
type finder interface {
	find(tenant string, p models.ParticipantRef) (models.ParticipantRef, bool)
}

// Find returns the directory's participant that is p — the same provider, type and id, exactly
// and case-sensitively — with its display name and the tenant filled in. A participant the
// directory does not know is an error wrapping models.ErrNotFound. A directory without an exact
// lookup is searched for the id and the answer filtered to exact matches, so an id shared as a
// substring by more than a page of participants may be missed there (the HTTP protocol has no
// lookup call).
func Find(ctx context.Context, d Searcher, tenant string, p models.ParticipantRef) (models.ParticipantRef, error) {
	if f, ok := d.(finder); ok {
		if got, ok := f.find(tenant, p); ok {
			return got, nil
		}
		return models.ParticipantRef{}, fmt.Errorf("directory: participant %q: %w", p.ID, models.ErrNotFound)
	}
	found, err := d.Search(ctx, tenant, p.ID, p.Type, maxSearchLimit)
	if err != nil {
		return models.ParticipantRef{}, err
	}
	for _, c := range found {
		if c.ID == p.ID && c.Type == p.Type && c.Provider == p.Provider {
			c.Tenant = tenant
			return c, nil
		}
	}
	return models.ParticipantRef{}, fmt.Errorf("directory: participant %q: %w", p.ID, models.ErrNotFound)
}

// find implements finder: the user or group of the tenant with p's provider, type and id.
func (d Static) find(tenant string, p models.ParticipantRef) (models.ParticipantRef, bool) {
	t, ok := d.Tenants[tenant]
	if !ok || p.Provider != t.provider() {
		return models.ParticipantRef{}, false
	}
	ref := models.ParticipantRef{Tenant: tenant, Provider: t.provider(), Type: p.Type, ID: p.ID}
	switch p.Type {
	case models.UserParticipant:
		for _, u := range t.Users {
			if u.ID == p.ID {
				ref.DisplayName = u.DisplayName
				return ref, true
			}
		}
	case models.GroupParticipant:
		for _, g := range t.Groups {
			if g.ID == p.ID {
				ref.DisplayName = g.DisplayName
				return ref, true
			}
		}
		return ref, t.hasGroup(p.ID)
	}
	return models.ParticipantRef{}, false
}

// grouper is a directory that can tell a user's groups (Static can).
type grouper interface {
	groupsOf(tenant string, user models.ParticipantRef) []models.ParticipantRef
}

// GroupsOf returns the groups a user of the directory belongs to, with their names; nil when
// the user has none or the directory cannot tell (the HTTP protocol's search carries none).
func GroupsOf(d Searcher, tenant string, user models.ParticipantRef) []models.ParticipantRef {
	if g, ok := d.(grouper); ok && user.Type == models.UserParticipant {
		return g.groupsOf(tenant, user)
	}
	return nil
}

// groupsOf implements grouper.
func (d Static) groupsOf(tenant string, user models.ParticipantRef) []models.ParticipantRef {
	t, ok := d.Tenants[tenant]
	if !ok || user.Provider != t.provider() {
		return nil
	}
	var out []models.ParticipantRef
	for _, u := range t.Users {
		if u.ID != user.ID {
			continue
		}
		for _, id := range u.Groups {
			g, _ := d.find(tenant, models.ParticipantRef{Provider: t.provider(), Type: models.GroupParticipant, ID: id})
			out = append(out, g)
		}
	}
	return out
}
