package storetest

import (
	"sync"
	"testing"

	"usertasks/models"
)

// testNotificationOnce checks the key (tenant, task, trigger, revision, recipient): a second
// write of a key is skipped, never an error, whoever writes it and however many race.
func testNotificationOnce(t *testing.T, h Harness) {
	t.Run("SecondWriteSkipped", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{})
		now := storeNow(t, s)
		first := newNote(task, models.TriggerDueSoon, 1700000000, User("t1", "ann"), now)
		addNotes(t, s, 1, first)
		again := first
		again.ID = models.NewID()
		addNotes(t, s, 0, again)
		addNotes(t, s, 0, first) // the same row, id and all
		rows := drain(t, s)
		wantKeys(t, "after three writes of one key", rows, "due-soon user:ann r1700000000")
		if rows[0].ID != first.ID {
			t.Fatalf("the row kept id %s, want the first write's %s", rows[0].ID, first.ID)
		}
	})
	t.Run("EveryPartOfTheKeyCounts", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{})
		other := CreateTask(t, s, TaskOpts{})
		now := storeNow(t, s)
		base := newNote(task, models.TriggerDueSoon, 10, User("t1", "ann"), now)
		addNotes(t, s, 1, base)
		otherProvider := User("t1", "ann")
		otherProvider.Provider = "corp"
		addNotes(t, s, 5,
			newNote(task, models.TriggerDueSoon, 11, User("t1", "ann"), now),
			newNote(task, models.TriggerOverdue, 10, User("t1", "ann"), now),
			newNote(other, models.TriggerDueSoon, 10, User("t1", "ann"), now),
			newNote(task, models.TriggerDueSoon, 10, User("t1", "ANN"), now), // ids are case-sensitive
			newNote(task, models.TriggerDueSoon, 10, otherProvider, now),
		)
		if got := len(drain(t, s)); got != 6 {
			t.Fatalf("%d rows, want 6", got)
		}
	})
	t.Run("DuplicateWithinOneBatch", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{})
		now := storeNow(t, s)
		a := newNote(task, models.TriggerDueSoon, 5, User("t1", "ann"), now)
		b := a
		b.ID = models.NewID()
		addNotes(t, s, 2, a, b, newNote(task, models.TriggerDueSoon, 5, User("t1", "bob"), now))
		wantKeys(t, "one batch", drain(t, s), "due-soon user:ann r5", "due-soon user:bob r5")
	})
	t.Run("KeyTheChangeWroteSkipped", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		now := storeNow(t, s)
		addNotes(t, s, 0, newNote(task, models.TriggerTaskAvailable, int64(task.Revision), User("t1", "ann"), now))
		wantKeys(t, "the change's row only", drain(t, s), "task-available user:ann r1")
	})
	t.Run("RacingWritersOneRowPerKey", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{})
		now := storeNow(t, s)
		recipients := []string{"ann", "bob", "cy", "dan", hostileID}
		const writers = 8
		var wg sync.WaitGroup
		wrote := make([]int, writers)
		errs := make([]error, writers)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				var ns []models.Notification
				for _, id := range recipients { // each node mints its own ids for the same keys
					ns = append(ns, newNote(task, models.TriggerDueSoon, 42, User("t1", id), now))
				}
				wrote[w], errs[w] = s.AddNotifications(ctx(t), ns)
			}(w)
		}
		wg.Wait()
		total := 0
		for w := range writers {
			if errs[w] != nil {
				t.Fatalf("writer %d: %v", w, errs[w])
			}
			total += wrote[w]
		}
		if total != len(recipients) {
			t.Fatalf("the writers report %d rows written, want %d", total, len(recipients))
		}
		rows := drain(t, s)
		if len(rows) != len(recipients) {
			t.Fatalf("%d rows stored, want %d: %q", len(rows), len(recipients), noteKeys(rows))
		}
		for _, n := range rows {
			if n.Recipient.ID == hostileID {
				return
			}
		}
		t.Fatalf("the hostile recipient id did not round-trip: %q", noteKeys(rows))
	})
}
