package tasks

import (
	"context"

	"usertasks/models"
)

// InboxStore is what the inbox service needs from the store.
type InboxStore interface {
	CreateSavedView(ctx context.Context, v models.SavedView) (models.SavedView, error)
	SavedViews(ctx context.Context, a models.Actor) ([]models.SavedView, error)
	SavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
	RenameSavedView(ctx context.Context, a models.Actor, id, name string) (models.SavedView, error)
	DeleteSavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
	WorkflowChoices(ctx context.Context, f models.TaskFilter, limit int) ([]models.WorkflowChoice, error)
}

// Inbox serves what the inbox keeps beside the task list: saved views (models.SavedView has
// the rules) and the workflow definitions its filter offers. Every call needs the view
// permission; guests have no inbox.
type Inbox struct {
	store InboxStore
}

// NewInbox returns the inbox service on store.
func NewInbox(store InboxStore) *Inbox { return &Inbox{store: store} }

// MaxWorkflowChoices bounds the workflow definitions the inbox offers.
const MaxWorkflowChoices = 100

// SaveViewInput is a view to save: a name, the normalized inbox query, and whether to share it.
type SaveViewInput struct {
	Name   string
	Query  string
	Shared bool
}

func requireInbox(a models.Actor) error {
	if a.Tenant == "" || a.Subject.ID == "" || a.System {
		return models.ErrForbidden
	}
	return requirePermission(a, models.PermView)
}

// SaveView stores a new view owned by a. Order of checks: permission (403), sharing by a
// non-manager (403), then the name and query (422), then the store's uniqueness and limit (422).
func (s *Inbox) SaveView(ctx context.Context, a models.Actor, in SaveViewInput) (models.SavedView, error) {
	if err := requireInbox(a); err != nil {
		return models.SavedView{}, err
	}
	if in.Shared && !models.CanShareViews(a) {
		return models.SavedView{}, models.ErrForbidden
	}
	name, msg := models.SavedViewName(in.Name)
	if msg != "" {
		return models.SavedView{}, models.InvalidField("name", msg)
	}
	owner := a.Subject
	owner.Tenant = a.Tenant
	if a.DisplayName != "" {
		owner.DisplayName = a.DisplayName
	}
	return s.store.CreateSavedView(ctx, models.SavedView{Tenant: a.Tenant, Owner: owner, Name: name, Query: in.Query, Shared: in.Shared})
}

// SavedViews lists the views a may open, by name.
func (s *Inbox) SavedViews(ctx context.Context, a models.Actor) ([]models.SavedView, error) {
	if err := requireInbox(a); err != nil {
		return nil, err
	}
	return s.store.SavedViews(ctx, a)
}

// SavedView returns a view a may open; not found otherwise.
func (s *Inbox) SavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error) {
	if err := requireInbox(a); err != nil {
		return models.SavedView{}, err
	}
	return s.store.SavedView(ctx, a, id)
}

// RenameView renames a's own view: not found for anyone else's (404 before 422).
func (s *Inbox) RenameView(ctx context.Context, a models.Actor, id, name string) (models.SavedView, error) {
	if err := requireInbox(a); err != nil {
		return models.SavedView{}, err
	}
	if _, err := s.store.SavedView(ctx, a, id); err != nil {
		return models.SavedView{}, err
	}
	name, msg := models.SavedViewName(name)
	if msg != "" {
		return models.SavedView{}, models.InvalidField("name", msg)
	}
	return s.store.RenameSavedView(ctx, a, id, name)
}

// DeleteView deletes a view and returns it: the owner's own, or a shared one for a manager.
func (s *Inbox) DeleteView(ctx context.Context, a models.Actor, id string) (models.SavedView, error) {
	if err := requireInbox(a); err != nil {
		return models.SavedView{}, err
	}
	return s.store.DeleteSavedView(ctx, a, id)
}

// WorkflowChoices lists the workflow definitions of the tasks a may see in scope (at most
// MaxWorkflowChoices); a manager-only scope is forbidden to anyone else.
func (s *Inbox) WorkflowChoices(ctx context.Context, a models.Actor, scope models.Scope) ([]models.WorkflowChoice, error) {
	if err := requireInbox(a); err != nil {
		return nil, err
	}
	if scope.ManagerOnly() && !a.Manager {
		return nil, models.ErrForbidden
	}
	return s.store.WorkflowChoices(ctx, models.TaskFilter{Tenant: a.Tenant, Scope: scope, Actor: a}, MaxWorkflowChoices)
}
