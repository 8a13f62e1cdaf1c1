package models

import (
	"fmt"
	"time"
)

// Default deadline policies (issue 30 item 4): a manager sets the deadlines every task of one
// workflow definition gets when its projection declares none of its own. The policy holds
// deadline definitions in the projection field's shape and limits (SPEC 10.4), applied at the
// task's creation as if the projection had sent them (`after` counts from the creation); a
// later change of the policy touches no existing task.

// Limits of the policy reads.
const (
	// MaxDeadlinePolicyPage bounds one page of a tenant's policies.
	MaxDeadlinePolicyPage = 200
	// MaxDeadlinePolicyAudit bounds one read of a definition's audit entries (newest first).
	MaxDeadlinePolicyAudit = 100
)

// DeadlinePolicyAction is what an audit entry records.
type DeadlinePolicyAction string

const (
	DeadlinePolicyPut    DeadlinePolicyAction = "put"
	DeadlinePolicyDelete DeadlinePolicyAction = "delete"
)

// DeadlinePolicy is the default deadlines of one workflow definition in a tenant. Revision
// counts every put and delete of the definition's policy, deletes included, so it never
// repeats: a policy put again after a delete continues the count.
type DeadlinePolicy struct {
	Tenant       string
	DefinitionID string
	// Deadlines are validated definitions (NewDeadlinePolicy), 1 to MaxDeadlines.
	Deadlines []DeadlineDefinition
	Revision  int
	// ChangedBy is the user who wrote this revision; UpdatedAt the database time of the write.
	ChangedBy ParticipantRef
	UpdatedAt time.Time
}

// DeadlinePolicyChange is one audit entry: a put (with the deadlines it stored) or a delete of
// a definition's policy, never changed afterwards.
type DeadlinePolicyChange struct {
	Tenant       string
	DefinitionID string
	Revision     int
	Action       DeadlinePolicyAction
	Deadlines    []DeadlineDefinition // nil for a delete
	Actor        ParticipantRef
	At           time.Time
}

// CheckDefinitionID refuses what cannot be a workflow definition id (a projection's
// workflowDefinitionId rules): blank, longer than MaxWorkflowIDLength bytes, or not an
// identifier. Any other id is accepted, with or without tasks yet.
func CheckDefinitionID(id string) error {
	if msg := FieldProblem(id, MaxWorkflowIDLength, true, Identifier); msg != "" {
		return InvalidField("workflowDefinitionId", msg)
	}
	return nil
}

// NewDeadlinePolicy validates a policy of definitionID in tenant, set by actor: the deadlines
// exactly as the projection field's (field errors named `deadlines[0].after` …), at least one.
// The returned deadlines are normalized as a projection's are (participants of the tenant,
// the default provider filled in).
func NewDeadlinePolicy(tenant, definitionID string, defs []DeadlineDefinition, actor ParticipantRef) (DeadlinePolicy, error) {
	var pr problems
	pr.text("tenant", tenant, MaxTenantLength, true, Identifier)
	pr.text("workflowDefinitionId", definitionID, MaxWorkflowIDLength, true, Identifier)
	if len(defs) == 0 {
		pr.fail("deadlines", "must have at least one deadline")
	}
	// The due times do not matter here, only whether the definitions are valid; the epoch
	// keeps every `after` in range.
	ds := pr.deadlines(defs, tenant, time.Unix(0, 0).UTC())
	if err := pr.err(); err != nil {
		return DeadlinePolicy{}, err
	}
	out := make([]DeadlineDefinition, len(defs))
	for i, def := range defs {
		out[i] = DeadlineDefinition{Kind: def.Kind, After: def.After, At: def.At, Actions: ds[i].Actions}
	}
	actor.Tenant, actor.DisplayName = tenant, Truncate(actor.DisplayName, 256)
	return DeadlinePolicy{Tenant: tenant, DefinitionID: definitionID, Deadlines: out, ChangedBy: actor}, nil
}

// ApplyDeadlinePolicy gives the creation c the deadlines of p and records p's revision in its
// created event (`deadlinePolicyRevision`), so the task's history says which defaults it got
// after the policy has changed since.
func ApplyDeadlinePolicy(c *Change, p DeadlinePolicy) error {
	ds, err := PolicyDeadlines(p, c.Task.ID, c.Task.CreatedAt)
	if err != nil {
		return err
	}
	if c.Event != nil {
		if c.Event.Metadata, err = withMetadata(c.Event.Metadata, map[string]any{"deadlinePolicyRevision": p.Revision}); err != nil {
			return err
		}
	}
	c.Deadlines = ds
	return nil
}

// PolicyDeadlines are the deadlines p gives a task created at created: validated again, so a
// stored policy this version no longer accepts is reported as corrupt rather than applied
// half-way.
func PolicyDeadlines(p DeadlinePolicy, taskID string, created time.Time) ([]Deadline, error) {
	var pr problems
	ds := pr.deadlines(p.Deadlines, p.Tenant, created)
	if err := pr.err(); err != nil || len(ds) != len(p.Deadlines) {
		return nil, &CorruptError{TaskID: taskID, Reason: fmt.Sprintf("the deadline policy of workflow definition %q (revision %d) is not valid: %v", p.DefinitionID, p.Revision, err)}
	}
	for i := range ds {
		ds[i].TaskID = taskID
	}
	return ds, nil
}
