package storetest

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// planFullScan finds a full scan of user_tasks in a plan: SQLite's "SCAN user_tasks" without
// an index, PostgreSQL's "Seq Scan on user_tasks" (MariaDB's access type ALL: planTableScan).
var (
	planSQLiteScan   = regexp.MustCompile(`(?m)^.*\bSCAN (TABLE )?user_tasks\b.*$`)
	planPostgresScan = regexp.MustCompile(`Seq Scan on user_tasks\b`)
)

// testQueryPlans checks that no list query of any scope scans the whole task table once the
// table holds a few thousand tasks of several tenants and the planner has statistics. The
// plans are those of the exact statements the store ran (recorded through Options.OnSQL).
func testQueryPlans(t *testing.T, h Harness) {
	h.needSQL(t, "the case explains the SQL statements the store ran")
	rec := &queryRecorder{}
	s := h.open(t, Options{OnSQL: rec.record})
	start := time.Now()
	planSeed(t, s)
	h.SQL.Analyze(t, s)
	t.Logf("%s: seeded and analyzed in %s", h.Name, time.Since(start).Round(time.Millisecond))

	t.Run("DetectsAFullScan", func(t *testing.T) {
		// The control: summary has no index, so this plan must be reported, or the checks
		// below would pass whatever the plans say.
		plan := h.SQL.Explain(t, s, "SELECT id FROM user_tasks WHERE summary = 'none'")
		if planScan(h.SQL.Dialect, plan) == "" {
			t.Fatalf("%s: a full scan of user_tasks is not recognized in the plan:\n%s", h.Name, plan)
		}
	})

	me := queryActor("p1", "me", false, Group("p1", "g1"), Group("p1", "g2"))
	boss := queryActor("p1", "boss", true)
	cases := []struct {
		name string
		f    models.TaskFilter
	}{
		{"AssignedByCreated", models.TaskFilter{Scope: models.ScopeAssigned, Actor: me, Sort: models.SortCreated, Descending: true}},
		{"AssignedByDue", models.TaskFilter{Scope: models.ScopeAssigned, Actor: me, Sort: models.SortDue}},
		{"AvailableByCreated", models.TaskFilter{Scope: models.ScopeAvailable, Actor: me, Sort: models.SortCreated, Descending: true, IncludeTotal: true}},
		{"AvailableByPriority", models.TaskFilter{Scope: models.ScopeAvailable, Actor: me, Sort: models.SortPriority, Descending: true}},
		{"HistoryByCompleted", models.TaskFilter{Scope: models.ScopeHistory, Actor: me, Sort: models.SortCompleted, Descending: true, IncludeTotal: true}},
		{"AllByCreated", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortCreated, Descending: true, IncludeTotal: true}},
		{"AllByTitle", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortTitle}},
		{"AllByTag", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortUpdated, Descending: true, Tag: "urgent"}},
		{"NeedsAttentionByDue", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: boss, Sort: models.SortDue, IncludeTotal: true}},
		{"NeedsAttentionByCreated", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: boss, Sort: models.SortCreated, Descending: true}},
		{"NeedsAttentionBlockingByCreated", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: boss, Sort: models.SortCreated, Descending: true,
			HealthSeverity: models.SeverityBlocking, IncludeTotal: true}},
		{"AllByAssignee", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortCreated, Descending: true,
			Assignee: models.AssigneeFilter{Participant: User("p1", "ann")}, IncludeTotal: true}},
		{"AllUnassignedByDue", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortDue,
			Assignee: models.AssigneeFilter{Unassigned: true}, IncludeTotal: true}},
		{"NeedsAttentionByAssignee", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: boss, Sort: models.SortDue,
			Assignee: models.AssigneeFilter{Participant: User("p1", "bob")}, IncludeTotal: true}},
		{"AllByHealthCode", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortUpdated, Descending: true,
			HealthCodes: []string{models.HealthNoParticipants, models.HealthFormResolutionFailed}, IncludeTotal: true}},
		// The nullable sorts (nulls-last walks), the other sorts and directions, a search and
		// a filter on each scope: the rest of the matrix the scale test runs at full size.
		{"AssignedByTitleDesc", models.TaskFilter{Scope: models.ScopeAssigned, Actor: me, Sort: models.SortTitle, Descending: true, Search: "task"}},
		{"AssignedByCompleted", models.TaskFilter{Scope: models.ScopeAssigned, Actor: me, Sort: models.SortCompleted, WorkflowDefinitionID: "def-01"}},
		{"AvailableByDue", models.TaskFilter{Scope: models.ScopeAvailable, Actor: me, Sort: models.SortDue, IncludeTotal: true}},
		{"AvailableByUpdatedSearch", models.TaskFilter{Scope: models.ScopeAvailable, Actor: me, Sort: models.SortUpdated, Search: "seeded"}},
		{"HistoryByDueDesc", models.TaskFilter{Scope: models.ScopeHistory, Actor: me, Sort: models.SortDue, Descending: true}},
		{"HistoryByTitleSearch", models.TaskFilter{Scope: models.ScopeHistory, Actor: me, Sort: models.SortTitle, Search: "task 0"}},
		{"AllByCompleted", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortCompleted, IncludeTotal: true}},
		{"AllByDueDesc", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortDue, Descending: true}},
		{"AllByPrioritySearch", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortPriority, Search: "seeded", IncludeTotal: true}},
		{"AllByCreatedWorkflow", models.TaskFilter{Scope: models.ScopeAll, Actor: boss, Sort: models.SortCreated, WorkflowDefinitionID: "def-03", IncludeTotal: true}},
		{"NeedsAttentionByPriority", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: boss, Sort: models.SortPriority, Descending: true}},
		{"NeedsAttentionByDueDescSearch", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: boss, Sort: models.SortDue, Descending: true, Search: "seeded"}},
		{"NeedsAttentionByCompleted", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: boss, Sort: models.SortCompleted}},
	}
	for _, c := range cases {
		t.Run(c.name+"UsesAnIndex", func(t *testing.T) {
			f := c.f
			f.Tenant, f.Limit = "p1", 20
			stmts, _ := pageStatements(t, s, rec, f, readsUserTasks)
			if len(stmts) == 0 {
				t.Fatalf("no statement of user_tasks was recorded")
			}
			for _, stmt := range stmts {
				plan := h.SQL.Explain(t, s, stmt)
				if scan := planScan(h.SQL.Dialect, plan); scan != "" {
					t.Fatalf("%s: the plan scans all of user_tasks (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
				}
			}
		})
	}
	checkDashboardPlans(t, h, s, rec)
	testWorkflowChoicePlans(t, h, s, rec, me, boss)
	testSearchPlans(t, h, s, rec, boss)
	testWorkflowFilterPlans(t, h, s, rec, boss)
	testAssignedScopePlans(t, h, s, rec, me)
	testAttentionCursorPlans(t, h, s, rec, boss) // plan_attention.go
	testAvailableWalkPlans(t, h, s, rec, me)     // plan_available.go
	testStatusMergePlans(t, h, s, rec, boss)     // plan_merge.go
	testAvailableWorkflowPlans(t, h, s, rec, me) // plan_available.go
	testRowCursorPlans(t, h, s, rec, boss)       // plan_cursor.go
	testHistoryPlans(t, h, s, rec, me)           // plan_history.go
	testNotificationPlans(t, h, s, rec)
	testSubstitutePlans(t, h, s, rec) // plan_substitute.go
}

