// Package directory provides participant directories: they expand groups into members for
// snapshot membership and search participants, from a static document or an HTTP service.
package directory

import (
	"context"
	"sort"
	"strings"

	"usertasks/models"
)

// Directory is a participant directory: it expands groups into their members for snapshot
// membership (SPEC 3.6) and searches participants for the participants endpoint. Every answer is
// scoped to one tenant; the references it returns may leave the tenant empty (it is filled in).
type Directory interface {
	// Expand returns the user members of group. An unknown group is an error wrapping
	// models.ErrNotFound; an empty group is no members and no error.
	Expand(ctx context.Context, tenant string, group models.ParticipantRef) ([]models.ParticipantRef, error)
	// Search returns up to limit participants whose id or display name contains query
	// (case-insensitively); typ "" means users and groups.
	Search(ctx context.Context, tenant, query string, typ models.ParticipantType, limit int) ([]models.ParticipantRef, error)
}

// Search limits: the participants endpoint pages like the task list.
const (
	defaultSearchLimit = models.DefaultPageSize
	maxSearchLimit     = models.MaxPageSize
)

// searchLimit clamps a requested search limit.
func searchLimit(limit int) int {
	switch {
	case limit <= 0:
		return defaultSearchLimit
	case limit > maxSearchLimit:
		return maxSearchLimit
	}
	return limit
}

// searchMatches reports whether a participant matches a search: the type, when given, and the
// query as a case-insensitive substring of the id or the display name (an empty query matches
// all).
func searchMatches(p models.ParticipantRef, query string, typ models.ParticipantType) bool {
	if typ != "" && p.Type != typ {
		return false
	}
	q := strings.ToLower(query)
	return strings.Contains(strings.ToLower(p.ID), q) || strings.Contains(strings.ToLower(p.DisplayName), q)
}

// sortParticipants orders search results by what a person reads (the display name, or the id
// without one), then by id, so answers are stable.
func sortParticipants(ps []models.ParticipantRef) {
	label := func(p models.ParticipantRef) string {
		if p.DisplayName != "" {
			return strings.ToLower(p.DisplayName)
		}
		return strings.ToLower(p.ID)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := label(ps[i]), label(ps[j])
		if a != b {
			return a < b
		}
		return ps[i].ID < ps[j].ID
	})
}
