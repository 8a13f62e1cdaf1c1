package workers_test

import (
	"context"
	"fmt"
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

// The due sweep folds the rollup's closed days (SweepStore.FoldDailyStats), once per FoldEvery per process.
func TestSweepFoldsTheRollupsClosedDays(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		s := db.open(t, nil)
		now, _ := s.Now(t.Context())
		closed := now.Add(-72 * time.Hour).UTC().Format(time.DateOnly)
		conn, err := wkSQL(t, s).DB()
		if err != nil {
			t.Fatal(err)
		}
		for _, stripe := range []int{0, 5, 11} {
			_, err := conn.ExecContext(t.Context(), fmt.Sprintf("INSERT INTO user_task_daily_stats (tenant_id, stat_day, "+
				"workflow_definition_id, metric, bucket, stripe, event_count, updated_at) "+
				"VALUES ('t1', '%s', 'loan', 'claimed', 0, %d, 2, '2026-01-01 00:00:00')", closed, stripe))
			if err != nil {
				t.Fatal(err)
			}
		}
		log, _ := wkLogger(t)
		sweeper := workers.NewDueSweeper(&wkNode{Store: s}, workers.SweepOptions{Logger: log})
		for i, want := range []int{2, 0} {
			res, err := sweeper.RunOnce(t.Context())
			if err != nil || res.FoldedStats != want {
				t.Fatalf("sweep %d folded %d stripe rows (%v), want %d", i, res.FoldedStats, err, want)
			}
		}
		var rows, sum int
		if err := conn.QueryRowContext(t.Context(), "SELECT COUNT(*), SUM(event_count) FROM user_task_daily_stats").Scan(&rows, &sum); err != nil {
			t.Fatal(err)
		}
		if rows != 1 || sum != 6 {
			t.Fatalf("%d rollup rows summing to %d after the fold, want 1 summing to 6", rows, sum)
		}
	})
}