// planScan returns the plan line that scans user_tasks without an index, or "".
func planScan(d migrations.Dialect, plan string) string {
	switch d {
	case migrations.Postgres:
		return planPostgresScan.FindString(plan)
	case migrations.MySQL:
		return planTableScan(d, plan, "user_tasks")
	}
	for _, line := range planSQLiteScan.FindAllString(plan, -1) {
		if !strings.Contains(line, "USING INDEX") && !strings.Contains(line, "USING COVERING INDEX") &&
			!strings.Contains(line, "USING INTEGER PRIMARY KEY") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// planSeed creates 3,000 tasks: tenant p1 (the one queried) holds 15%, p2 and p3 the rest.
// Statuses, assignees, candidates, health and due dates are spread so that every scope
// selects a small part of p1.
func planSeed(t *testing.T, s store.Store) {
	t.Helper()
	const total = 3000
	users := []string{"me", "ann", "bob", "cy", "dan", "eve", "fay", "gus", "hal", "ivy"}
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failure error
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if err := planCreate(t, s, i, users); err != nil {
					mu.Lock()
					if failure == nil {
						failure = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < total; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	if failure != nil {
		t.Fatalf("seed: %v", failure)
	}
}

func planCreate(t *testing.T, s store.Store, i int, users []string) error {
	tenant := "p2"
	switch {
	case i%20 < 3:
		tenant = "p1"
	case i%2 == 0:
		tenant = "p3"
	}
	u := func(k int) string { return users[k%len(users)] }
	who := User(tenant, u(i/7))
	o := TaskOpts{Tenant: tenant, Title: fmt.Sprintf("Seeded task %05d", (i*7919)%10007), Priority: queryInt(i % 101),
		WorkflowDef: fmt.Sprintf("def-%02d", i%12)}
	if i%3 != 0 {
		o.DueAt = queryTime(time.Now().UTC().Add(time.Duration(i%200-50) * time.Hour))
	}
	if i%5 == 0 {
		o.Tags = []string{"urgent"}
	}
	switch i % 10 {
	case 0, 1, 2, 3, 4: // terminal
		o.Status, o.Assignee, o.CompletedBy = models.StatusCompleted, &who, &who
	case 5, 6: // assigned
		o.Assignee = &who
	case 7: // available to a user and a group
		o.CandidateUsers, o.CandidateGroups = []string{u(i / 11)}, []string{fmt.Sprintf("g%d", i%13)}
	case 8: // transitional
		at := time.Now().UTC().Add(-time.Duration(i%90) * time.Minute)
		o.Status, o.Assignee, o.TransitionedAt = models.StatusCompleting, &who, &at
	case 9: // blocking or unassigned
		if i%20 == 9 {
			o.Health = models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormResolutionFailed, Message: "form"}
		}
		o.CandidateUsers = []string{u(i / 3)}
	}
	change := NewTask(o, time.Time{})
	_, _, err := s.Create(ctx(t), tenant, change.Task.MaterializationKey, change.Task.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		c := change
		ev := *c.Event
		c.Task.CreatedAt, c.Task.UpdatedAt, ev.OccurredAt, c.Event = now, now, now, &ev
		if c.Task.AssignedAt != nil {
			c.Task.AssignedAt = &now
		}
		if c.Task.CompletedAt != nil {
			c.Task.CompletedAt = &now
		}
		return c, nil
	})
	if err != nil {
		return err
	}
	if i%10 < 5 && i%17 == 0 { // someone else acted on a terminal task
		actor := User(tenant, "me")
		_, err = s.AppendEvent(ctx(t), tenant, change.Task.ID, func(now time.Time, cur models.Task) (models.Event, error) {
			return models.Event{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, Seq: cur.LastEventSeq + 1, Revision: cur.Revision,
				Type: models.EventFieldRevealed, OccurredAt: now, Actor: &actor}, nil
		})
	}
	return err
}
