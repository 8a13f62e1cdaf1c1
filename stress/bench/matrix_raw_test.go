package bench

import "testing"

// The raw side replays what the store read: a statement behind a comment naming its planner
// settings is a read too, as is the EXPLAIN of PostgreSQL's search estimate, and writes never are.
func TestReadStatement(t *testing.T) {
	for _, c := range []struct {
		stmt string
		want bool
	}{
		{"SELECT id FROM user_tasks", true},
		{"select 1", true},
		{"WITH x AS (SELECT 1) SELECT * FROM x", true},
		{"/* planner: enable_seqscan=off enable_indexscan=off */ SELECT id FROM user_tasks LIMIT 3", true},
		{"  /* a */ /* b */ select 1", true},
		// PostgreSQL's search estimate (repository.SearchEstimatePrefix): planning it is part of the page.
		{"EXPLAIN (FORMAT JSON) /* planner: enable_seqscan=off */ SELECT id FROM user_tasks", true},
		{"/* unterminated SELECT 1", false},
		{"/* planner: x=y */ UPDATE user_tasks SET revision = 2", false},
		{"INSERT INTO t VALUES (1)", false},
		{"SELECTED", false},
		{"", false},
	} {
		if got := readStatement(c.stmt); got != c.want {
			t.Errorf("readStatement(%q) = %v, want %v", c.stmt, got, c.want)
		}
	}
}
