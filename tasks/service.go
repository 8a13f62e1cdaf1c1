// Package tasks is the lifecycle service: the commands and queries of User Tasks with the
// authorization policy of SPEC 4, idempotency and one-transaction persistence through the store.
package tasks

import (
	"context"
	"time"

	"usertasks/directory"
	"usertasks/models"
)

// Store is what the service needs from the repository. The store tells the change notifier
// about committed changes itself, after each commit.
type Store interface {
	models.Mutator
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error)
	AppendEvent(ctx context.Context, tenant, id string, build models.AppendFunc) (models.Event, error)
	Events(ctx context.Context, tenant, id string, afterSeq, limit int) ([]models.Event, error)
	HasActed(ctx context.Context, tenant, id string, actor models.ParticipantRef) (bool, error)
	Invitations(ctx context.Context, tenant, taskID string) ([]models.Invitation, error)
	// The comments of a task (comments.go; store.Comments).
	AddComment(ctx context.Context, tenant, taskID, commentID string, add models.CommentAddFunc) (models.Comment, error)
	Comments(ctx context.Context, q models.CommentQuery) (models.CommentPage, error)
	DeleteComment(ctx context.Context, tenant, taskID, commentID string, decide models.CommentDeleteFunc) (models.Comment, error)
	TaskDeadlines(ctx context.Context, tenant, taskID string) ([]models.Deadline, error)
	// ActivityCounts counts a page's comments and files (activity.go; store.Activity).
	ActivityCounts(ctx context.Context, tenant string, taskIDs []string) (map[string]models.ActivityCount, error)
	AbsenceStore
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

// Options tune the service.
type Options struct {
	// StaleAfter is how long a task may stay transitional before needs-attention lists it.
	StaleAfter time.Duration
	// UnassignedAfter is how long an open task may stay without an assignee, from its
	// creation, before needs-attention lists it (default models.DefaultUnassignedAttentionAfter).
	UnassignedAfter time.Duration
	Resolver        Resolver
	// Directory, when set, answers participant searches, refuses assignees it does not know,
	// names participants (participants.go) and tells the access explanation a person's
	// candidate groups (access.go).
	Directory directory.Directory
	// Commands, when set, hears every command's outcome (observe.go).
	Commands CommandObserver
	// Tracer, when set, gives every command a span (observe.go).
	Tracer CommandTracer
}

// Service runs the lifecycle commands and queries.
type Service struct {
	store    Store
	resolver Resolver
	dir      directory.Directory
	stale    time.Duration
	// unassigned is Options.UnassignedAfter with its default.
	unassigned time.Duration
	commands   CommandObserver
	tracer     CommandTracer
}

// New builds a Service.
func New(store Store, o Options) *Service {
	s := &Service{store: store, resolver: o.Resolver, dir: o.Directory, stale: o.StaleAfter, unassigned: o.UnassignedAfter, commands: o.Commands, tracer: o.Tracer}
	if s.stale <= 0 {
		s.stale = models.DefaultStaleAfter
	}
	if s.unassigned <= 0 {
		s.unassigned = models.DefaultUnassignedAttentionAfter
	}
	if s.resolver == nil {
		s.resolver = PinnedResolver{}
	}
	return s
}
