package workflow

import (
	"context"
	"errors"
	"fmt"
	"time"

	"usertasks/models"
)

// MaxRemovedBookmarks bounds one bookmarks/removed call.
const MaxRemovedBookmarks = 200

// FinalizeStore is what finalization needs from the store; store.Store satisfies it.
type FinalizeStore interface {
	models.Mutator
	FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error)
}

// Finalizer closes tasks whose bookmarks the runtime removed. It is safe for concurrent use.
type Finalizer struct {
	store FinalizeStore
}

// NewFinalizer builds a Finalizer.
func NewFinalizer(store FinalizeStore) *Finalizer { return &Finalizer{store: store} }

// finalizeAttempts bounds the retries of a finalization that lost a race with another command
// (a claim committed between load and update on a multi-writer database).
const finalizeAttempts = 3

// CloseRemovedBookmark finalizes a task whose bookmark is gone (SPEC 3.3 "bookmark removed"),
// after check, when set, approves the task as loaded inside the write transaction. A revision
// conflict (another node changed the task between load and write) is decided again on fresh
// state, up to finalizeAttempts times. The finalizer, the loopback runtime and reconciliation
// all close bookmarks through it.
func CloseRemovedBookmark(ctx context.Context, store models.Mutator, tenant, taskID string, check func(models.Task) error) (models.Change, error) {
	var ch models.Change
	var err error
	for attempt := 0; attempt < finalizeAttempts; attempt++ {
		ch, err = store.Mutate(ctx, tenant, taskID, "", func(now time.Time, t models.Task, _ *models.Operation) (models.Change, error) {
			if check != nil {
				if err := check(t); err != nil {
					return models.Change{}, err
				}
			}
			return models.Finalize(t, now)
		})
		if models.ErrorCode(err) != models.CodeRevisionConflict {
			break
		}
	}
	return ch, err
}

// Removed finalizes the tasks of the removed bookmarks of tenant (SPEC 3.3 "bookmark removed",
// 5.2): Completing → Completed, TimingOut → TimedOut, Cancelling → Cancelled, any open status →
// Cancelled, each in its own transaction that also completes the accepted operation and settles
// the outbox. It answers the ids of the finalized tasks (a task already closed counts: repeating
// a removal is harmless) and the bookmark ids no task was projected from, both in request order
// without repeats.
//
// More than MaxRemovedBookmarks ids, or an empty or over-long id, is a validation error and
// nothing is finalized. A storage error stops the call; the tasks finalized before it stay
// finalized and a repeat picks up the rest.
func (f *Finalizer) Removed(ctx context.Context, tenant string, bookmarkIDs []string) (finalized, unknown []string, err error) {
	if err := checkBookmarkIDs(bookmarkIDs); err != nil {
		return nil, nil, err
	}
	finalized, unknown = []string{}, []string{}
	seen := make(map[string]bool, len(bookmarkIDs))
	for _, id := range bookmarkIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		taskID, err := f.finalize(ctx, tenant, id)
		switch {
		case errors.Is(err, models.ErrNotFound):
			unknown = append(unknown, id)
		case err != nil:
			return nil, nil, fmt.Errorf("finalize bookmark: %w", err)
		default:
			finalized = append(finalized, taskID)
		}
	}
	return finalized, unknown, nil
}

// finalize closes the task of one bookmark; a task that is already closed is left alone.
func (f *Finalizer) finalize(ctx context.Context, tenant, bookmarkID string) (string, error) {
	t, err := f.store.FindByBookmarkID(ctx, tenant, bookmarkID)
	if err != nil {
		return "", err
	}
	if _, err := CloseRemovedBookmark(ctx, f.store, tenant, t.ID, nil); err != nil && models.ErrorCode(err) != models.CodeTerminal {
		return "", err
	}
	return t.ID, nil
}

// checkBookmarkIDs validates a removal request.
func checkBookmarkIDs(ids []string) error {
	if len(ids) > MaxRemovedBookmarks {
		return models.InvalidField("bookmarkIds", fmt.Sprintf("must hold at most %d ids, got %d", MaxRemovedBookmarks, len(ids)))
	}
	var problems []models.FieldError
	for i, id := range ids {
		if msg := models.FieldProblem(id, models.MaxBookmarkIDLength, true, models.Identifier); msg != "" {
			problems = append(problems, models.FieldError{Field: fmt.Sprintf("bookmarkIds[%d]", i), Message: msg})
		}
	}
	if len(problems) > 0 {
		return models.Invalid(models.CodeValidationFailed, problems...)
	}
	return nil
}
