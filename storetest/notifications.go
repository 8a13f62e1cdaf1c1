package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// noteRecorder is a change notifier that reads the task back as each notification arrives:
// a notification sent before the commit would find the old revision.
type noteRecorder struct {
	s     store.Store
	mu    sync.Mutex
	notes []string
}

// listen registers a fresh recorder on s for the rest of the test.
func listen(t *testing.T, s store.Store) *noteRecorder {
	t.Helper()
	r := &noteRecorder{s: s}
	s.NotifyChanges(r)
	t.Cleanup(func() { s.NotifyChanges(nil) })
	return r
}

func (r *noteRecorder) Changed(tenant, taskID string, revision int) {
	note := fmt.Sprintf("%s/%s@%d", tenant, taskID, revision)
	// A fresh context: the notifier runs on the writer's goroutine, after its transaction.
	got, err := r.s.Get(context.Background(), tenant, taskID)
	switch {
	case err != nil:
		note += fmt.Sprintf(" (read back: %v)", err)
	case got.Revision != revision:
		note += fmt.Sprintf(" (read back at revision %d)", got.Revision)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes = append(r.notes, note)
}

// want compares the notifications so far with the expected "tenant/id@revision" list.
func (r *noteRecorder) want(t *testing.T, want ...string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if got := fmt.Sprint(r.notes); got != fmt.Sprint(want) {
		t.Fatalf("notifications %s, want %s", got, fmt.Sprint(want))
	}
}

func mustOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func note(task models.Task, revision int) string {
	return fmt.Sprintf("%s/%s@%d", task.Tenant, task.ID, revision)
}

// testNotifications checks the store's post-commit hook: every committed write that changes
// what a task looks like is told once, after the commit, with the task's new revision; replays,
// refused decisions, rolled-back units and lost races tell nothing.
func testNotifications(t *testing.T, h Harness) {
	s := h.open(t, Options{})

	t.Run("MutateOnceAfterCommit", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		rec := listen(t, s)
		if _, err := s.Mutate(ctx(t), "t1", task.ID, "", Bump("", "")); err != nil {
			t.Fatal(err)
		}
		rec.want(t, note(task, task.Revision+1))
	})

	t.Run("NotOnReplay", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		rec := listen(t, s)
		for range 2 {
			if _, err := s.Mutate(ctx(t), "t1", task.ID, "op-n", Bump("op-n", "hash-n")); err != nil {
				t.Fatal(err)
			}
		}
		rec.want(t, note(task, task.Revision+1))
	})

	t.Run("NotOnRefusedDecision", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		rec := listen(t, s)
		_, err := s.Mutate(ctx(t), "t1", task.ID, "", func(time.Time, models.Task, *models.Operation) (models.Change, error) {
			return models.Change{}, models.Invalid(models.CodeReasonRequired)
		})
		wantCode(t, err, models.CodeReasonRequired)
		rec.want(t)
	})

	t.Run("NotOnRolledBackUnit", func(t *testing.T) {
		taken := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
		first, err := s.Mutate(ctx(t), "t1", taken.ID, "", transition(models.StatusCompleting, "op-r1"))
		if err != nil {
			t.Fatal(err)
		}
		other := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "bob"))})
		rec := listen(t, s)
		_, err = s.Mutate(ctx(t), "t1", other.ID, "", transitionReusingOutboxID("op-r2", first.Resumption.ID))
		if err == nil {
			t.Fatal("a unit with a duplicate outbox key committed")
		}
		rec.want(t)
	})

	t.Run("NotOnRevisionConflict", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		rec := listen(t, s)
		// The decision expects a revision the task no longer has: the guarded UPDATE matches
		// nothing inside the transaction.
		_, err := s.Mutate(ctx(t), "t1", task.ID, "", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			c, err := Bump("", "")(now, cur, prior)
			c.ExpectedRevision--
			return c, err
		})
		wantCode(t, err, models.CodeRevisionConflict)
		rec.want(t)
	})

	t.Run("OnceForConcurrentWriters", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		rec := listen(t, s)
		var wg sync.WaitGroup
		for range 6 {
			wg.Go(func() {
				// One writer wins; the others lose the race (conflict) after retries.
				_, _ = s.Mutate(ctx(t), "t1", task.ID, "", BumpAt(task.Revision, "", ""))
			})
		}
		wg.Wait()
		rec.want(t, note(task, task.Revision+1))
	})

	t.Run("CreateOnlyWhenCreated", func(t *testing.T) {
		rec := listen(t, s)
		c := NewTask(TaskOpts{}, time.Time{})
		task := createChange(t, s, c, true)
		createChange(t, s, c, false)
		rec.want(t, note(task, 1))
	})

	t.Run("HealthOnlyWhenWritten", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		closed := CreateTask(t, s, TaskOpts{Status: models.StatusCompleted})
		rec := listen(t, s)
		h := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthStaleTransition, Message: "check"}
		mustOK(t, s.SetHealth(ctx(t), "t1", task.ID, h))
		mustOK(t, s.ClearHealth(ctx(t), "t1", task.ID, models.HealthResumeDeliveryFailing)) // another code: kept
		mustOK(t, s.ClearHealth(ctx(t), "t1", task.ID, models.HealthStaleTransition))
		mustOK(t, s.SetHealth(ctx(t), "t1", closed.ID, h)) // terminal: left alone
		// Health does not bump the revision: both notes carry the task's unchanged revision.
		rec.want(t, note(task, task.Revision), note(task, task.Revision))
	})

	t.Run("NotOnAppendedEvent", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		rec := listen(t, s)
		_, err := s.AppendEvent(ctx(t), "t1", task.ID, func(now time.Time, cur models.Task) (models.Event, error) {
			return models.Event{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, Seq: cur.LastEventSeq + 1,
				Revision: cur.Revision, Type: models.EventFieldRevealed, OccurredAt: now, Metadata: []byte(`{"fieldKey":"iban"}`)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		rec.want(t)
	})
}
