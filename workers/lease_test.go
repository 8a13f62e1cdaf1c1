package workers_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/workers"
)

// wkRenewals counts the lease renewals of a node.
type wkRenewals struct {
	*wkNode
	renewed atomic.Int64
}

func (n *wkRenewals) RenewLease(ctx context.Context, name string, l models.Lease, ttl time.Duration) (models.Lease, error) {
	n.renewed.Add(1)
	return n.Store.RenewLease(ctx, name, l, ttl)
}

// A singleton job runs only under its lease: it is busy while another node holds the lease,
// renews the lease between pages, and gives it back when it is done.
func TestSweepLease(t *testing.T) {
	// withDue opens a store holding three tasks past their due date.
	withDue := func(t *testing.T) (*wkNode, []models.Task) {
		t.Helper()
		s := wkSQLite(t).open(t, nil)
		now, _ := s.Now(t.Context())
		past := now.Add(-time.Second)
		var due []models.Task
		for range 3 {
			due = append(due, wkProject(t, s, wkTaskOpts{DueAt: &past}))
		}
		return &wkNode{Store: s}, due
	}
	log, _ := wkLogger(t)

	t.Run("BusyWhileAnotherNodeHoldsIt", func(t *testing.T) {
		s, due := withDue(t)
		if _, err := s.AcquireLease(t.Context(), workers.SweepLease, "other-node", time.Minute); err != nil {
			t.Fatal(err)
		}
		res, err := workers.NewDueSweeper(s, workers.SweepOptions{Logger: log}).RunOnce(t.Context())
		if err != nil || !res.Busy || res.Overdue != 0 {
			t.Fatalf("sweep %+v, %v; want busy and nothing done", res, err)
		}
		if got := wkGet(t, s.Store, "t1", due[0].ID); got.IsOverdue {
			t.Fatal("a busy sweep flagged a task")
		}
	})

	t.Run("RenewedBetweenPagesReleasedAfter", func(t *testing.T) {
		s, due := withDue(t)
		node := &wkRenewals{wkNode: s}
		res, err := workers.NewDueSweeper(node, workers.SweepOptions{PageSize: 1, Logger: log}).RunOnce(t.Context())
		if err != nil || res.Busy || res.Overdue != len(due) {
			t.Fatalf("sweep %+v, %v; want %d tasks flagged", res, err, len(due))
		}
		if got := node.renewed.Load(); got != int64(len(due)) {
			t.Errorf("%d renewals, want one after each of the %d full pages", got, len(due))
		}
		if _, err := s.AcquireLease(t.Context(), workers.SweepLease, "next-node", time.Minute); err != nil {
			t.Errorf("lease still held after the sweep: %v", err)
		}
	})
}
