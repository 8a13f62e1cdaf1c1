package storetest

import (
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

func transitionalTasks(t *testing.T, s store.Store, n int) []string {
	t.Helper()
	var ids []string
	for i := 0; i < n; i++ {
		task := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
		if _, err := s.Mutate(ctx(t), "t1", task.ID, "", transition(models.StatusCompleting, "")); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, task.ID)
	}
	return ids
}

func testLeases(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})

	t.Run("ConcurrentClaimsAreDisjoint", func(t *testing.T) {
		ids := transitionalTasks(t, s, 6)
		var mu sync.Mutex
		seen := map[string]string{}
		var wg sync.WaitGroup
		for _, owner := range []string{"node-a", "node-b", "node-c"} {
			wg.Add(1)
			go func(owner string) {
				defer wg.Done()
				rows, err := s.ClaimResumptions(ctx(t), owner, 4, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				for _, r := range rows {
					if prev, dup := seen[r.ID]; dup {
						t.Errorf("row %s claimed by %s and %s", r.ID, prev, owner)
					}
					seen[r.ID] = owner
				}
			}(owner)
		}
		wg.Wait()
		// InnoDB's SKIP LOCKED skips the rows another claim's scan locked without taking
		// them: nothing is claimed twice, and what the round left the next claim takes.
		rest, err := s.ClaimResumptions(ctx(t), "node-d", len(ids), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rest {
			if prev, dup := seen[r.ID]; dup {
				t.Errorf("row %s claimed by %s and node-d", r.ID, prev)
			}
			seen[r.ID] = "node-d"
		}
		if len(seen) != len(ids) {
			t.Fatalf("%d rows claimed, want %d", len(seen), len(ids))
		}
		clock.Advance(2 * time.Minute) // let those leases lapse for the next cases
		rows, err := s.ClaimResumptions(ctx(t), "sweeper", 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if err := s.AckResumption(ctx(t), r); err != nil {
				t.Fatalf("ack: %v", err)
			}
		}
	})

	t.Run("StaleLeaseCannotAcknowledge", func(t *testing.T) {
		transitionalTasks(t, s, 1)
		first, err := s.ClaimResumptions(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(first) != 1 {
			t.Fatalf("claim: %d rows, %v", len(first), err)
		}
		if again, _ := s.ClaimResumptions(ctx(t), "node-b", 10, time.Minute); len(again) != 0 {
			t.Fatalf("a live lease was claimed again")
		}
		clock.Advance(90 * time.Second)
		second, err := s.ClaimResumptions(ctx(t), "node-b", 10, time.Minute)
		if err != nil || len(second) != 1 || second[0].ID != first[0].ID {
			t.Fatalf("reclaim after expiry: %+v, %v", second, err)
		}
		if second[0].Lease.Generation <= first[0].Lease.Generation {
			t.Fatalf("generation %d did not grow from %d", second[0].Lease.Generation, first[0].Lease.Generation)
		}
		wantIs(t, s.AckResumption(ctx(t), first[0]), models.ErrLeaseLost)
		if _, err := s.RetryResumption(ctx(t), first[0], time.Second, "x"); err != models.ErrLeaseLost {
			t.Fatalf("stale retry: %v, want ErrLeaseLost", err)
		}
		if err := s.AckResumption(ctx(t), second[0]); err != nil {
			t.Fatalf("live ack: %v", err)
		}
		wantIs(t, s.AckResumption(ctx(t), second[0]), models.ErrLeaseLost) // acknowledged once only
	})

	t.Run("RetryBacksOff", func(t *testing.T) {
		ids := transitionalTasks(t, s, 1)
		rows, err := s.ClaimResumptions(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(rows) != 1 {
			t.Fatalf("claim: %d rows, %v", len(rows), err)
		}
		attempts, err := s.RetryResumption(ctx(t), rows[0], 30*time.Second, "http-503")
		if err != nil || attempts != 1 {
			t.Fatalf("retry: %d, %v", attempts, err)
		}
		if early, _ := s.ClaimResumptions(ctx(t), "node-a", 10, time.Minute); len(early) != 0 {
			t.Fatalf("row claimable before its back-off ended")
		}
		clock.Advance(31 * time.Second)
		later, err := s.ClaimResumptions(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(later) != 1 || later[0].Attempts != 1 || later[0].LastError != "http-503" {
			t.Fatalf("claim after back-off: %+v, %v", later, err)
		}
		if later[0].TaskID != ids[0] {
			t.Fatalf("claimed task %s, want %s", later[0].TaskID, ids[0])
		}
		if err := s.AckResumption(ctx(t), later[0]); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("FinalizedTaskIsNotDelivered", func(t *testing.T) {
		ids := transitionalTasks(t, s, 1)
		if _, err := s.Mutate(ctx(t), "t1", ids[0], "", transition(models.StatusCompleted, "")); err != nil {
			t.Fatal(err)
		}
		if rows, _ := s.ClaimResumptions(ctx(t), "node-a", 10, time.Minute); len(rows) != 0 {
			t.Fatalf("claimed %d rows of a finalized task", len(rows))
		}
	})

	t.Run("NamedLease", func(t *testing.T) {
		a, err := s.AcquireLease(ctx(t), "reconcile:t1", "node-a", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcquireLease(ctx(t), "reconcile:t1", "node-b", time.Minute); err != models.ErrLeaseLost {
			t.Fatalf("second holder: %v, want ErrLeaseLost", err)
		}
		if a, err = s.RenewLease(ctx(t), "reconcile:t1", a, time.Minute); err != nil {
			t.Fatalf("renew: %v", err)
		}
		clock.Advance(2 * time.Minute)
		b, err := s.AcquireLease(ctx(t), "reconcile:t1", "node-b", time.Minute)
		if err != nil || b.Generation != a.Generation+1 {
			t.Fatalf("take over: %+v, %v", b, err)
		}
		if _, err := s.RenewLease(ctx(t), "reconcile:t1", a, time.Minute); err != models.ErrLeaseLost {
			t.Fatalf("stale renew: %v, want ErrLeaseLost", err)
		}
		if err := s.ReleaseLease(ctx(t), "reconcile:t1", b); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcquireLease(ctx(t), "reconcile:t1", "node-a", time.Minute); err != nil {
			t.Fatalf("acquire after release: %v", err)
		}
	})
}
