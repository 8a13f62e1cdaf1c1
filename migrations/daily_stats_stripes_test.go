package migrations

import (
	"context"
	"strings"
	"testing"
)

// TestDailyStatsStripesKeepTheCounts applies 00012 to a database with rollup counters: they
// become stripe 0, a second stripe of the same counter fits the new key, and the Down adds the
// stripes back into one counter under the old key.
func TestDailyStatsStripesKeepTheCounts(t *testing.T) {
	ctx := context.Background()
	for _, d := range []Dialect{SQLite, Postgres, MySQL} {
		t.Run(string(d), func(t *testing.T) {
			tg := openTarget(t, d)
			p, err := NewProvider(d, tg.db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, 11); err != nil {
				t.Fatalf("up to 11: %v", err)
			}
			bind := func(q string) string {
				if d != Postgres {
					return q
				}
				for i := 1; strings.Contains(q, "?"); i++ {
					q = strings.Replace(q, "?", "$"+string(rune('0'+i)), 1)
				}
				return q
			}
			const cols = "tenant_id, stat_day, workflow_definition_id, metric, bucket, workflow_definition_name, event_count, updated_at"
			if _, err := tg.db.ExecContext(ctx, bind("INSERT INTO user_task_daily_stats ("+cols+") VALUES (?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)"),
				"a", "2026-12-03", "wf", "claimed", 2, "Flow", 5); err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, 12); err != nil {
				t.Fatalf("up to 12: %v", err)
			}
			var stripe, n int
			if err := tg.db.QueryRowContext(ctx, "SELECT stripe, event_count FROM user_task_daily_stats").Scan(&stripe, &n); err != nil {
				t.Fatal(err)
			}
			if stripe != 0 || n != 5 {
				t.Fatalf("after the Up the counter is stripe %d counting %d, want stripe 0 counting 5", stripe, n)
			}
			if _, err := tg.db.ExecContext(ctx, bind("INSERT INTO user_task_daily_stats ("+cols+", stripe) VALUES (?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?)"),
				"a", "2026-12-03", "wf", "claimed", 2, "Flow", 3, 7); err != nil {
				t.Fatalf("second stripe of the counter: %v", err)
			}
			if _, err := p.DownTo(ctx, 11); err != nil {
				t.Fatalf("down to 11: %v", err)
			}
			var rows int
			if err := tg.db.QueryRowContext(ctx, "SELECT COUNT(*), SUM(event_count) FROM user_task_daily_stats").Scan(&rows, &n); err != nil {
				t.Fatal(err)
			}
			if rows != 1 || n != 8 {
				t.Fatalf("after the Down %d rows count %d, want 1 row counting 8", rows, n)
			}
			// The old key is back: a second row of the counter is refused.
			if _, err := tg.db.ExecContext(ctx, bind("INSERT INTO user_task_daily_stats ("+cols+") VALUES (?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)"),
				"a", "2026-12-03", "wf", "claimed", 2, "Flow", 1); err == nil {
				t.Fatal("after the Down a duplicate counter was accepted; the old primary key is missing")
			}
		})
	}
}
