package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"usertasks/models"
)

func testMutation(t *testing.T, h Harness) {
	s := h.open(t, Options{})

	t.Run("ConcurrentWritersOneApplied", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		const n = 10
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				_, errs[i] = s.Mutate(ctx(t), "t1", task.ID, "", BumpAt(task.Revision, "", ""))
			}(i)
		}
		wg.Wait()
		applied, conflicts := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				applied++
			case models.ErrorCode(err) == models.CodeRevisionConflict:
				conflicts++
			default:
				t.Fatalf("unexpected error: %v", err)
			}
		}
		if applied != 1 || conflicts != n-1 {
			t.Fatalf("applied %d conflicts %d, want 1 and %d", applied, conflicts, n-1)
		}
		got := mustGet(t, s, "t1", task.ID)
		if got.Revision != task.Revision+1 {
			t.Fatalf("revision %d, want %d", got.Revision, task.Revision+1)
		}
		if evs := mustEvents(t, s, "t1", task.ID); len(evs) != 2 {
			t.Fatalf("%d events, want created + one change", len(evs))
		}
	})

	t.Run("ReplaySameHashAfterRevisionMoved", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		first, err := s.Mutate(ctx(t), "t1", task.ID, "op-1", BumpAt(task.Revision, "op-1", "hash-a"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Mutate(ctx(t), "t1", task.ID, "", BumpAt(task.Revision+1, "", "")); err != nil {
			t.Fatal(err)
		}
		again, err := s.Mutate(ctx(t), "t1", task.ID, "op-1", BumpAt(task.Revision, "op-1", "hash-a"))
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		if again.Replay == nil || string(again.Replay.Result) != string(first.Operation.Result) {
			t.Fatalf("replay answered %+v, want the original result %s", again.Replay, first.Operation.Result)
		}
		if got := mustGet(t, s, "t1", task.ID); got.Revision != task.Revision+2 {
			t.Fatalf("a replay changed the task: revision %d", got.Revision)
		}
	})

	t.Run("ReplayTheDecisionWouldAccept", func(t *testing.T) {
		// Bump checks no revision, so a repeated command is accepted by the decision on the
		// task as it stands: only the stored operation can make it a replay (a store may look
		// the id up first, or learn of it from the operation's unique key and decide again).
		task := CreateTask(t, s, TaskOpts{})
		first, err := s.Mutate(ctx(t), "t1", task.ID, "op-again", Bump("op-again", "hash-a"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.Mutate(ctx(t), "t1", task.ID, "op-again", Bump("op-again", "hash-a"))
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		if again.Replay == nil || string(again.Replay.Result) != string(first.Operation.Result) {
			t.Fatalf("replay answered %+v, want the original result %s", again.Replay, first.Operation.Result)
		}
		_, err = s.Mutate(ctx(t), "t1", task.ID, "op-again", Bump("op-again", "hash-b"))
		wantCode(t, err, models.CodeIdempotencyConflict)
		got := mustGet(t, s, "t1", task.ID)
		if got.Revision != task.Revision+1 || got.LastEventSeq != task.LastEventSeq+1 {
			t.Fatalf("the repeated command was applied again: revision %d, event seq %d", got.Revision, got.LastEventSeq)
		}
	})

	t.Run("ErrIdempotencyConflictDifferentHash", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		if _, err := s.Mutate(ctx(t), "t1", task.ID, "op-2", BumpAt(task.Revision, "op-2", "hash-a")); err != nil {
			t.Fatal(err)
		}
		_, err := s.Mutate(ctx(t), "t1", task.ID, "op-2", BumpAt(task.Revision, "op-2", "hash-b"))
		wantCode(t, err, models.CodeIdempotencyConflict)
	})

	t.Run("ConcurrentReplaysOneOperation", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		const n = 20
		var wg sync.WaitGroup
		results := make([]string, n)
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				c, err := s.Mutate(ctx(t), "t1", task.ID, "op-same", BumpAt(task.Revision, "op-same", "hash-same"))
				errs[i] = err
				switch {
				case c.Replay != nil:
					results[i] = string(c.Replay.Result)
				case c.Operation != nil:
					results[i] = string(c.Operation.Result)
				}
			}(i)
		}
		wg.Wait()
		for i := 0; i < n; i++ {
			if errs[i] != nil {
				t.Fatalf("attempt %d: %v", i, errs[i])
			}
			if results[i] != results[0] || results[i] == "" {
				t.Fatalf("attempt %d answered %q, attempt 0 %q", i, results[i], results[0])
			}
		}
		if got := mustGet(t, s, "t1", task.ID); got.Revision != task.Revision+1 {
			t.Fatalf("revision %d, want %d", got.Revision, task.Revision+1)
		}
		if evs := mustEvents(t, s, "t1", task.ID); len(evs) != 2 {
			t.Fatalf("%d events, want 2", len(evs))
		}
	})

	t.Run("FailedUnitOfWorkWritesNothing", func(t *testing.T) {
		h.differs(t)
		task := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
		taken, err := s.Mutate(ctx(t), "t1", task.ID, "", transition(models.StatusCompleting, "op-a"))
		if err != nil {
			t.Fatal(err)
		}
		other := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "bob"))})
		_, err = s.Mutate(ctx(t), "t1", other.ID, "", transitionReusingOutboxID("op-b", taken.Resumption.ID))
		if err == nil {
			t.Fatalf("a unit with a duplicate outbox key committed")
		}
		got := mustGet(t, s, "t1", other.ID)
		if got.Revision != other.Revision || got.Status != models.StatusAssigned {
			t.Fatalf("task changed to %s rev %d by a failed unit", got.Status, got.Revision)
		}
		if evs := mustEvents(t, s, "t1", other.ID); len(evs) != 1 {
			t.Fatalf("%d events after a failed unit, want 1", len(evs))
		}
		if _, err := s.Operation(ctx(t), "t1", other.ID, "op-b"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("operation of a failed unit: %v, want not found", err)
		}
	})

	t.Run("TransitionWritesOutboxAndFinalizeSettles", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann")), CandidateUsers: []string{"ann"}})
		_, err := s.Mutate(ctx(t), "t1", task.ID, "op-c", transition(models.StatusCompleting, "op-c"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := s.Resumptions(ctx(t), "t1", task.ID)
		if err != nil || len(rows) != 1 || rows[0].State != models.DeliveryPending || rows[0].OperationID != "op-c" {
			t.Fatalf("outbox rows %+v, %v; want one pending row for op-c", rows, err)
		}
		op, err := s.Operation(ctx(t), "t1", task.ID, "op-c")
		if err != nil || op.State != models.OperationAccepted || string(op.Payload) != `{"approved":true}` {
			t.Fatalf("operation %+v, %v; want accepted with its protected payload", op, err)
		}
		got := mustGet(t, s, "t1", task.ID)
		if got.Status != models.StatusCompleting || string(got.Protected.CompletionData) != `{"approved":true}` {
			t.Fatalf("task %s completion %s", got.Status, got.Protected.CompletionData)
		}
		if _, err := s.Mutate(ctx(t), "t1", task.ID, "", transition(models.StatusCompleted, "")); err != nil {
			t.Fatal(err)
		}
		rows, _ = s.Resumptions(ctx(t), "t1", task.ID)
		if len(rows) != 1 || rows[0].State != models.DeliverySettled {
			t.Fatalf("outbox rows %+v, want the row settled", rows)
		}
		op, _ = s.Operation(ctx(t), "t1", task.ID, "op-c")
		if op.State != models.OperationCompleted || op.CompletedAt == nil {
			t.Fatalf("operation %s, want completed", op.State)
		}
		// loadTask checks the candidate status copies against the task: reading it back proves
		// they followed the status.
		if got := mustGet(t, s, "t1", task.ID); got.Status != models.StatusCompleted {
			t.Fatalf("status %s", got.Status)
		}
	})

	t.Run("ErrNotFoundOtherTenant", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		_, err := s.Mutate(ctx(t), "t2", task.ID, "", BumpAt(task.Revision, "", ""))
		wantIs(t, err, models.ErrNotFound)
	})

	t.Run("DecisionErrorWritesNothing", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{})
		_, err := s.Mutate(ctx(t), "t1", task.ID, "", func(time.Time, models.Task, *models.Operation) (models.Change, error) {
			return models.Change{}, models.Invalid(models.CodeReasonRequired)
		})
		wantCode(t, err, models.CodeReasonRequired)
		if got := mustGet(t, s, "t1", task.ID); got.Revision != task.Revision {
			t.Fatalf("revision moved to %d", got.Revision)
		}
	})
}

func ptr[T any](v T) *T { return &v }
