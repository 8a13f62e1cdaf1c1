package repository_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
)

// scaleDeadlineReads gives an eighth of the scale tenants' open tasks a pending deadline (issue
// 30's target is a tenth): most due in a week, those whose id ends in "00" (one in 256) due an
// hour ago, the ones a sweep finds. It returns the due sweep's deadline walk, a first page and
// the page after it, for the scale test to explain and time. A page is the sweep's own
// (workers.SweepOptions.PageSize's default, models.MaxPageSize): issue 30 budgets one sweep page.
func scaleDeadlineReads(t *testing.T, ctx context.Context, s *repository.Store, db *sql.DB, d migrations.Dialect) []scaleRead {
	t.Helper()
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	insert := func(idx int, due time.Time, which string) {
		q := "INSERT INTO user_task_deadlines (tenant_id, task_id, idx, kind, due_at, actions_json, state, created_at)" +
			" SELECT tenant_id, id, ?, 'completion', ?, '[{\"type\":\"flag\"}]', 'pending', created_at FROM user_tasks" +
			" WHERE status IN ('Unassigned', 'Available', 'Assigned') AND (" + which + ")"
		if d == migrations.Postgres {
			q = "INSERT INTO user_task_deadlines (tenant_id, task_id, idx, kind, due_at, actions_json, state, created_at)" +
				" SELECT tenant_id, id, $1, 'completion', $2, '[{\"type\":\"flag\"}]', 'pending', created_at FROM user_tasks" +
				" WHERE status IN ('Unassigned', 'Available', 'Assigned') AND (" + which + ")"
		}
		if _, err := db.ExecContext(ctx, q, idx, due.UTC().Truncate(time.Microsecond)); err != nil {
			t.Fatalf("seed deadlines: %v", err)
		}
	}
	insert(0, now.Add(7*24*time.Hour), "id LIKE '%0' OR id LIKE '%1'")
	insert(1, now.Add(-time.Hour), "id LIKE '%00'")
	analyze := map[migrations.Dialect]string{migrations.SQLite: "ANALYZE", migrations.Postgres: "ANALYZE user_task_deadlines",
		migrations.MySQL: "ANALYZE TABLE user_task_deadlines"}[d]
	if _, err := db.ExecContext(ctx, analyze); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	var rows, due int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*), SUM(CASE WHEN idx = 1 THEN 1 ELSE 0 END) FROM user_task_deadlines").Scan(&rows, &due); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d deadlines, %d of them due", rows, due)
	var after *models.DeadlineKey
	return []scaleRead{
		{"due deadlines", func() error {
			page, err := s.DueDeadlines(ctx, models.MaxPageSize, nil)
			if err == nil && len(page) > 0 {
				k := page[len(page)-1].Key()
				after = &k
			}
			return err
		}},
		{"due deadlines, next page", func() error { _, err := s.DueDeadlines(ctx, models.MaxPageSize, after); return err }},
	}
}
