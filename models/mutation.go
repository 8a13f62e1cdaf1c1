package models

import (
	"context"
	"time"
)

// The mutation contract between the lifecycle rules and the store: the rules decide a change
// from the task as loaded inside the write transaction, at the database time; the store
// commits it and, after the commit, tells the change notifier.

// MutateFunc decides a change for the task as loaded inside the write transaction, at the
// database time. prior is the stored operation with the command's operation id, if any, so
// the decision can replay it (the idempotency lookup precedes the revision check).
type MutateFunc func(now time.Time, task Task, prior *Operation) (Change, error)

// AppendFunc builds an event that changes no state (field-revealed, invitation events).
type AppendFunc func(now time.Time, task Task) (Event, error)

// BuildFunc computes a creation at the database time read inside the write transaction.
type BuildFunc func(now time.Time) (Change, error)

// Mutator applies one command to a task as a single guarded transaction; the store
// implements it, and every command and worker that changes a task goes through it.
type Mutator interface {
	Mutate(ctx context.Context, tenant, taskID, operationID string, decide MutateFunc) (Change, error)
}

// ChangeNotifier hears about committed changes to tasks (SSE invalidation, waking the
// outbox): revision is the task's revision after the change. It must not block.
type ChangeNotifier interface {
	Changed(tenant, taskID string, revision int)
}
