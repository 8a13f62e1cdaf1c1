package repository_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// TestDailyRollupClaimsSpreadOverStripes claims many tasks of one workflow at once, all on one
// day: on the dialects with parallel writers the claims land on more than one stripe of the
// claimed counter (migration 00012), on SQLite on its one stripe, and the stripes and the
// dashboard's sum count every claim exactly once.
func TestDailyRollupClaimsSpreadOverStripes(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		const n = 24
		ctx := context.Background()
		ann := models.Actor{Tenant: "t1", Subject: storetest.User("t1", "ann"), DisplayName: "Ann",
			Permissions: []string{"user-tasks:*"}}
		var tasks []models.Task
		for i := 0; i < n; i++ {
			tasks = append(tasks, storetest.CreateTask(t, s, storetest.TaskOpts{CandidateUsers: []string{"ann"}, WorkflowDef: "loan"}))
		}
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i, task := range tasks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				op := fmt.Sprintf("claim-%d", i)
				_, errs[i] = s.Mutate(ctx, "t1", task.ID, op, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
					return models.Claim(cur, models.Command{OperationID: op, ExpectedRevision: cur.Revision, Actor: ann, Prior: prior}, now)
				})
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("claim %d: %v", i, err)
			}
		}

		db, err := s.DB()
		if err != nil {
			t.Fatal(err)
		}
		q := "SELECT stripe, event_count FROM user_task_daily_stats WHERE tenant_id = 't1' AND metric = 'claimed'"
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		stripes, sum := map[int]bool{}, int64(0)
		for rows.Next() {
			var stripe int
			var count int64
			if err := rows.Scan(&stripe, &count); err != nil {
				t.Fatal(err)
			}
			stripes[stripe], sum = true, sum+count
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if sum != n {
			t.Fatalf("the claimed stripes count %d, want %d", sum, n)
		}
		if s.Dialect() == migrations.SQLite {
			if len(stripes) != 1 || !stripes[0] {
				t.Fatalf("claims on SQLite landed on stripes %v, want only stripe 0", stripes)
			}
		} else if len(stripes) < 2 {
			// 24 task ids on one of 16 stripes each: all on one has probability 16^-23.
			t.Fatalf("%d claims landed on stripes %v, want them spread", n, stripes)
		}
		r, err := s.DailyRollup(ctx, "t1", "0000-01-01")
		if err != nil {
			t.Fatal(err)
		}
		var byDay, byFlow int64
		for _, st := range r.ByDay {
			if st.Metric == models.MetricClaimed {
				byDay += st.Count
			}
		}
		for _, st := range r.ByWorkflow {
			if st.Metric == models.MetricClaimed {
				byFlow += st.Count
			}
		}
		if byDay != n || byFlow != n {
			t.Fatalf("the dashboard sums %d claims by day and %d by workflow, want %d", byDay, byFlow, n)
		}
	})
}
