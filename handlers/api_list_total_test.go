package handlers_test

import (
	"testing"

	"usertasks/handlers/handlerstest"
)

// TestListTotalCapped: past the store's cap totalCount is the cap and totalCountCapped true;
// under it the exact count with totalCountCapped false; neither without includeTotalCount.
func TestListTotalCapped(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{TotalCap: 2})
	max := handlerstest.Manager("acme", "max")
	for _, title := range []string{"a", "b", "c"} {
		env.Task(t, handlerstest.TaskOpts{Title: title, Assignee: "ann", TaskType: "type-" + title})
	}
	for _, tc := range []struct {
		query  string
		total  int
		capped string
	}{
		{"scope=all&includeTotalCount=true&limit=1", 2, "true"},
		{"scope=all&includeTotalCount=true&taskType=type-a", 1, "false"},
		{"scope=all&includeTotalCount=true&taskType=none", 0, "false"},
	} {
		p := listPage(t, env, max, tc.query)
		if p.TotalCount == nil || *p.TotalCount != tc.total || string(p.raw["totalCountCapped"]) != tc.capped {
			t.Errorf("%s: totalCount %s, totalCountCapped %s; want %d, %s", tc.query, p.raw["totalCount"], p.raw["totalCountCapped"], tc.total, tc.capped)
		}
	}
	p := listPage(t, env, max, "scope=all")
	if _, ok := p.raw["totalCountCapped"]; ok {
		t.Error("totalCountCapped present without includeTotalCount")
	}
}
