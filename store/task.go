package store

import (
	"context"
	"time"

	"usertasks/models"
)

// Tasks is the task aggregate: creation by projection, reads, the one guarded mutation path,
// events, operations and the resumptions a mutation queues. Every write runs at the database's
// clock (Now) and tells the change notifier after its commit, never before.
type Tasks interface {
	Now(ctx context.Context) (time.Time, error)
	// Create builds and stores a task once per (tenant, materializationKey); a replay returns
	// the stored task and false.
	Create(ctx context.Context, tenant, materializationKey, bookmarkID string, build models.BuildFunc) (models.Task, bool, error)
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	FindByMaterializationKey(ctx context.Context, tenant, key string) (models.Task, error)
	FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error)
	// Mutate loads the task, runs decide on it and writes what it decided, all in one write
	// guarded by the task's revision; operationID makes a replay return the first answer.
	Mutate(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc) (models.Change, error)
	AppendEvent(ctx context.Context, tenant, taskID string, build models.AppendFunc) (models.Event, error)
	Events(ctx context.Context, tenant, taskID string, afterSeq, limit int) ([]models.Event, error)
	Operation(ctx context.Context, tenant, taskID, opID string) (models.Operation, error)
	Resumptions(ctx context.Context, tenant, taskID string) ([]models.Resumption, error)
	// HasActed answers whether actor has an event on the task (the history's participation).
	HasActed(ctx context.Context, tenant, taskID string, actor models.ParticipantRef) (bool, error)
}

// Health is a task's health finding, set and cleared by the workers.
type Health interface {
	SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error
	ClearHealth(ctx context.Context, tenant, taskID, code string) error
}

// Changes registers the hooks told after a commit: each committed change of a task, and the
// queueing of invitation deliveries.
type Changes interface {
	NotifyChanges(n models.ChangeNotifier)
	NotifyDeliveries(fn func())
}
