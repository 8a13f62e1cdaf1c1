package storetest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// testQueryTotals checks the capped list total and the needs-attention list ordered by due
// date, which walks each status in due order (issue 10: the scale target).
func testQueryTotals(t *testing.T, h Harness) {
	t.Run("TotalIsCapped", func(t *testing.T) { testQueryTotalCap(t, h) })
	t.Run("NeedsAttentionSorts", func(t *testing.T) { testQueryAttentionSorts(t, h) })
	t.Run("WorkflowSorts", func(t *testing.T) { testQueryWorkflowSorts(t, h) })
}

func testQueryTotalCap(t *testing.T, h Harness) {
	const limit = 3
	s := h.open(t, Options{TotalCap: limit})
	boss := queryActor("t1", "boss", true)
	bob := User("t1", "bob")
	for i := 0; i < 5; i++ {
		o := TaskOpts{Assignee: &bob, TaskType: "three"} // three of them: exactly the cap
		if i >= 3 {
			o.TaskType = "two"
		}
		if i == 4 {
			o.Reference = "solo"
		}
		CreateTask(t, s, o)
	}
	for i := 0; i < 4; i++ { // another tenant's rows never count
		CreateTask(t, s, TaskOpts{Tenant: "t2", TaskType: "three"})
	}
	cases := []struct {
		name   string
		f      models.TaskFilter
		total  int
		capped bool
	}{
		{"AllOverTheCap", models.TaskFilter{Scope: models.ScopeAll, Actor: boss}, limit, true},
		{"AssignedOverTheCap", models.TaskFilter{Scope: models.ScopeAssigned, Actor: queryActor("t1", "bob", false)}, limit, true},
		{"ExactlyTheCap", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, TaskType: "three"}, limit, false},
		{"UnderTheCap", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, TaskType: "two"}, 2, false},
		{"One", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Reference: "solo"}, 1, false},
		{"None", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Statuses: []models.Status{models.StatusCompleted}}, 0, false},
		{"PersonalNone", models.TaskFilter{Scope: models.ScopeAssigned, Actor: queryActor("t1", "ann", false)}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := c.f
			f.Tenant, f.IncludeTotal, f.Limit = "t1", true, 1
			page, err := s.Query(ctx(t), f)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total == nil || *page.Total != c.total || page.TotalCapped != c.capped {
				t.Fatalf("total %v capped %v, want %d capped %v", page.Total, page.TotalCapped, c.total, c.capped)
			}
			f.IncludeTotal = false
			if page, err = s.Query(ctx(t), f); err != nil || page.Total != nil || page.TotalCapped {
				t.Fatalf("without IncludeTotal: total %v capped %v, err %v", page.Total, page.TotalCapped, err)
			}
		})
	}
	// The history's first page counts its total in the page's own statement on the SQL
	// stores (historyFirstPage): the same cap, in a tenant of its own.
	carl, dora := User("t3", "carl"), User("t3", "dora")
	for i := 0; i < 4; i++ {
		CreateTask(t, s, TaskOpts{Tenant: "t3", Status: models.StatusCompleted, Assignee: &carl, CompletedBy: &carl})
	}
	for i := 0; i < 3; i++ {
		CreateTask(t, s, TaskOpts{Tenant: "t3", Status: models.StatusCompleted, Assignee: &dora, CompletedBy: &dora})
	}
	for _, c := range []struct {
		who    string
		total  int
		capped bool
	}{{"carl", limit, true}, {"dora", limit, false}, {"ed", 0, false}} {
		t.Run("History"+c.who, func(t *testing.T) {
			f := models.TaskFilter{Tenant: "t3", Scope: models.ScopeHistory, Actor: queryActor("t3", c.who, false), IncludeTotal: true, Limit: 1}
			page, err := s.Query(ctx(t), f)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total == nil || *page.Total != c.total || page.TotalCapped != c.capped || len(page.Items) != min(1, c.total) {
				t.Fatalf("total %v capped %v, %d items; want %d capped %v", page.Total, page.TotalCapped, len(page.Items), c.total, c.capped)
			}
		})
	}
}

// testQueryAttentionSorts pages the needs-attention list by every sort in both directions and
// compares it with the rule applied to every task of the tenant, sorted by queryLess: tasks of
// every open and transitional status, with and without a due date, ties in due dates, and
// tasks the rule leaves out between them.
func testQueryAttentionSorts(t *testing.T, h Harness) {
	clock := &queryAt{}
	s := h.open(t, Options{Clock: clock.now})
	boss := queryActor("t1", "boss", true)
	bob := User("t1", "bob")
	base := time.Date(2030, 3, 4, 9, 0, 0, 0, time.UTC)
	now := base.Add(48 * time.Hour)
	advisory := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthResumeDeliveryFailing, Message: "retrying"}
	clock.set(base)
	for i := 0; i < 72; i++ {
		o := TaskOpts{Title: fmt.Sprintf("task %02d", i)}
		if i%5 != 0 {
			o.DueAt = queryTime(base.Add(time.Duration(i%7) * 12 * time.Hour)) // before and after now, with ties
		}
		switch i % 6 {
		case 0: // unassigned for two days: listed
		case 1:
			o.CandidateUsers = []string{"bob"} // available for two days: listed
		case 2, 3:
			o.Assignee = &bob // listed when overdue by date or flag, or with a finding
			o.IsOverdue = i%4 == 0
			if i%9 == 0 {
				o.Health = advisory
			}
		case 4:
			o.Assignee, o.Status = &bob, models.StatusCompleting
			stale := base
			if i%4 == 0 {
				stale = now // recent: not listed
			}
			o.TransitionedAt = &stale
		case 5:
			o.Assignee, o.Status, o.CompletedBy = &bob, models.StatusCompleted, &bob // never listed
		}
		CreateTask(t, s, o)
	}
	for i := 0; i < 3; i++ {
		CreateTask(t, s, TaskOpts{Tenant: "t2", DueAt: queryTime(base)})
	}
	clock.set(now)

	rule := models.AttentionRule{StaleAfter: 15 * time.Minute, UnassignedAfter: 24 * time.Hour}
	all := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Limit: models.MaxPageSize})
	var listed []models.Task
	for _, it := range all {
		if len(rule.Reasons(it, now)) > 0 {
			listed = append(listed, it)
		}
	}
	if len(listed) < 15 || len(listed) == len(all) {
		t.Fatalf("fixture: %d of %d tasks need attention", len(listed), len(all))
	}
	for _, key := range models.SortKeys {
		for _, desc := range []bool{false, true} {
			want := append([]models.Task(nil), listed...)
			sort.Slice(want, func(i, j int) bool { return queryLess(want[i], want[j], key, desc) })
			for _, limit := range []int{1, 2, 5, models.MaxPageSize} {
				t.Run(fmt.Sprintf("%s/desc=%v/limit=%d", key, desc, limit), func(t *testing.T) {
					f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeNeedsAttention, Actor: boss, Sort: key,
						Descending: desc, Limit: limit, StaleAfter: rule.StaleAfter, UnassignedAfter: rule.UnassignedAfter}
					got := queryPages(t, s, f)
					if g, w := strings.Join(queryIDs(got), ","), strings.Join(queryIDs(want), ","); g != w {
						t.Fatalf("needs attention by %s lists\n got  %v\n want %v", key, g, w)
					}
				})
			}
		}
	}
}
