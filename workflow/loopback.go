package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"usertasks/models"
)

// LoopbackStore is what the Loopback runtime needs from the repository.
type LoopbackStore interface {
	models.Mutator
	ReconcileTasks(ctx context.Context, tenant string, skipTouchedWithin time.Duration, afterID string, limit int) ([]models.Task, error)
	FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error)
}

// Loopback is the built-in runtime of dev mode and tests (SPEC 5.2): there is no engine behind
// it, so it acknowledges a stimulus by removing the task's bookmark itself, finalizing the task
// (Completing → Completed, TimingOut → TimedOut, Cancelling → Cancelled) in the delivery. Its
// committed bookmarks are exactly the tasks that are not terminal, so reconciliation against it
// finds nothing to do.
type Loopback struct {
	store LoopbackStore
}

// NewLoopback builds the loopback runtime on store.
func NewLoopback(store LoopbackStore) *Loopback {
	return &Loopback{store: store}
}

// errBookmarkClosed ends a finalization that finds the task terminal already.
var errBookmarkClosed = errors.New("workflow: the bookmark was removed before")

// Deliver finalizes the stimulus's task. A task that is terminal already, or gone, answers nil:
// the stimulus is a repeat. A task that is not transitional, or whose bookmark differs, is
// refused with a validation error (the stimulus does not belong to it).
func (l *Loopback) Deliver(ctx context.Context, s Stimulus) error {
	_, err := CloseRemovedBookmark(ctx, l.store, s.Tenant, s.TaskID, func(t models.Task) error {
		switch {
		case t.Workflow.BookmarkID != s.BookmarkID:
			return models.InvalidField("bookmarkId", "the stimulus names another bookmark")
		case t.Status.IsTerminal():
			return errBookmarkClosed
		case !t.Status.IsTransitional():
			return models.InvalidField("taskId", "the task has no transition to resume")
		}
		return nil
	})
	if errors.Is(err, errBookmarkClosed) || errors.Is(err, models.ErrNotFound) {
		return nil
	}
	return err
}

// SettlesOnDelivery reports that a stimulus the loopback accepted leaves nothing to
// acknowledge: its Deliver finalized the task (or found it finalized or gone), and a
// finalization settles every pending outbox row of the task in its transaction.
func (*Loopback) SettlesOnDelivery() bool { return true }

// ListBookmarks lists the tenant's tasks that are not terminal, by id; the cursor is the last id.
func (l *Loopback) ListBookmarks(ctx context.Context, tenant, cursor string, limit int) ([]json.RawMessage, string, error) {
	if limit <= 0 || limit > models.MaxPageSize {
		limit = models.MaxPageSize
	}
	page, err := l.store.ReconcileTasks(ctx, tenant, 0, cursor, limit)
	if err != nil {
		return nil, "", err
	}
	items := make([]json.RawMessage, 0, len(page))
	for _, t := range page {
		body, err := loopbackBookmarkOf(t)
		if err != nil {
			return nil, "", err
		}
		items = append(items, body)
	}
	next := ""
	if len(page) == limit {
		next = page[len(page)-1].ID
	}
	return items, next, nil
}

// GetBookmark finds the bookmark of a task that is not terminal. A bookmark without a task, or
// whose task is closed, is gone: found=false without error, the same outcome as an HTTP
// runtime's exact 404 {"code":"bookmark-not-found"}. The id is matched as it is, never parsed.
func (l *Loopback) GetBookmark(ctx context.Context, tenant, bookmarkID string) (bool, json.RawMessage, error) {
	t, err := l.store.FindByBookmarkID(ctx, tenant, bookmarkID)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return false, nil, nil
	case err != nil:
		return false, nil, err
	case t.Status.IsTerminal():
		return false, nil, nil
	}
	body, err := loopbackBookmarkOf(t)
	return err == nil, body, err
}

// loopbackBookmark is the projection body the loopback reports for a task: its workflow link
// and safe fields only. Nothing recreates a task from it (the task exists), so it carries no
// protected content.
type loopbackBookmark struct {
	BookmarkLink
	Task loopbackTaskBody `json:"task"`
}

type loopbackTaskBody struct {
	Title               string     `json:"title"`
	Summary             string     `json:"summary,omitempty"`
	Reference           string     `json:"reference,omitempty"`
	Tags                []string   `json:"tags,omitempty"`
	TaskType            string     `json:"taskType,omitempty"`
	Priority            int        `json:"priority"`
	DueAt               *time.Time `json:"dueAt,omitempty"`
	TimeoutEnabled      bool       `json:"timeoutEnabled,omitempty"`
	CancellationEnabled bool       `json:"cancellationEnabled,omitempty"`
}

func loopbackBookmarkOf(t models.Task) (json.RawMessage, error) {
	return json.Marshal(loopbackBookmark{
		BookmarkLink: linkOf(t.Workflow),
		Task: loopbackTaskBody{
			Title: t.Title, Summary: t.Summary, Reference: t.Reference, Tags: t.Tags, TaskType: t.TaskType,
			Priority: t.Priority, DueAt: t.DueAt, TimeoutEnabled: t.TimeoutEnabled, CancellationEnabled: t.CancellationEnabled,
		},
	})
}
