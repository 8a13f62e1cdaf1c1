package repository

import (
	"strings"
	"testing"
)

// The estimate is the row count of the plan's scan of user_tasks, whichever path and however
// deep; a plan without it (or not a plan) gives no estimate, and the probe then takes the
// index (probeSearchPostgres).
func TestSearchPlanMatches(t *testing.T) {
	for _, c := range []struct {
		name, plan string
		rows       float64
		ok         bool
	}{
		{"range scan under a limit", `[{"Plan": {"Node Type": "Limit", "Plan Rows": 1001, "Plans": [
			{"Node Type": "Tid Range Scan", "Relation Name": "user_tasks", "Plan Rows": 4908,
			 "Filter": "((search_text ~~ '%review%'::text) AND ((tenant_id)::text = 'bench'::text))"}]}}]`, 4908, true},
		{"bitmap path, deeper", `[{"Plan": {"Node Type": "Limit", "Plan Rows": 3, "Plans": [
			{"Node Type": "Bitmap Heap Scan", "Relation Name": "user_tasks", "Plan Rows": 3, "Plans": [
			 {"Node Type": "Bitmap Index Scan", "Index Name": "ix_tasks_search", "Plan Rows": 221}]}]}}]`, 3, true},
		{"another table only", `[{"Plan": {"Node Type": "Seq Scan", "Relation Name": "user_task_tags", "Plan Rows": 9}}]`, 0, false},
		{"not JSON", `Limit  (cost=0.00..501.83 rows=1001 width=37)`, 0, false},
		{"empty", `[]`, 0, false},
	} {
		rows, ok := searchPlanMatches(c.plan)
		if rows != c.rows || ok != c.ok {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, rows, ok, c.rows, c.ok)
		}
	}
}

// The sample is tried when the planner expects twice the probe's limit of matches in it: at
// the default limit (1,001), 2,002 and more.
func TestSearchDense(t *testing.T) {
	for _, c := range []struct {
		expected float64
		limit    int
		want     bool
	}{{4908, 1001, true}, {2002, 1001, true}, {2001.9, 1001, false}, {307, 1001, false}, {0, 1001, false}, {8, 4, true}, {7, 4, false}} {
		if got := searchDense(c.expected, c.limit); got != c.want {
			t.Errorf("searchDense(%v, %d) = %v, want %v", c.expected, c.limit, got, c.want)
		}
	}
}

// The sample's statement names its planner settings and reads at most its pages.
func TestSearchSampleSQL(t *testing.T) {
	q := searchSampleSQL(2002)
	if got := PlannerSettings(q); len(got) != 3 || got[0] != [2]string{"enable_seqscan", "off"} ||
		got[1] != [2]string{"enable_indexscan", "off"} || got[2] != [2]string{"enable_bitmapscan", "off"} {
		t.Errorf("planner settings %v", got)
	}
	if want := "ctid < '(2002,0)'"; !strings.Contains(q, want) {
		t.Errorf("%s: no %s", q, want)
	}
}
