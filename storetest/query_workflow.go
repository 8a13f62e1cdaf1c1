package storetest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// testQueryWorkflowSorts pages the all and needs-attention lists filtered by a workflow
// definition through every sort, both directions and several page sizes: the SQL stores walk
// the definition's tasks status by status (ix_tasks_workflow_<sort>), so the pages must still
// follow each other in exactly the order of one big page, NULLs last, ties broken by id, with
// another definition's tasks never listed. A status filter and the overdue filter narrow the
// statuses walked: they page alike.
func testQueryWorkflowSorts(t *testing.T, h Harness) {
	clock := &queryAt{}
	s := h.open(t, Options{Clock: clock.now})
	boss := queryActor("t1", "boss", true)
	bob := User("t1", "bob")
	base := time.Date(2030, 3, 4, 9, 0, 0, 0, time.UTC)
	now := base.Add(48 * time.Hour)
	statuses := []models.Status{models.StatusUnassigned, models.StatusAvailable, models.StatusAssigned, models.StatusCompleting,
		models.StatusCompleted, models.StatusCancelled, models.StatusTimedOut}
	for i := 0; i < 84; i++ {
		clock.set(base.Add(time.Duration(i%9) * time.Hour)) // created and updated with ties
		o := TaskOpts{Title: fmt.Sprintf("task %02d", i%23), Priority: queryInt(i % 4 * 25), WorkflowDef: "wf-a"}
		if i%3 == 2 {
			o.WorkflowDef = "wf-b"
		}
		if i%5 != 0 {
			o.DueAt = queryTime(base.Add(time.Duration(i%7) * 12 * time.Hour)) // before and after now, with ties
		}
		switch st := statuses[i%len(statuses)]; st {
		case models.StatusUnassigned:
		case models.StatusAvailable:
			o.CandidateUsers = []string{"bob"}
		case models.StatusAssigned:
			o.Assignee, o.IsOverdue = &bob, i%4 == 0
		case models.StatusCompleting:
			at := base
			o.Assignee, o.Status, o.TransitionedAt = &bob, st, &at
		default:
			o.Assignee, o.Status, o.CompletedBy = &bob, st, &bob
		}
		CreateTask(t, s, o)
	}
	CreateTask(t, s, TaskOpts{Tenant: "t2", WorkflowDef: "wf-a", DueAt: queryTime(base)})
	clock.set(now)

	rule := models.AttentionRule{StaleAfter: 15 * time.Minute, UnassignedAfter: 24 * time.Hour}
	all := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Limit: models.MaxPageSize})
	variants := []struct {
		name  string
		scope models.Scope
		apply func(*models.TaskFilter)
		keep  func(models.Task) bool
	}{
		{"all", models.ScopeAll, func(*models.TaskFilter) {}, func(models.Task) bool { return true }},
		{"all/statuses", models.ScopeAll, func(f *models.TaskFilter) {
			f.Statuses = []models.Status{models.StatusAssigned, models.StatusCompleted}
		},
			func(it models.Task) bool {
				return it.Status == models.StatusAssigned || it.Status == models.StatusCompleted
			}},
		{"all/overdue", models.ScopeAll, func(f *models.TaskFilter) { f.Due = models.DueOverdue },
			func(it models.Task) bool {
				return it.Status.IsOpen() && (it.IsOverdue || it.DueAt != nil && it.DueAt.Before(now))
			}},
		{"needs-attention", models.ScopeNeedsAttention, func(*models.TaskFilter) {}, func(it models.Task) bool { return len(rule.Reasons(it, now)) > 0 }},
	}
	for _, v := range variants {
		var listed []models.Task
		for _, it := range all {
			if it.Workflow.DefinitionID == "wf-a" && v.keep(it) {
				listed = append(listed, it)
			}
		}
		if len(listed) < 6 {
			t.Fatalf("fixture: %s lists %d tasks of wf-a", v.name, len(listed))
		}
		for _, key := range models.SortKeys {
			for _, desc := range []bool{false, true} {
				want := append([]models.Task(nil), listed...)
				sort.Slice(want, func(i, j int) bool { return queryLess(want[i], want[j], key, desc) })
				for _, limit := range []int{1, 4, models.MaxPageSize} {
					t.Run(fmt.Sprintf("%s/%s/desc=%v/limit=%d", v.name, key, desc, limit), func(t *testing.T) {
						f := models.TaskFilter{Tenant: "t1", Scope: v.scope, Actor: boss, Sort: key, Descending: desc, Limit: limit,
							WorkflowDefinitionID: "wf-a", StaleAfter: rule.StaleAfter, UnassignedAfter: rule.UnassignedAfter}
						v.apply(&f)
						got := queryPages(t, s, f)
						if g, w := strings.Join(queryIDs(got), ","), strings.Join(queryIDs(want), ","); g != w {
							t.Fatalf("%s by %s lists\n got  %v\n want %v", v.name, key, g, w)
						}
					})
				}
			}
		}
	}
}
