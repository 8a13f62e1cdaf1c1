package tasks

import (
	"context"
	"slices"
	"strings"

	"usertasks/models"
)

// DeadlinePolicyStore is what the deadline policy endpoints need of the store
// (store.DeadlinePolicies, and the tenant's workflow definitions for the settings page).
type DeadlinePolicyStore interface {
	DeadlinePolicy(ctx context.Context, tenant, definitionID string) (models.DeadlinePolicy, error)
	PutDeadlinePolicy(ctx context.Context, p models.DeadlinePolicy, expected int) (models.DeadlinePolicy, error)
	DeleteDeadlinePolicy(ctx context.Context, tenant, definitionID string, expected int, actor models.ParticipantRef) error
	DeadlinePolicies(ctx context.Context, tenant, after string, limit int) ([]models.DeadlinePolicy, error)
	DeadlinePolicyAudit(ctx context.Context, tenant, definitionID string, limit int) ([]models.DeadlinePolicyChange, error)
	WorkflowChoices(ctx context.Context, f models.TaskFilter, limit int) ([]models.WorkflowChoice, error)
}

// DeadlinePolicies serves the tenants' default deadline policies (issue 30 item 4) to
// managers (the supervise permission; anyone else is forbidden). The tenant is always the
// caller's.
type DeadlinePolicies struct{ store DeadlinePolicyStore }

// NewDeadlinePolicies builds the service.
func NewDeadlinePolicies(store DeadlinePolicyStore) *DeadlinePolicies {
	return &DeadlinePolicies{store: store}
}

// PolicyAuditShown is how many audit entries a definition's page and the audit endpoint show.
const PolicyAuditShown = 50

// PolicyDefinition is one workflow definition of the settings page: its id, the name its tasks
// carry ("" for a definition known only by its policy) and its policy, if any.
type PolicyDefinition struct {
	ID     string
	Name   string
	Policy *models.DeadlinePolicy
}

// Policy returns the policy of definitionID; models.ErrNotFound without one.
func (s *DeadlinePolicies) Policy(ctx context.Context, a models.Actor, definitionID string) (models.DeadlinePolicy, error) {
	if err := requireManager(a); err != nil {
		return models.DeadlinePolicy{}, err
	}
	return s.store.DeadlinePolicy(ctx, a.Tenant, definitionID)
}

// Put sets the policy of definitionID when its current revision is expected (0: none now),
// for any valid definition id, with or without tasks yet. The deadlines are validated as the
// projection field's (422 naming deadlines[i]…).
func (s *DeadlinePolicies) Put(ctx context.Context, a models.Actor, definitionID string, defs []models.DeadlineDefinition, expected int) (models.DeadlinePolicy, error) {
	if err := requireManager(a); err != nil {
		return models.DeadlinePolicy{}, err
	}
	if expected < 0 {
		return models.DeadlinePolicy{}, models.InvalidField("expectedRevision", "must not be negative")
	}
	p, err := models.NewDeadlinePolicy(a.Tenant, definitionID, defs, policyActor(a))
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	return s.store.PutDeadlinePolicy(ctx, p, expected)
}

// Delete removes the policy of definitionID when its revision is expected (0: whatever it is).
func (s *DeadlinePolicies) Delete(ctx context.Context, a models.Actor, definitionID string, expected int) error {
	if err := requireManager(a); err != nil {
		return err
	}
	if expected < 0 {
		return models.InvalidField("expectedRevision", "must not be negative")
	}
	return s.store.DeleteDeadlinePolicy(ctx, a.Tenant, definitionID, expected, policyActor(a))
}

// Audit lists the latest PolicyAuditShown puts and deletes of definitionID's policy, newest
// first.
func (s *DeadlinePolicies) Audit(ctx context.Context, a models.Actor, definitionID string) ([]models.DeadlinePolicyChange, error) {
	if err := requireManager(a); err != nil {
		return nil, err
	}
	if err := models.CheckDefinitionID(definitionID); err != nil {
		return nil, models.ErrNotFound
	}
	return s.store.DeadlinePolicyAudit(ctx, a.Tenant, definitionID, PolicyAuditShown)
}

// Definitions lists the tenant's workflow definitions for the settings page, by id: those of
// its tasks (at most MaxWorkflowChoices, one index seek each) and those with a policy (at most
// one page, models.MaxDeadlinePolicyPage), each with its policy.
func (s *DeadlinePolicies) Definitions(ctx context.Context, a models.Actor) ([]PolicyDefinition, error) {
	if err := requireManager(a); err != nil {
		return nil, err
	}
	choices, err := s.store.WorkflowChoices(ctx, models.TaskFilter{Tenant: a.Tenant, Scope: models.ScopeAll, Actor: a}, MaxWorkflowChoices)
	if err != nil {
		return nil, err
	}
	policies, err := s.store.DeadlinePolicies(ctx, a.Tenant, "", models.MaxDeadlinePolicyPage)
	if err != nil {
		return nil, err
	}
	byID := map[string]*PolicyDefinition{}
	var out []*PolicyDefinition
	for _, c := range choices {
		d := &PolicyDefinition{ID: c.ID, Name: c.Name}
		byID[c.ID] = d
		out = append(out, d)
	}
	for i := range policies {
		p := &policies[i]
		d, ok := byID[p.DefinitionID]
		if !ok {
			d = &PolicyDefinition{ID: p.DefinitionID}
			byID[p.DefinitionID] = d
			out = append(out, d)
		}
		d.Policy = p
	}
	slices.SortFunc(out, func(x, y *PolicyDefinition) int { return strings.Compare(x.ID, y.ID) })
	res := make([]PolicyDefinition, len(out))
	for i, d := range out {
		res[i] = *d
	}
	return res, nil
}

// policyActor is who an audit entry names: the caller as a user of the tenant.
func policyActor(a models.Actor) models.ParticipantRef {
	who := a.Subject
	who.Tenant, who.Type = a.Tenant, models.UserParticipant
	if who.DisplayName == "" {
		who.DisplayName = a.DisplayName
	}
	return who
}
