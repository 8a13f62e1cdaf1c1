package repository_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"usertasks/repository"
	"usertasks/testfactory"
)

// TestFoldDailyStats folds the stripes of a closed day into stripe 0 and leaves the sums, the
// open days and the days before the window alone; a second pass finds nothing.
func TestFoldDailyStats(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		now, err := s.Now(ctx)
		if err != nil {
			t.Fatal(err)
		}
		day := func(ago time.Duration) string { return now.Add(-ago).UTC().Format(time.DateOnly) }
		closed, open, old := day(72*time.Hour), day(0), day(30*24*time.Hour)
		db, err := s.DB()
		if err != nil {
			t.Fatal(err)
		}
		insert := func(day, metric string, stripe, n int) {
			t.Helper()
			q := fmt.Sprintf("INSERT INTO user_task_daily_stats (tenant_id, stat_day, workflow_definition_id, metric, bucket, stripe, "+
				"workflow_definition_name, event_count, updated_at) VALUES ('t1', '%s', 'loan', '%s', 1, %d, 'Loan', %d, '2026-01-01 00:00:00')",
				day, metric, stripe, n)
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		insert(closed, "claimed", 0, 5) // a counter with its stripe 0 …
		insert(closed, "claimed", 3, 2)
		insert(closed, "claimed", 7, 4)
		insert(closed, "completed", 2, 1) // … and one without
		insert(closed, "completed", 5, 1)
		insert(open, "claimed", 0, 1) // still written: left striped
		insert(open, "claimed", 4, 1)
		insert(old, "claimed", 9, 3) // before the window: left as it is

		before, err := s.DailyRollup(ctx, "t1", old)
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.FoldDailyStats(ctx)
		if err != nil || n != 4 {
			t.Fatalf("folded %d stripe rows (%v), want 4", n, err)
		}
		after, err := s.DailyRollup(ctx, "t1", old)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("folding changed the rollup:\nbefore %+v\nafter  %+v", before, after)
		}
		rows, err := db.QueryContext(ctx, "SELECT stat_day, metric, stripe, event_count FROM user_task_daily_stats "+
			"ORDER BY stat_day, metric, stripe")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var d, m string
			var stripe, count int
			if err := rows.Scan(&d, &m, &stripe, &count); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s %s %d=%d", d[:10], m, stripe, count))
		}
		want := []string{old + " claimed 9=3", closed + " claimed 0=11", closed + " completed 0=2", open + " claimed 0=1", open + " claimed 4=1"}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("rows after folding:\n%v\nwant\n%v", got, want)
		}
		if n, err := s.FoldDailyStats(ctx); err != nil || n != 0 {
			t.Fatalf("a second pass folded %d (%v), want 0", n, err)
		}
	})
}
