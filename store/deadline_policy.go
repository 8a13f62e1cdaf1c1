package store

import (
	"context"

	"usertasks/models"
)

// DeadlinePolicies keeps the tenants' default deadline policies, one per (tenant, workflow
// definition id) (issue 30 item 4, docs/deadlines.md "Default policies per workflow
// definition"). Every put and delete is revision-checked and appends an audit entry in the
// same write; the entries are never changed. Create applies a definition's policy to a task
// whose projection declared no deadlines (models.Change.DefaultDeadlines), in the creation's
// transaction; nothing else reads a policy on the write path.
type DeadlinePolicies interface {
	// DeadlinePolicy returns the policy of definitionID in tenant; models.ErrNotFound without
	// one (never set, or deleted).
	DeadlinePolicy(ctx context.Context, tenant, definitionID string) (models.DeadlinePolicy, error)
	// PutDeadlinePolicy stores p (made by models.NewDeadlinePolicy; validation error
	// otherwise) as revision expected+1 when the definition's current revision is expected,
	// where 0 means "no policy now" (never set or deleted); any other current state is
	// Conflict(models.CodeRevisionConflict) and writes nothing. Revisions count deletes too, so
	// a put after a delete continues after the delete's revision. It appends the audit entry
	// (put, the stored deadlines, p.ChangedBy, the database time) in the same write and returns
	// the policy as stored.
	PutDeadlinePolicy(ctx context.Context, p models.DeadlinePolicy, expected int) (models.DeadlinePolicy, error)
	// DeleteDeadlinePolicy removes the policy of definitionID in tenant when its revision is
	// expected (0: whatever it is), appending the audit entry (delete, actor) in the same write.
	// models.ErrNotFound without a policy; another revision is Conflict(CodeRevisionConflict).
	// Tasks created under the policy keep their deadlines.
	DeleteDeadlinePolicy(ctx context.Context, tenant, definitionID string, expected int, actor models.ParticipantRef) error
	// DeadlinePolicies pages the policies of tenant by definition id, after the given id (""
	// for the first page), at most limit (1 to models.MaxDeadlinePolicyPage).
	DeadlinePolicies(ctx context.Context, tenant, after string, limit int) ([]models.DeadlinePolicy, error)
	// DeadlinePolicyAudit lists the audit entries of definitionID in tenant, newest (highest
	// revision) first, at most limit (1 to models.MaxDeadlinePolicyAudit); none is an empty list.
	DeadlinePolicyAudit(ctx context.Context, tenant, definitionID string, limit int) ([]models.DeadlinePolicyChange, error)
}
