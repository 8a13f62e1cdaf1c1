package repository

import "testing"

// activityScenarios are the statements of the inbox rows' activity counts (activity.go): one
// GROUP BY per table over the page's task ids in one read transaction. The fake finds no rows;
// what is reviewed is the SQL each dialect is sent.
func activityScenarios() []goldenScenario {
	return []goldenScenario{
		{"activity-counts", func(t *testing.T, g *goldenEnv) {
			got, err := g.s.ActivityCounts(g.ctx, "t1", []string{"task-1", "task-2", "task-1"})
			goldenOK(t, err)
			if len(got) != 0 {
				t.Fatalf("counts %+v from a database that holds nothing", got)
			}
		}},
	}
}
