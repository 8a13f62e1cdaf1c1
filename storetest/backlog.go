package storetest

import (
	"testing"
	"time"

	"usertasks/testfactory"
)

// testBacklog checks the outbox counts the metrics read: pending resumptions and the age of
// the most overdue one, pending, retrying and abandoned deliveries.
func testBacklog(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})

	t.Run("Empty", func(t *testing.T) {
		b, err := s.Backlog(ctx(t))
		if err != nil || b.ResumptionsPending != 0 || !b.OldestResumptionDue.IsZero() || b.DeliveriesPending != 0 || b.Now.IsZero() {
			t.Fatalf("got %+v, %v", b, err)
		}
	})
	t.Run("Counts", func(t *testing.T) {
		transitionalTasks(t, s, 2)
		clock.Advance(90 * time.Second)
		transitionalTasks(t, s, 1)
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		issue(t, s, task, "raw-backlog-token-1")
		issue(t, s, task, "raw-backlog-token-2")
		claimed, err := s.ClaimDeliveries(ctx(t), "node-a", 1, time.Minute)
		if err != nil || len(claimed) != 1 {
			t.Fatalf("claim: %v %v", claimed, err)
		}
		if _, err := s.RetryDelivery(ctx(t), claimed[0], time.Second, "smtp-421", false); err != nil {
			t.Fatal(err)
		}
		b, err := s.Backlog(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Now.Sub(b.OldestResumptionDue); b.ResumptionsPending != 3 || got < 90*time.Second || got > time.Hour {
			t.Fatalf("resumptions %d, oldest due %v ago", b.ResumptionsPending, got)
		}
		if b.DeliveriesPending != 2 || b.DeliveriesRetrying != 1 || b.DeliveriesAbandoned != 0 {
			t.Fatalf("deliveries %+v", b)
		}
		clock.Advance(2 * time.Second)
		claimed, err = s.ClaimDeliveries(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(claimed) != 2 {
			t.Fatalf("claim: %v %v", claimed, err)
		}
		if _, err := s.RetryDelivery(ctx(t), claimed[0], time.Second, "smtp-550", true); err != nil {
			t.Fatal(err)
		}
		if err := s.AckDelivery(ctx(t), claimed[1]); err != nil {
			t.Fatal(err)
		}
		if b, err = s.Backlog(ctx(t)); err != nil || b.DeliveriesPending != 0 || b.DeliveriesAbandoned != 1 {
			t.Fatalf("after abandon and ack: %+v, %v", b, err)
		}
	})
	t.Run("NoPendingAfterDelivery", func(t *testing.T) {
		rows, err := s.ClaimResumptions(ctx(t), "node-a", 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if err := s.AckResumption(ctx(t), r); err != nil {
				t.Fatal(err)
			}
		}
		b, err := s.Backlog(ctx(t))
		if err != nil || b.ResumptionsPending != 0 || !b.OldestResumptionDue.IsZero() {
			t.Fatalf("got %+v, %v", b, err)
		}
	})
}
