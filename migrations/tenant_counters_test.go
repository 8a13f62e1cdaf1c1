package migrations

import (
	"context"
	"strings"
	"testing"
)

// TestTenantCountersMoveTheCount applies 00008 to a database whose tenants have counts: the
// stripes add up to the old count, and the Down puts the sum back into the column.
func TestTenantCountersMoveTheCount(t *testing.T) {
	ctx := context.Background()
	for _, d := range []Dialect{SQLite, Postgres, MySQL} {
		t.Run(string(d), func(t *testing.T) {
			tg := openTarget(t, d)
			p, err := NewProvider(d, tg.db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, 7); err != nil {
				t.Fatalf("up to 7: %v", err)
			}
			bind := func(q string) string {
				if d == Postgres {
					q = strings.Replace(q, "?", "$1", 1)
					return strings.Replace(q, "?", "$2", 1)
				}
				return q
			}
			for tenant, n := range map[string]int{"a": 5, "b": 0} {
				if _, err := tg.db.ExecContext(ctx, bind("INSERT INTO user_task_tenants (tenant_id, open_tasks, updated_at) VALUES (?, ?, CURRENT_TIMESTAMP)"), tenant, n); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := p.UpTo(ctx, 8); err != nil {
				t.Fatalf("up to 8: %v", err)
			}
			var sum int
			if err := tg.db.QueryRowContext(ctx, bind("SELECT COALESCE(SUM(open_tasks), 0) FROM user_task_tenant_counters WHERE tenant_id = ?"), "a").Scan(&sum); err != nil {
				t.Fatal(err)
			}
			if sum != 5 {
				t.Fatalf("stripes of tenant a add up to %d, want 5", sum)
			}
			if _, err := tg.db.ExecContext(ctx, bind("UPDATE user_task_tenant_counters SET open_tasks = 7 WHERE tenant_id = ?"), "a"); err != nil {
				t.Fatal(err)
			}
			if _, err := p.DownTo(ctx, 7); err != nil {
				t.Fatalf("down to 7: %v", err)
			}
			var back int
			if err := tg.db.QueryRowContext(ctx, bind("SELECT open_tasks FROM user_task_tenants WHERE tenant_id = ?"), "a").Scan(&back); err != nil {
				t.Fatal(err)
			}
			if back != 7 {
				t.Fatalf("after the Down tenant a counts %d, want 7", back)
			}
		})
	}
}
