package tasks

import (
	"context"
	"errors"

	"usertasks/models"
)

// OnBehalfOf says, for a page of the available list that List answered for filter f, which
// rows the caller sees only because they stand in for an absent user (SPEC 10.5), and for
// whom: out[i] is items[i]'s absent user, nil for a row that is the caller's own or that
// cannot be told. The inbox shows it ("on behalf of Ann").
//
// List items carry no candidate rows, so it asks the store: the same page of the caller's own
// available list (a row it holds is the caller's own, whatever else lists it); and, only when
// the caller stands in for more than one user, each row that list lacks, whose candidates say
// whose it is. A page without stand-ins (everyone who is nobody's substitute now) costs
// nothing.
func (s *Service) OnBehalfOf(ctx context.Context, a models.Actor, f models.TaskFilter, page Page) ([]*models.ParticipantRef, error) {
	out := make([]*models.ParticipantRef, len(page.Items))
	if f.Scope != models.ScopeAvailable || len(page.StandsInFor) == 0 || len(page.Items) == 0 {
		return out, nil
	}
	if err := requirePermission(a, models.PermView); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	own := a
	own.StandsInFor = nil
	f.Tenant, f.Actor, f.IncludeTotal = a.Tenant, own, false
	// The cursor binds the filters, not the actor: the own list reads from the same position.
	ownPage, err := s.store.Query(ctx, f)
	if err != nil {
		return nil, err
	}
	mine := make(map[string]bool, len(ownPage.Items))
	for _, t := range ownPage.Items {
		mine[t.ID] = true
	}
	sub := own
	sub.StandsInFor = page.StandsInFor
	for i, v := range page.Items[:decidedRows(page.Items, ownPage)] {
		if mine[v.Task.ID] {
			continue
		}
		if len(page.StandsInFor) == 1 {
			absent := page.StandsInFor[0]
			out[i] = &absent
			continue
		}
		t, err := s.store.Get(ctx, a.Tenant, v.Task.ID)
		switch {
		case errors.Is(err, models.ErrNotFound):
			continue // gone since the list was read
		case err != nil:
			return nil, err
		}
		if absent, ok := models.SubstituteCandidacy(t, sub); ok {
			out[i] = &absent
		}
	}
	return out, nil
}

// decidedRows is how many of items, from the first, the caller's own page of the same list
// decides. Own rows are a part of the list in the list's order, so a full own page, or one
// that ends the list, reaches past the last of items. A windowed search may end the own page
// early (models.TaskPage.SearchLimited): then only the rows up to its last are decided.
func decidedRows(items []TaskView, own models.TaskPage) int {
	n := len(own.Items)
	if own.NextCursor == "" || n >= len(items) {
		return len(items)
	}
	if n == 0 {
		return 0
	}
	for i, v := range items {
		if v.Task.ID == own.Items[n-1].ID {
			return i + 1
		}
	}
	return len(items) // the own page's last row lies beyond the page
}
