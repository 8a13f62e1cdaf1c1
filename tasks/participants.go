package tasks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"usertasks/directory"
	"usertasks/models"
)

// maxParticipantSearch bounds the search text of the participants endpoint (bytes).
const maxParticipantSearch = 200

// maxNameLookups and nameLookupTime bound what one page asks the directory to name: a slow
// directory costs a page its names, never its answer.
const (
	maxNameLookups = 50
	nameLookupTime = 2 * time.Second
)

// ParticipantQuery is a participants search: Search is a case-insensitive substring of the id
// or the name ("" lists everyone), Type "" means users and groups.
type ParticipantQuery struct {
	Search string
	Type   models.ParticipantType
	Cursor string
	Limit  int // default models.DefaultPageSize, clamped to models.MaxPageSize
}

// ParticipantPage is one page of a participants search.
type ParticipantPage struct {
	Items      []models.ParticipantRef
	NextCursor string
	// Groups are the groups of the listed users, by models.ParticipantRef.Key, where the
	// directory can tell.
	Groups map[string][]models.ParticipantRef
}

// mayFindParticipants is who may search the directory: managers, callers who may assign, and
// callers granted user-tasks/participants:view (SPEC 4, 5.1).
func mayFindParticipants(a models.Actor) bool {
	if a.Guest != nil {
		return false
	}
	return (a.Manager && models.ActorCan(a, models.PermSupervise)) ||
		models.ActorCan(a, models.PermAssign) || models.ActorCan(a, models.PermParticipantsView)
}

// Validate refuses a search that could not come from a person: an unknown type, control or
// bidirectional formatting characters, or more than maxParticipantSearch bytes.
func (q ParticipantQuery) Validate() error {
	var fields []models.FieldError
	if q.Type != "" && q.Type != models.UserParticipant && q.Type != models.GroupParticipant {
		fields = append(fields, models.FieldError{Field: "type", Message: "must be one of user, group"})
	}
	switch {
	case len(q.Search) > maxParticipantSearch:
		fields = append(fields, models.FieldError{Field: "search", Message: "is too long"})
	case models.TextProblem(q.Search, models.Label) != "":
		fields = append(fields, models.FieldError{Field: "search", Message: models.TextProblem(q.Search, models.Label)})
	}
	if len(fields) > 0 {
		return models.Invalid(models.CodeValidationFailed, fields...)
	}
	return nil
}

// HasDirectory reports whether a participant directory is configured: the pages offer the
// people picker only then.
func (s *Service) HasDirectory() bool { return s.dir != nil }

// Participants searches the caller's tenant's directory. The directory answers at most
// models.MaxPageSize participants per search, so paging reaches that many; a person narrows
// the search beyond it.
func (s *Service) Participants(ctx context.Context, a models.Actor, q ParticipantQuery) (ParticipantPage, error) {
	if !mayFindParticipants(a) {
		return ParticipantPage{}, models.ErrForbidden
	}
	if err := q.Validate(); err != nil {
		return ParticipantPage{}, err
	}
	offset, err := decodeCursor(participantCursor, q.Cursor, func(n int) bool { return n >= 1 && n < models.MaxPageSize })
	if err != nil {
		return ParticipantPage{}, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = models.DefaultPageSize
	}
	limit = min(limit, models.MaxPageSize)
	page := ParticipantPage{Items: []models.ParticipantRef{}}
	if s.dir == nil {
		return page, nil
	}
	found, err := s.dir.Search(ctx, a.Tenant, strings.TrimSpace(q.Search), q.Type, min(offset+limit+1, models.MaxPageSize))
	if err != nil {
		return ParticipantPage{}, fmt.Errorf("participants: %w", err)
	}
	if offset < len(found) {
		page.Items = found[offset:min(offset+limit, len(found))]
	}
	if len(found) > offset+limit {
		page.NextCursor = encodeCursor(participantCursor, offset+limit)
	}
	for _, p := range page.Items {
		if gs := directory.GroupsOf(s.dir, a.Tenant, p); len(gs) > 0 {
			if page.Groups == nil {
				page.Groups = map[string][]models.ParticipantRef{}
			}
			page.Groups[p.Key()] = gs
		}
	}
	return page, nil
}

// knownAssignee checks an assignee against the directory before any write (SPEC 5.1, issue 10):
// a participant the directory does not know is refused with unknown-assignee, and a known one
// gets the directory's name. It runs after the permission check and only for a manager of the
// task, so every other caller still gets the same 404; a malformed reference is left to the
// transition's validation.
func (s *Service) knownAssignee(ctx context.Context, a models.Actor, id string, assignee models.ParticipantRef) (models.ParticipantRef, error) {
	want := assignee
	if want.Type == "" {
		want.Type = models.UserParticipant // the wire may leave the type out
	}
	if s.dir == nil || !want.Valid() || want.Type != models.UserParticipant || want.IsGuest() {
		return assignee, nil
	}
	if err := possibleID(id); err != nil {
		return assignee, err
	}
	current, err := s.store.Get(ctx, a.Tenant, id)
	if err != nil {
		return assignee, err
	}
	if !models.Relate(current, a, false).Manager {
		return assignee, nil // the transition answers 404 (or replays the caller's own operation)
	}
	found, err := directory.Find(ctx, s.dir, a.Tenant, want)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return assignee, models.Invalid(models.CodeUnknownAssignee, models.FieldError{Field: "assignee", Message: "is not in the directory"})
	case err != nil:
		// The directory's own error may name hosts or people: keep it out of the answer.
		return assignee, fmt.Errorf("%w: check the assignee: %v", models.ErrDirectoryUnavailable, err)
	}
	if found.DisplayName != "" {
		assignee.DisplayName = found.DisplayName
	}
	return assignee, nil
}

// ParticipantNames names the participants of the caller's tenant that carry no name of their
// own, from the directory, keyed by models.ParticipantRef.Key. Participants it cannot name
// (unknown, a directory that fails or is slow, more than maxNameLookups) are left out: pages
// show their id.
func (s *Service) ParticipantNames(ctx context.Context, a models.Actor, refs []models.ParticipantRef) map[string]string {
	names := map[string]string{}
	if s.dir == nil || a.Guest != nil {
		return names
	}
	ctx, cancel := context.WithTimeout(ctx, nameLookupTime)
	defer cancel()
	asked := map[string]bool{}
	for _, r := range refs {
		k := r.Key()
		if r.DisplayName != "" || r.Tenant != a.Tenant || asked[k] || r.IsGuest() {
			continue
		}
		if len(asked) == maxNameLookups {
			break
		}
		asked[k] = true
		found, err := directory.Find(ctx, s.dir, a.Tenant, r)
		switch {
		case errors.Is(err, models.ErrNotFound):
		case err != nil:
			return names // a failing directory is not asked again for this page
		case found.DisplayName != "":
			names[k] = found.DisplayName
		}
	}
	return names
}
