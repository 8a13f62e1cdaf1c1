package storekit

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// Default deadline policies (issue 30 item 4) as both stores keep them: one row per
// (tenant, workflow definition id) in user_task_deadline_policies whose deadlines_json is NULL
// once deleted — the row stays so that revisions never repeat — and one never-changed row per
// revision in user_task_policy_audit.

// DeadlinePolicyRow is a user_task_deadline_policies row (a document of that collection).
type DeadlinePolicyRow struct {
	TenantID     string `gorm:"column:tenant_id;primaryKey" bson:"tenant_id"`
	DefinitionID string `gorm:"column:workflow_definition_id;primaryKey" bson:"workflow_definition_id"`
	// DeadlinesJSON holds the validated definitions; nil while the policy is deleted.
	DeadlinesJSON     *string   `gorm:"column:deadlines_json" bson:"deadlines_json"`
	Revision          int       `gorm:"column:revision" bson:"revision"`
	ChangedByProvider string    `gorm:"column:changed_by_provider" bson:"changed_by_provider"`
	ChangedByType     string    `gorm:"column:changed_by_type" bson:"changed_by_type"`
	ChangedByID       string    `gorm:"column:changed_by_id" bson:"changed_by_id"`
	ChangedByDisplay  *string   `gorm:"column:changed_by_display" bson:"changed_by_display"`
	UpdatedAt         time.Time `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// Live reports whether the row holds a policy (it was not deleted).
func (r *DeadlinePolicyRow) Live() bool { return r != nil && r.DeadlinesJSON != nil }

// DeadlinePolicyAuditRow is a user_task_policy_audit row: one put or delete, never updated.
type DeadlinePolicyAuditRow struct {
	TenantID      string    `gorm:"column:tenant_id;primaryKey" bson:"tenant_id"`
	DefinitionID  string    `gorm:"column:workflow_definition_id;primaryKey" bson:"workflow_definition_id"`
	Revision      int       `gorm:"column:revision;primaryKey;autoIncrement:false" bson:"revision"`
	Action        string    `gorm:"column:change_type" bson:"change_type"`
	DeadlinesJSON *string   `gorm:"column:deadlines_json" bson:"deadlines_json"`
	ActorProvider string    `gorm:"column:actor_provider" bson:"actor_provider"`
	ActorType     string    `gorm:"column:actor_type" bson:"actor_type"`
	ActorID       string    `gorm:"column:actor_id" bson:"actor_id"`
	ActorDisplay  *string   `gorm:"column:actor_display" bson:"actor_display"`
	ChangedAt     time.Time `gorm:"column:changed_at;autoCreateTime:false" bson:"changed_at"`
}

// policyDeadline is a definition as deadlines_json stores it; the actions as the task's
// deadline rows store theirs.
type policyDeadline struct {
	Kind    models.DeadlineKind     `json:"kind"`
	After   string                  `json:"after,omitempty"`
	At      string                  `json:"at,omitempty"`
	Actions []models.DeadlineAction `json:"actions"`
}

// CheckDeadlinePolicy refuses a policy models.NewDeadlinePolicy would not make, or whose
// author is not a user of its tenant, and returns it as NewDeadlinePolicy normalizes it: both
// stores check it before writing and write what it returns.
func CheckDeadlinePolicy(p models.DeadlinePolicy) (models.DeadlinePolicy, error) {
	if err := CheckPerson(p.Tenant, p.ChangedBy); err != nil {
		return models.DeadlinePolicy{}, err
	}
	return models.NewDeadlinePolicy(p.Tenant, p.DefinitionID, p.Deadlines, p.ChangedBy)
}

// CheckPolicyKey refuses a (tenant, definition) no policy can have: the reads answer not
// found for it, without asking the database.
func CheckPolicyKey(tenant, definitionID string) bool {
	return tenant != "" && len(tenant) <= models.MaxTenantLength && models.CheckDefinitionID(definitionID) == nil
}

// NextPolicyRevision decides a revision-checked write of a definition's policy from its stored
// row cur (nil: never set): the revision the write gives it, or the refusal. A put expects the
// current revision, 0 when there is no policy now (never set, or deleted); a delete needs a
// policy and expects its revision, 0 meaning any.
func NextPolicyRevision(cur *DeadlinePolicyRow, expected int, action models.DeadlinePolicyAction) (int, error) {
	stored := 0
	if cur != nil {
		stored = cur.Revision
	}
	current := 0
	if cur.Live() {
		current = stored
	}
	switch {
	case action == models.DeadlinePolicyDelete && current == 0:
		return 0, models.ErrNotFound
	case action == models.DeadlinePolicyDelete && expected == 0:
	case expected != current:
		return 0, models.Conflict(models.CodeRevisionConflict)
	}
	return stored + 1, nil
}

func encodePolicyDeadlines(defs []models.DeadlineDefinition) (*string, error) {
	out := make([]policyDeadline, len(defs))
	for i, d := range defs {
		out[i] = policyDeadline{Kind: d.Kind, After: d.After, At: d.At, Actions: d.Actions}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	s := string(raw)
	return &s, nil
}

func decodePolicyDeadlines(tenant, definitionID string, raw *string) ([]models.DeadlineDefinition, error) {
	if raw == nil {
		return nil, nil
	}
	var in []policyDeadline
	if err := json.Unmarshal([]byte(*raw), &in); err != nil {
		return nil, fmt.Errorf("%w: the deadline policy of %q in %q does not decode", models.ErrCorrupt, definitionID, tenant)
	}
	out := make([]models.DeadlineDefinition, len(in))
	for i, d := range in {
		out[i] = models.DeadlineDefinition{Kind: d.Kind, After: d.After, At: d.At, Actions: d.Actions}
	}
	return out, nil
}

// DeadlinePolicyRow encodes p (checked with CheckDeadlinePolicy) as its row at revision and now.
func (c Codec) DeadlinePolicyRow(p *models.DeadlinePolicy, revision int, now time.Time) (DeadlinePolicyRow, error) {
	raw, err := encodePolicyDeadlines(p.Deadlines)
	if err != nil {
		return DeadlinePolicyRow{}, err
	}
	return DeadlinePolicyRow{
		TenantID: p.Tenant, DefinitionID: p.DefinitionID, DeadlinesJSON: raw, Revision: revision,
		ChangedByProvider: p.ChangedBy.Provider, ChangedByType: string(models.UserParticipant), ChangedByID: p.ChangedBy.ID,
		ChangedByDisplay: SavedViewOwnerDisplay(p.ChangedBy), UpdatedAt: c.Time(now),
	}, nil
}

// DeletedPolicyRow is cur after a delete by actor at revision and now: no deadlines.
func (c Codec) DeletedPolicyRow(cur DeadlinePolicyRow, actor models.ParticipantRef, revision int, now time.Time) DeadlinePolicyRow {
	cur.DeadlinesJSON, cur.Revision, cur.UpdatedAt = nil, revision, c.Time(now)
	cur.ChangedByProvider, cur.ChangedByType, cur.ChangedByID = actor.Provider, string(models.UserParticipant), actor.ID
	cur.ChangedByDisplay = SavedViewOwnerDisplay(actor)
	return cur
}

// DeadlinePolicy decodes a live row; deadlines that do not decode are corrupt.
func (c Codec) DeadlinePolicy(r *DeadlinePolicyRow) (models.DeadlinePolicy, error) {
	defs, err := decodePolicyDeadlines(r.TenantID, r.DefinitionID, r.DeadlinesJSON)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	return models.DeadlinePolicy{
		Tenant: r.TenantID, DefinitionID: r.DefinitionID, Deadlines: defs, Revision: r.Revision,
		ChangedBy: models.ParticipantRef{Tenant: r.TenantID, Provider: r.ChangedByProvider, Type: models.ParticipantType(r.ChangedByType),
			ID: r.ChangedByID, DisplayName: Str(r.ChangedByDisplay)},
		UpdatedAt: c.Time(r.UpdatedAt),
	}, nil
}

// PolicyAuditRow is the audit entry of the write that left row (its revision, author, time
// and deadlines; none for a delete).
func PolicyAuditRow(row DeadlinePolicyRow, action models.DeadlinePolicyAction) DeadlinePolicyAuditRow {
	return DeadlinePolicyAuditRow{
		TenantID: row.TenantID, DefinitionID: row.DefinitionID, Revision: row.Revision, Action: string(action),
		DeadlinesJSON: row.DeadlinesJSON, ActorProvider: row.ChangedByProvider, ActorType: row.ChangedByType,
		ActorID: row.ChangedByID, ActorDisplay: row.ChangedByDisplay, ChangedAt: row.UpdatedAt,
	}
}

// PolicyRowOf is the policy row an audit entry records: the state its write left (the document
// store completes a write that stopped after its entry from the entry alone).
func PolicyRowOf(e DeadlinePolicyAuditRow) DeadlinePolicyRow {
	return DeadlinePolicyRow{
		TenantID: e.TenantID, DefinitionID: e.DefinitionID, DeadlinesJSON: e.DeadlinesJSON, Revision: e.Revision,
		ChangedByProvider: e.ActorProvider, ChangedByType: e.ActorType, ChangedByID: e.ActorID, ChangedByDisplay: e.ActorDisplay,
		UpdatedAt: e.ChangedAt,
	}
}

// DeadlinePolicyChange decodes an audit row; an unknown action or deadlines that do not
// decode are corrupt.
func (c Codec) DeadlinePolicyChange(r *DeadlinePolicyAuditRow) (models.DeadlinePolicyChange, error) {
	action := models.DeadlinePolicyAction(r.Action)
	if action != models.DeadlinePolicyPut && action != models.DeadlinePolicyDelete {
		return models.DeadlinePolicyChange{}, fmt.Errorf("%w: audit entry %d of the deadline policy of %q: unknown action %q",
			models.ErrCorrupt, r.Revision, r.DefinitionID, r.Action)
	}
	defs, err := decodePolicyDeadlines(r.TenantID, r.DefinitionID, r.DeadlinesJSON)
	if err != nil {
		return models.DeadlinePolicyChange{}, err
	}
	return models.DeadlinePolicyChange{
		Tenant: r.TenantID, DefinitionID: r.DefinitionID, Revision: r.Revision, Action: action, Deadlines: defs,
		Actor: models.ParticipantRef{Tenant: r.TenantID, Provider: r.ActorProvider, Type: models.ParticipantType(r.ActorType),
			ID: r.ActorID, DisplayName: Str(r.ActorDisplay)},
		At: c.Time(r.ChangedAt),
	}, nil
}

// PolicyPageLimit clamps a page size of the policy list.
func PolicyPageLimit(limit int) int { return max(1, min(limit, models.MaxDeadlinePolicyPage)) }

// PolicyAuditLimit clamps a page size of the audit list.
func PolicyAuditLimit(limit int) int { return max(1, min(limit, models.MaxDeadlinePolicyAudit)) }

// DeadlinePolicyLookup reads the live policy of (tenant, definitionID) inside the caller's
// write; nil without one.
type DeadlinePolicyLookup func(tenant, definitionID string) (*models.DeadlinePolicy, error)

// ApplyDeadlinePolicy gives a created task whose projection declared no deadlines
// (Change.DefaultDeadlines) the deadlines of its definition's policy, due from the task's
// creation, and names the policy's revision in the created event. Both stores call it in the
// creation's write, after the build: one point read of the policy's key, and none when the
// projection brought its own deadlines (they win).
func ApplyDeadlinePolicy(c *models.Change, lookup DeadlinePolicyLookup) error {
	if !c.DefaultDeadlines || len(c.Deadlines) > 0 {
		return nil
	}
	p, err := lookup(c.Task.Tenant, c.Task.Workflow.DefinitionID)
	if err != nil || p == nil {
		return err
	}
	return models.ApplyDeadlinePolicy(c, *p)
}
