package tasks

import (
	"context"
	"encoding/json"

	"usertasks/forms"
	"usertasks/models"
)

// Page is one page of a list.
type Page struct {
	Items      []TaskView
	NextCursor string
	Total      *int
	// TotalCapped: the list holds more than Total, which is then the cap (models.TotalCap).
	TotalCapped bool
	// SearchLimited: a 1–2 character search ended the page early at the end of its window
	// (models.TaskPage.SearchLimited); NextCursor searches on.
	SearchLimited bool
	// StandsInFor are the absent users whose direct candidacies the available list also held
	// (SPEC 10.5); OnBehalfOf tells which rows they are (substitute_rows.go).
	StandsInFor []models.ParticipantRef
}

// List handles the list query of one scope. Authorization is part of the store's query, so
// rows and totals never include what the caller may not see.
func (s *Service) List(ctx context.Context, a models.Actor, f models.TaskFilter) (Page, error) {
	if err := requirePermission(a, models.PermView); err != nil {
		return Page{}, err
	}
	if f.Scope == "" {
		f.Scope = models.ScopeAssigned
	}
	if !f.Scope.Valid() {
		return Page{}, models.InvalidField("scope", "unknown scope")
	}
	if (f.Scope.ManagerOnly() || f.FiltersHealth()) && !a.Manager {
		return Page{}, models.ErrForbidden // health is for managers' eyes only (SPEC 5.1)
	}
	if err := f.Validate(); err != nil {
		return Page{}, err
	}
	if f.Scope == models.ScopeAvailable {
		// A substitute's available list also holds the absent users' direct candidacies.
		var err error
		if a, err = s.standingIn(ctx, a); err != nil {
			return Page{}, err
		}
	}
	f.Tenant, f.Actor = a.Tenant, a
	if f.StaleAfter <= 0 {
		f.StaleAfter = s.stale
	}
	if f.UnassignedAfter <= 0 {
		f.UnassignedAfter = s.unassigned
	}
	rule := models.AttentionRule{StaleAfter: f.StaleAfter, UnassignedAfter: f.UnassignedAfter}
	page, err := s.store.Query(ctx, f)
	if err != nil {
		return Page{}, err
	}
	out := Page{NextCursor: page.NextCursor, Total: page.Total, TotalCapped: page.TotalCapped, SearchLimited: page.SearchLimited, Items: make([]TaskView, 0, len(page.Items)),
		StandsInFor: a.StandsInFor}
	for _, t := range page.Items {
		v := viewOf(t, a, f.Scope == models.ScopeHistory)
		if f.Scope == models.ScopeAvailable && !v.Relation.Candidate {
			// List items carry no candidate rows; the available scope's query already proved
			// the caller an eligible, non-excluded candidate.
			v.Relation.Candidate = true
			v.AllowedActions = models.AllowedActions(t, a, v.Relation)
			v.Disclosure = models.Disclose(t, a, v.Relation)
		}
		if f.Scope == models.ScopeNeedsAttention {
			v.Attention = rule.Reasons(t, page.Now)
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

// readable loads a task the caller may read, or reports it not found: a task that is missing,
// of another tenant, or invisible to the caller is answered the same way.
// It returns the stored task (protected content included, for the caller to disclose with care)
// and the caller's view of it.
func (s *Service) readable(ctx context.Context, a models.Actor, id string) (models.Task, TaskView, error) {
	if err := possibleID(id); err != nil {
		return models.Task{}, TaskView{}, err
	}
	t, err := s.store.Get(ctx, a.Tenant, id)
	if err != nil {
		return models.Task{}, TaskView{}, err
	}
	v, ok, err := visibleView(ctx, t, a, func(ctx context.Context) (bool, error) {
		return s.store.HasActed(ctx, a.Tenant, id, a.Subject)
	})
	if err != nil {
		return models.Task{}, TaskView{}, err
	}
	if !ok {
		// A substitute may read what the absent candidate may (SPEC 10.5); asked only when the
		// caller's own relationship does not show the task.
		return s.readableStandingIn(ctx, a, t)
	}
	return t, v, nil
}

// FieldView is one form field as the caller sees it; masked values are nil.
type FieldView struct {
	forms.Field
	CanReveal bool
	Value     any
}

// Detail is a task with the protected parts the caller may see.
type Detail struct {
	TaskView
	Form *FormView // nil without a form or without protected access
	// Deadlines are the task's deadlines by index (SPEC 10.4): when each is due and whether it
	// fired, and their actions (the page says them in words, counting participants).
	Deadlines []models.Deadline
}

// FormView is the pinned form with its fields.
type FormView struct {
	Provider, Key, Version string
	Schema                 json.RawMessage
	Fields                 []FieldView
}

// Detail handles the task detail.
func (s *Service) Detail(ctx context.Context, a models.Actor, id string) (Detail, error) {
	if a.Guest == nil {
		if err := requirePermission(a, models.PermView); err != nil {
			return Detail{}, err
		}
	}
	t, v, err := s.readable(ctx, a, id)
	if err != nil {
		return Detail{}, err
	}
	d := detailOf(t, v, pinnedForm)
	if d.Deadlines, err = s.store.TaskDeadlines(ctx, t.Tenant, t.ID); err != nil {
		return Detail{}, err
	}
	return d, nil
}

// detailOf is the detail of t for a caller with view v. form parses t's pinned form, asked only
// when the caller may read protected content; a form it cannot parse shows as none.
func detailOf(t models.Task, v TaskView, form func(models.Task) (*forms.Form, error)) Detail {
	d := Detail{TaskView: v}
	if v.Disclosure.CanViewProtected {
		f, _ := form(t)
		d.Task.Protected, d.Form = protectedView(t, f)
	}
	return d
}

// GuestNames names the task's guests by their invitations' recipients, as the manager entered
// them, keyed by models.ParticipantRef.Key, for a caller who may read the task's protected
// content: a recipient is protected (sealed at rest), and History is theirs only. Anyone else
// gets none, and pages call a guest "Guest".
func (s *Service) GuestNames(ctx context.Context, a models.Actor, id string) (map[string]string, error) {
	if a.Guest != nil {
		return nil, nil
	}
	if err := requirePermission(a, models.PermView); err != nil {
		return nil, err
	}
	_, v, err := s.readable(ctx, a, id)
	if err != nil || !v.Disclosure.CanViewProtected {
		return nil, err
	}
	invs, err := s.store.Invitations(ctx, a.Tenant, id)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(invs))
	for _, inv := range invs {
		if inv.Recipient != "" {
			names[models.GuestRef(inv.Tenant, inv.ID).Key()] = inv.Recipient
		}
	}
	return names, nil
}

// EventPage is one page of a task's history.
type EventPage struct {
	Items      []models.Event
	NextCursor string
}

// Events handles the history of a task: whoever may read protected content sees it; others who
// can see the summary get an empty page.
func (s *Service) Events(ctx context.Context, a models.Actor, id, cursor string, limit int) (EventPage, error) {
	if err := requirePermission(a, models.PermView); err != nil {
		return EventPage{}, err
	}
	after, err := decodeCursor(eventCursor, cursor, func(seq int) bool { return seq >= 0 })
	if err != nil {
		return EventPage{}, err
	}
	_, v, err := s.readable(ctx, a, id)
	if err != nil {
		return EventPage{}, err
	}
	if !v.Disclosure.CanViewHistory {
		return EventPage{Items: []models.Event{}}, nil
	}
	if limit <= 0 {
		limit = models.DefaultPageSize
	}
	if limit > models.MaxPageSize {
		limit = models.MaxPageSize
	}
	evs, err := s.store.Events(ctx, a.Tenant, id, after, limit+1)
	if err != nil {
		return EventPage{}, err
	}
	page := EventPage{Items: evs}
	if len(evs) > limit {
		page.Items = evs[:limit]
		page.NextCursor = encodeCursor(eventCursor, evs[limit-1].Seq)
	}
	return page, nil
}

// Capabilities are the caller's flags for building a UI.
type Capabilities struct {
	Tenant       string
	Subject      models.ParticipantRef
	Manager      bool
	CanView      bool
	CanClaim     bool
	CanComplete  bool
	CanAssign    bool
	CanUpdate    bool
	CanCancel    bool
	CanInvite    bool
	CanSupervise bool
	Scopes       []models.Scope
}

// Capabilities handles the capability query; it needs no task.
func (s *Service) Capabilities(a models.Actor) Capabilities {
	c := Capabilities{
		Tenant: a.Tenant, Subject: a.Subject, Manager: a.Manager,
		CanView: models.ActorCan(a, models.PermView), CanClaim: models.ActorCan(a, models.PermClaim),
		CanComplete: models.ActorCan(a, models.PermComplete), CanAssign: a.Manager && models.ActorCan(a, models.PermAssign),
		CanUpdate: a.Manager && models.ActorCan(a, models.PermUpdate), CanCancel: a.Manager && models.ActorCan(a, models.PermCancel),
		CanInvite: a.Manager && models.ActorCan(a, models.PermInvite), CanSupervise: a.Manager,
		Scopes: []models.Scope{},
	}
	if c.CanView {
		c.Scopes = append(c.Scopes, models.ScopeAssigned, models.ScopeAvailable, models.ScopeHistory)
		if a.Manager {
			c.Scopes = append(c.Scopes, models.ScopeAll, models.ScopeNeedsAttention)
		}
	}
	return c
}
