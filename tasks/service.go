// Package tasks is the lifecycle service: the commands and queries of User Tasks with the
// authorization policy of SPEC 4, idempotency and one-transaction persistence through the store.
package tasks

import (
	"context"
	"time"

	"usertasks/models"
	"usertasks/repository"
)

// Store is what the service needs from the repository.
type Store interface {
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error)
	Mutate(ctx context.Context, tenant, id, operationID string, decide repository.MutateFunc) (models.Change, error)
	AppendEvent(ctx context.Context, tenant, id string, build repository.AppendFunc) (models.Event, error)
	Events(ctx context.Context, tenant, id string, afterSeq, limit int) ([]models.Event, error)
	HasActed(ctx context.Context, tenant, id string, actor models.ParticipantRef) (bool, error)
}

// Resolver re-resolves a task's form and snapshot membership for retry-resolution. It runs
// outside the transaction (it may call providers over the network).
type Resolver interface {
	Resolve(ctx context.Context, t models.Task) (Resolution, error)
}

// Resolution is a resolver's answer: nil Form or Snapshot keep the task's current ones; a zero
// Health clears the task's finding.
type Resolution struct {
	Form     *models.PinnedForm
	Snapshot []models.Candidate
	Health   models.Health
}

// Notifier hears about committed changes (SSE invalidation). It must not block.
type Notifier interface {
	Changed(tenant, taskID string, revision int)
}

// Options tune the service.
type Options struct {
	// StaleAfter is how long a task may stay transitional before needs-attention lists it.
	StaleAfter time.Duration
	Resolver   Resolver
	Notifier   Notifier
}

// Service runs the lifecycle commands and queries.
type Service struct {
	store    Store
	resolver Resolver
	notify   Notifier
	stale    time.Duration
}

// New builds a Service.
func New(store Store, o Options) *Service {
	s := &Service{store: store, resolver: o.Resolver, notify: o.Notifier, stale: o.StaleAfter}
	if s.stale <= 0 {
		s.stale = models.DefaultStaleAfter
	}
	if s.resolver == nil {
		s.resolver = PinnedResolver{}
	}
	return s
}

func (s *Service) changed(c models.Change) {
	if s.notify != nil && c.Replay == nil {
		s.notify.Changed(c.Task.Tenant, c.Task.ID, c.Task.Revision)
	}
}
