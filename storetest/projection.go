package storetest

import (
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

func testProjection(t *testing.T, h Harness) {
	s := h.open(t, Options{})

	t.Run("IdempotentByMaterializationKey", func(t *testing.T) {
		first := NewTask(TaskOpts{CandidateUsers: []string{"ann"}}, time.Time{})
		a := createChange(t, s, first, true)
		again := NewTask(TaskOpts{WorkflowInst: first.Task.Workflow.InstanceID, ActivityID: first.Task.Workflow.ActivityInstanceID}, time.Time{})
		again.Task.MaterializationKey = first.Task.MaterializationKey
		b := createChange(t, s, again, false)
		if a.ID != b.ID {
			t.Fatalf("second delivery made task %s, want the existing %s", b.ID, a.ID)
		}
	})
	t.Run("IdempotentByBookmarkID", func(t *testing.T) {
		first := NewTask(TaskOpts{CandidateUsers: []string{"ann"}}, time.Time{})
		a := createChange(t, s, first, true)
		again := NewTask(TaskOpts{BookmarkID: first.Task.Workflow.BookmarkID}, time.Time{})
		b := createChange(t, s, again, false)
		if a.ID != b.ID {
			t.Fatalf("second delivery made task %s, want the existing %s", b.ID, a.ID)
		}
	})
	t.Run("ConcurrentDuplicateDelivery", func(t *testing.T) {
		base := NewTask(TaskOpts{CandidateUsers: []string{"ann", "bob"}, CandidateGroups: []string{"ops"},
			SnapshotMembers: map[string][]string{"audit": {"cy", "dee"}}, Excluded: []string{"eve"}}, time.Time{})
		const n = 8
		var wg sync.WaitGroup
		ids := make([]string, n)
		createdFlags := make([]bool, n)
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				c := base
				c.Task.ID = models.NewID() // every delivery mints its own id; only one may land
				ev := *base.Event
				ev.TaskID, ev.ID = c.Task.ID, models.NewID()
				c.Event = &ev
				task, created, err := s.Create(ctx(t), "t1", c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, stamp(c))
				ids[i], createdFlags[i], errs[i] = task.ID, created, err
			}(i)
		}
		wg.Wait()
		createdCount := 0
		for i := 0; i < n; i++ {
			if errs[i] != nil {
				t.Fatalf("delivery %d: %v", i, errs[i])
			}
			if ids[i] != ids[0] {
				t.Fatalf("delivery %d returned task %s, delivery 0 returned %s", i, ids[i], ids[0])
			}
			if createdFlags[i] {
				createdCount++
			}
		}
		if createdCount != 1 {
			t.Fatalf("%d deliveries reported created, want exactly 1", createdCount)
		}
		got := mustGet(t, s, "t1", ids[0])
		if len(got.Assignment.Candidates) != 5 || len(got.Assignment.Exclusions) != 1 {
			t.Fatalf("candidates %d exclusions %d, want 5 and 1 (no duplicate rows)", len(got.Assignment.Candidates), len(got.Assignment.Exclusions))
		}
		if evs := mustEvents(t, s, "t1", ids[0]); len(evs) != 1 {
			t.Fatalf("%d events, want one created event", len(evs))
		}
	})
	t.Run("DuplicateCandidateRowsCollapse", func(t *testing.T) {
		c := NewTask(TaskOpts{CandidateUsers: []string{"ann", "ann"}, Excluded: []string{"x", "x"}}, time.Time{})
		task := createChange(t, s, c, true)
		got := mustGet(t, s, "t1", task.ID)
		if len(got.Assignment.Candidates) != 1 || len(got.Assignment.Exclusions) != 1 {
			t.Fatalf("candidates %d exclusions %d, want 1 and 1", len(got.Assignment.Candidates), len(got.Assignment.Exclusions))
		}
	})
	t.Run("FailedUnitOfWorkWritesNothing", func(t *testing.T) {
		c := NewTask(TaskOpts{CandidateUsers: []string{"ann"}, Tags: []string{"x"}}, time.Time{})
		c.Event.Metadata = []byte(`{"pad":"` + strings.Repeat("a", models.MaxEventMetadataBytes) + `"}`)
		_, _, err := s.Create(ctx(t), "t1", c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, stamp(c))
		wantCode(t, err, models.CodePayloadTooLarge)
		if _, err := s.FindByMaterializationKey(ctx(t), "t1", c.Task.MaterializationKey); err == nil {
			t.Fatalf("the task of a failed creation was written")
		}
		// The same keys are free: the failed attempt left no task, tag, candidate or counter behind.
		c.Event.Metadata = nil
		createChange(t, s, c, true)
	})
}

// stamp returns a BuildFunc that stamps a prepared change with the database time.
func stamp(c models.Change) func(now time.Time) (models.Change, error) {
	return func(now time.Time) (models.Change, error) {
		out := c
		out.Task.CreatedAt, out.Task.UpdatedAt = now, now
		if out.Event != nil {
			ev := *out.Event
			ev.OccurredAt = now
			out.Event = &ev
		}
		return out, nil
	}
}

func createChange(t *testing.T, s store.Store, c models.Change, wantCreated bool) models.Task {
	t.Helper()
	task, created, err := s.Create(ctx(t), c.Task.Tenant, c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, stamp(c))
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if created != wantCreated {
		t.Fatalf("created = %v, want %v", created, wantCreated)
	}
	return task
}
