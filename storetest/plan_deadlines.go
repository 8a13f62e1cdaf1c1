package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// testDeadlinePlans pins the due sweep's walk on the SQL stores (SPEC 10.4, issue 30): once
// user_task_deadlines holds thousands of rows — most pending but not due, some settled, a few
// due — and is analyzed, the walk (a first page and one after its cursor) reads
// ix_deadlines_due, never scans the deadlines and never reads the task table.
func testDeadlinePlans(t *testing.T, h Harness) {
	h.needSQL(t, "the case explains the SQL statements the store ran")
	rec := &queryRecorder{}
	s := h.open(t, Options{OnSQL: rec.record})
	const tasks = 2000
	var settle []models.Task
	for i := range tasks {
		after := time.Duration(1+i%500) * time.Hour // pending, not due
		switch {
		case i%20 == 0:
			after = -time.Duration(1+i%7) * time.Minute // due
		case i%20 == 1:
			after = -time.Hour // due, settled below
		}
		task := createWithDeadlines(t, s, TaskOpts{Tenant: fmt.Sprintf("p%d", i%3), CandidateUsers: []string{"ann"}},
			DeadlineOpts{Kind: models.DeadlineCompletion, After: after, Actions: []models.DeadlineAction{flagAction}})
		if i%20 == 1 {
			settle = append(settle, task)
		}
	}
	for _, task := range settle {
		fire(t, s, task, 0)
	}
	h.SQL.Analyze(t, s)

	rec.reset()
	page, err := s.DueDeadlines(ctx(t), 20, nil)
	if err != nil || len(page) != 20 {
		t.Fatalf("first page: %d, %v, want 20", len(page), err)
	}
	k := page[len(page)-1].Key()
	next, err := s.DueDeadlines(ctx(t), 20, &k)
	if err != nil || len(next) != 20 {
		t.Fatalf("second page: %d, %v, want 20", len(next), err)
	}
	var stmts []string
	for _, stmt := range rec.statements() {
		up := strings.ToUpper(strings.TrimSpace(stmt))
		if strings.HasPrefix(up, "SELECT") && strings.Contains(up, "USER_TASK_DEADLINES") {
			stmts = append(stmts, stmt)
		}
		if strings.Contains(up, "USER_TASKS ") || strings.HasSuffix(up, "USER_TASKS") {
			t.Errorf("the walk read the task table:\n%s", stmt)
		}
	}
	if len(stmts) != 2 {
		t.Fatalf("%d SELECTs of user_task_deadlines recorded, want 2: %q", len(stmts), stmts)
	}
	// The control: a read by kind has no index, so its plan must be reported as a scan, or
	// the check below would pass whatever the plans say.
	if plan := h.SQL.Explain(t, s, "SELECT task_id FROM user_task_deadlines WHERE kind = 'none'"); planTableScan(h.SQL.Dialect, plan, "user_task_deadlines") == "" {
		t.Fatalf("%s: a full scan of user_task_deadlines is not recognized in the plan:\n%s", h.Name, plan)
	}
	for _, stmt := range stmts {
		plan := h.SQL.Explain(t, s, stmt)
		if !strings.Contains(plan, "ix_deadlines_due") {
			t.Errorf("%s: the plan does not read ix_deadlines_due\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
		}
		if scan := planTableScan(h.SQL.Dialect, plan, "user_task_deadlines"); scan != "" {
			t.Errorf("%s: the plan scans all of user_task_deadlines (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
		}
	}
}
