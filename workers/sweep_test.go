package workers_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/workers"
)

// wkNoLease grants every lease, so two sweepers run at the same time: only the revision
// compare-and-swap stands between them and a double write.
type wkNoLease struct{ *wkNode }

func (wkNoLease) AcquireLease(_ context.Context, _, owner string, ttl time.Duration) (models.Lease, error) {
	return models.Lease{Owner: owner, Token: models.NewID(), Generation: 1, ExpiresAt: time.Now().Add(ttl)}, nil
}

func (wkNoLease) RenewLease(_ context.Context, _ string, l models.Lease, _ time.Duration) (models.Lease, error) {
	return l, nil
}

func (wkNoLease) ReleaseLease(context.Context, string, models.Lease) error { return nil }

// Two sweepers racing over the same due tasks request each timeout and flag each overdue task
// exactly once; the loser of every race skips the task.
func TestSweepRacingNodesWriteOnce(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		a, b := &wkNode{Store: db.open(t, nil)}, &wkNode{Store: db.open(t, nil)}
		now, _ := a.Now(t.Context())
		past := now.Add(-time.Second)
		var tasks []models.Task
		for i := range 40 {
			tasks = append(tasks, wkProject(t, a.Store, wkTaskOpts{DueAt: &past, Timeout: i%2 == 0}))
		}
		log, _ := wkLogger(t)
		var results [2]workers.SweepResult
		var wg sync.WaitGroup
		for i, n := range []*wkNode{a, b} {
			s := workers.NewDueSweeper(wkNoLease{n}, workers.SweepOptions{PageSize: 3, Logger: log})
			wg.Go(func() {
				res, err := s.RunOnce(t.Context())
				if err != nil {
					t.Errorf("sweeper %d: %v", i, err)
				}
				results[i] = res
			})
		}
		wg.Wait()
		for _, task := range tasks {
			got := wkGet(t, a.Store, "t1", task.ID)
			events := wkEventCount(t, a.Store, "t1", task.ID, models.EventTimeoutRequested, models.EventOverdue)
			rows, _ := a.Resumptions(t.Context(), "t1", task.ID)
			switch {
			case events != 1:
				t.Errorf("task %s: %d due events, want 1", task.ID, events)
			case task.TimeoutEnabled && (got.Status != models.StatusTimingOut || len(rows) != 1):
				t.Errorf("task %s: %s with %d outbox rows", task.ID, got.Status, len(rows))
			case !task.TimeoutEnabled && (!got.IsOverdue || len(rows) != 0):
				t.Errorf("task %s: overdue %v with %d outbox rows", task.ID, got.IsOverdue, len(rows))
			}
		}
		done := results[0].TimedOut + results[1].TimedOut + results[0].Overdue + results[1].Overdue
		if done != 40 {
			t.Errorf("results %+v: %d changes, want 40", results, done)
		}
		t.Logf("%s: sweeper a %+v, sweeper b %+v", db.name, results[0], results[1])
	})
}
