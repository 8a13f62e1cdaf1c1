package storetest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/store"
)

// testDashboard states the managers' console's store: the daily rollup counts each committed
// creation, claim and end of a task exactly once (replays, conflicts and rollbacks count
// nothing), the current counts are the tenant's own, and worker runs are recorded, bounded and
// kept per tenant.
func testDashboard(t *testing.T, h Harness) {
	t.Run("RollupCountsEachCommittedChangeOnce", func(t *testing.T) {
		s := h.open(t, Options{})
		ann := queryActor("t1", "ann", false)
		due := time.Now().UTC().Add(48 * time.Hour)
		done := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}, DueAt: &due, WorkflowDef: "loan"})
		cancelled := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}, WorkflowDef: "loan"})
		CreateTask(t, s, TaskOpts{Tenant: "t2", CandidateUsers: []string{"ann"}, WorkflowDef: "loan"})

		claim := func(task models.Task, op string, rev int) error {
			_, err := s.Mutate(ctx(t), "t1", task.ID, op, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
				return models.Claim(cur, models.Command{OperationID: op, ExpectedRevision: rev, Actor: ann, Prior: prior}, now)
			})
			return err
		}
		if err := claim(done, "claim-1", done.Revision); err != nil {
			t.Fatalf("claim: %v", err)
		}
		if err := claim(done, "claim-1", done.Revision); err != nil { // a replay
			t.Fatalf("claim replay: %v", err)
		}
		wantCode(t, claim(done, "claim-2", done.Revision), models.CodeRevisionConflict)
		// A decision that fails after the claim was decided rolls everything back.
		_, err := s.Mutate(ctx(t), "t1", cancelled.ID, "claim-3", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			c, err := models.Claim(cur, models.Command{OperationID: "claim-3", ExpectedRevision: cur.Revision, Actor: ann, Prior: prior}, now)
			if err == nil {
				c.Event.Metadata = []byte(`"` + strings.Repeat("x", models.MaxEventMetadataBytes) + `"`)
			}
			return c, err
		})
		if err == nil {
			t.Fatalf("an oversized event was written")
		}
		claimed := mustGet(t, s, "t1", done.ID)
		complete := func(op string) error {
			_, err := s.Mutate(ctx(t), "t1", done.ID, op, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
				return models.Complete(cur, models.Command{OperationID: op, ExpectedRevision: claimed.Revision, Actor: ann, Prior: prior},
					models.ActionComplete, nil, now)
			})
			return err
		}
		if err := complete("complete-1"); err != nil {
			t.Fatalf("complete: %v", err)
		}
		if err := complete("complete-1"); err != nil {
			t.Fatalf("complete replay: %v", err)
		}
		finalize := func(task models.Task) error {
			_, err := s.Mutate(ctx(t), "t1", task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
				return models.Finalize(cur, now)
			})
			return err
		}
		for i := 0; i < 2; i++ { // the second removal finds the task terminal
			if err := finalize(done); err != nil && !(i == 1 && models.ErrorCode(err) == models.CodeTerminal) {
				t.Fatalf("finalize %d: %v", i, err)
			}
		}
		if err := finalize(cancelled); err != nil {
			t.Fatalf("finalize open task: %v", err)
		}

		got := rollupTotals(t, s, "t1")
		want := map[string]int64{models.MetricCreated: 2, models.MetricClaimed: 1, models.MetricCompletedOnTime: 1, models.MetricCancelled: 1}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("rollup of t1 = %v, want %v", got, want)
		}
		if got := rollupTotals(t, s, "t2"); fmt.Sprint(got) != fmt.Sprint(map[string]int64{models.MetricCreated: 1}) {
			t.Fatalf("rollup of t2 = %v, want one creation", got)
		}
		r, err := s.DailyRollup(ctx(t), "t1", "0000-01-01")
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range r.ByDay {
			if len(st.Day) != len("2006-01-02") || st.WorkflowDefinitionID != "" {
				t.Fatalf("day sum %+v: want a UTC day and no workflow", st)
			}
		}
		perFlow := map[string]int64{}
		for _, st := range r.ByWorkflow {
			if st.WorkflowDefinitionID != "loan" || st.Day != "" {
				t.Fatalf("workflow sum %+v: want workflow loan and no day", st)
			}
			if st.Metric == models.MetricClaimed && st.Bucket != 0 {
				t.Fatalf("a claim right after creation fell in bucket %d, want 0", st.Bucket)
			}
			perFlow[st.Metric] += st.Count
		}
		if fmt.Sprint(perFlow) != fmt.Sprint(want) {
			t.Fatalf("per-workflow sums of t1 = %v, want %v (the per-day sums)", perFlow, want)
		}
		tomorrow := time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)
		if r, err := s.DailyRollup(ctx(t), "t1", tomorrow); err != nil || len(r.ByDay)+len(r.ByWorkflow) != 0 {
			t.Fatalf("rollup from %s = %+v, %v: want nothing before the first day", tomorrow, r, err)
		}
	})

	t.Run("FoldingClosedDaysKeepsTheRollup", func(t *testing.T) {
		// Changes counted three days ago, then the due sweep's fold of the closed days: the
		// sums are the same before and after, and a second fold finds nothing left to fold.
		s := h.open(t, Options{Clock: func(db time.Time) time.Time { return db.Add(-72 * time.Hour) }})
		for i := 0; i < 6; i++ {
			CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}, WorkflowDef: "loan"})
		}
		s = h.reopen(t, s, Options{})
		before, err := s.DailyRollup(ctx(t), "t1", "0000-01-01")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.FoldDailyStats(ctx(t)); err != nil {
			t.Fatalf("fold: %v", err)
		}
		after, err := s.DailyRollup(ctx(t), "t1", "0000-01-01")
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(after) != fmt.Sprint(before) || rollupTotals(t, s, "t1")[models.MetricCreated] != 6 {
			t.Fatalf("rollup after the fold = %+v, before %+v", after, before)
		}
		if n, err := s.FoldDailyStats(ctx(t)); err != nil || n != 0 {
			t.Fatalf("a second fold folded %d rows (%v), want none", n, err)
		}
	})

	t.Run("RollupCountsConcurrentFirstCreationsExactly", func(t *testing.T) {
		s := h.open(t, Options{})
		const n = 8
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			go func() {
				change := NewTask(TaskOpts{Tenant: "race", WorkflowDef: "w"}, time.Time{})
				_, _, err := s.Create(ctx(t), "race", change.Task.MaterializationKey, change.Task.Workflow.BookmarkID,
					func(now time.Time) (models.Change, error) {
						c := change
						ev := *c.Event
						c.Task.CreatedAt, c.Task.UpdatedAt, ev.OccurredAt, c.Event = now, now, now, &ev
						return c, nil
					})
				errs <- err
			}()
		}
		for i := 0; i < n; i++ {
			if err := <-errs; err != nil {
				t.Fatalf("create: %v", err)
			}
		}
		if got := rollupTotals(t, s, "race")[models.MetricCreated]; got != n {
			t.Fatalf("created %d, want %d", got, n)
		}
	})

	t.Run("CountsAreTheTenantsOwn", func(t *testing.T) {
		s := h.open(t, Options{})
		ben, cy := User("t1", "ben"), User("t1", "cy")
		old := time.Now().UTC().Add(-5 * time.Hour)
		CreateTask(t, s, TaskOpts{Assignee: &ben, IsOverdue: true})
		CreateTask(t, s, TaskOpts{Assignee: &ben})
		CreateTask(t, s, TaskOpts{Assignee: &cy})
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"},
			Health: models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormResolutionFailed, Message: "form"}})
		CreateTask(t, s, TaskOpts{Status: models.StatusCompleting, Assignee: &cy, TransitionedAt: &old})
		CreateTask(t, s, TaskOpts{Status: models.StatusCompleted, Assignee: &cy, CompletedBy: &cy})
		other := User("t2", "ben")
		CreateTask(t, s, TaskOpts{Tenant: "t2", Assignee: &other, IsOverdue: true})

		c, err := s.DashboardCounts(ctx(t), "t1", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		wantStatus := map[models.Status]int{models.StatusAssigned: 3, models.StatusAvailable: 1, models.StatusCompleting: 1}
		if fmt.Sprint(c.ByStatus) != fmt.Sprint(wantStatus) {
			t.Fatalf("by status %v, want %v (terminal tasks are the rollup's)", c.ByStatus, wantStatus)
		}
		if len(c.ByHealth) != 1 || c.ByHealth[0].Code != models.HealthFormResolutionFailed || c.ByHealth[0].Count != 1 ||
			c.ByHealth[0].Severity != models.SeverityBlocking {
			t.Fatalf("by health %+v, want one blocking form-resolution-failed", c.ByHealth)
		}
		if c.Overdue != 1 || c.StaleTransitions != 1 {
			t.Fatalf("overdue %d stale %d, want 1 and 1", c.Overdue, c.StaleTransitions)
		}
		if c.Backlog != 0 || c.OldestPending != nil {
			t.Fatalf("backlog %d oldest %v, want none", c.Backlog, c.OldestPending)
		}
		if len(c.Workload) != 2 || c.Workload[0].Assignee.ID != "ben" || c.Workload[0].Count != 2 ||
			c.Workload[1].Assignee.ID != "cy" || c.Workload[1].Count != 1 {
			t.Fatalf("workload %+v, want ben 2 then cy 1 (open tasks only)", c.Workload)
		}
		if c.Now.IsZero() {
			t.Fatalf("no database time")
		}
	})

	t.Run("BacklogCountsPendingResumptions", func(t *testing.T) {
		s := h.open(t, Options{})
		ann := queryActor("t1", "ann", false)
		a := User("t1", "ann")
		task := CreateTask(t, s, TaskOpts{Assignee: &a})
		_, err := s.Mutate(ctx(t), "t1", task.ID, "done", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
			return models.Complete(cur, models.Command{OperationID: "done", ExpectedRevision: cur.Revision, Actor: ann, Prior: prior},
				models.ActionComplete, nil, now)
		})
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.DashboardCounts(ctx(t), "t1", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if c.Backlog != 1 || c.OldestPending == nil || c.OldestPending.After(c.Now) {
			t.Fatalf("backlog %d oldest %v, want one pending row created before %v", c.Backlog, c.OldestPending, c.Now)
		}
		if other, err := s.DashboardCounts(ctx(t), "t2", time.Hour); err != nil || other.Backlog != 0 {
			t.Fatalf("another tenant's backlog %d (%v), want 0", other.Backlog, err)
		}
	})

	t.Run("WorkerRunsAreRecordedBoundedAndPerTenant", func(t *testing.T) {
		s := h.open(t, Options{})
		run := func(tenant string, i int) models.WorkerRun {
			return models.WorkerRun{Worker: models.WorkerDueSweep, Tenant: tenant, Elapsed: 1500 * time.Millisecond,
				Counts: map[string]int{"overdue": i}}
		}
		for i := 0; i < repository.KeepWorkerRuns+3; i++ {
			if err := s.RecordWorkerRuns(ctx(t), []models.WorkerRun{run("t1", i)}); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
		}
		failed := models.WorkerRun{Worker: models.WorkerDueSweep, Tenant: "t2", ErrorCode: "database-busy"}
		if err := s.RecordWorkerRuns(ctx(t), []models.WorkerRun{failed}); err != nil {
			t.Fatal(err)
		}
		all, err := s.WorkerRuns(ctx(t), "t1", models.WorkerDueSweep, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != repository.KeepWorkerRuns {
			t.Fatalf("%d runs kept, want %d", len(all), repository.KeepWorkerRuns)
		}
		if h.records(t, s, "user_task_worker_runs", map[string]any{"tenant_id": "t1"}) != repository.KeepWorkerRuns {
			t.Fatalf("older runs were not deleted")
		}
		latest := all[0]
		if latest.Counts["overdue"] != repository.KeepWorkerRuns+2 || latest.Tenant != "t1" || latest.ErrorCode != "" {
			t.Fatalf("latest run %+v, want the last recorded", latest)
		}
		if d := latest.Duration(); d < 1499*time.Millisecond || d > 1501*time.Millisecond {
			t.Fatalf("duration %s, want 1.5s", d)
		}
		other, err := s.WorkerRuns(ctx(t), "t2", models.WorkerDueSweep, 5)
		if err != nil || len(other) != 1 || other[0].ErrorCode != "database-busy" || len(other[0].Counts) != 0 {
			t.Fatalf("t2 runs %+v (%v), want its one failed run", other, err)
		}
		if none, err := s.WorkerRuns(ctx(t), "t1", models.WorkerReconciliation, 5); err != nil || len(none) != 0 {
			t.Fatalf("reconciliation runs %+v (%v), want none", none, err)
		}
	})

	t.Run("ErrMalformedWorkerRun", func(t *testing.T) {
		s := h.open(t, Options{})
		many := map[string]int{}
		for i := 0; i <= models.MaxWorkerRunCounts; i++ {
			many[fmt.Sprintf("c%d", i)] = i
		}
		for name, r := range map[string]models.WorkerRun{
			"NoTenant":      {Worker: models.WorkerDueSweep},
			"NoWorker":      {Tenant: "t1"},
			"LongTenant":    {Worker: models.WorkerDueSweep, Tenant: strings.Repeat("t", 65)},
			"TooManyCounts": {Worker: models.WorkerDueSweep, Tenant: "t1", Counts: many},
			"LongCountName": {Worker: models.WorkerDueSweep, Tenant: "t1", Counts: map[string]int{strings.Repeat("é", 600): 1}},
			"NegativeTime":  {Worker: models.WorkerDueSweep, Tenant: "t1", Elapsed: -time.Second},
		} {
			if err := s.RecordWorkerRuns(ctx(t), []models.WorkerRun{r}); err == nil {
				t.Errorf("%s: recorded, want refused", name)
			}
		}
		if n := h.records(t, s, "user_task_worker_runs", nil); n != 0 {
			t.Fatalf("%d runs stored, want none", n)
		}
	})
}

// rollupTotals sums a tenant's rollup counters per metric over all days, from the per-day sums.
func rollupTotals(t *testing.T, s store.Store, tenant string) map[string]int64 {
	t.Helper()
	r, err := s.DailyRollup(ctx(t), tenant, "0000-01-01")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, st := range r.ByDay {
		out[st.Metric] += st.Count
	}
	return out
}

// planTableScan finds a scan of table without an index: SQLite's "SCAN table" (not "USING
// INDEX"), PostgreSQL's "Seq Scan on table", MariaDB's access type ALL.
func planTableScan(d migrations.Dialect, plan, table string) string {
	switch d {
	case migrations.Postgres:
		return regexp.MustCompile(`Seq Scan on ` + table + `\b`).FindString(plan)
	case migrations.MySQL:
		// EXPLAIN's rows: id, select_type, table, type (ALL is a full scan), …
		return regexp.MustCompile(`(?m)^\S+ \S+ ` + table + ` ALL\b.*$`).FindString(plan)
	}
	for _, line := range regexp.MustCompile(`(?m)^.*\bSCAN (TABLE )?`+table+`\b.*$`).FindAllString(plan, -1) {
		if !strings.Contains(line, "USING INDEX") && !strings.Contains(line, "USING COVERING INDEX") &&
			!strings.Contains(line, "USING PRIMARY KEY") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// checkDashboardPlans runs the dashboard's reads on the seeded store of testQueryPlans and
// checks every statement's plan: no statement scans user_tasks (3,000 tasks, analyzed) on
// SQLite, PostgreSQL or MariaDB, and on SQLite, whose planner takes a usable index whatever the table's
// size, none scans the outbox, the rollup or the runs table either. (PostgreSQL rightly reads
// those small tables sequentially in a test; at scale they are read by their leading keys.)
func checkDashboardPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder) {
	if err := s.RecordWorkerRuns(ctx(t), []models.WorkerRun{{Worker: models.WorkerDueSweep, Tenant: "p1", Counts: map[string]int{"overdue": 1}}}); err != nil {
		t.Fatal(err)
	}
	t.Run("DetectsARunsTableScan", func(t *testing.T) {
		table := "user_tasks"
		if h.SQL.Dialect == migrations.SQLite {
			table = "user_task_worker_runs"
		}
		plan := h.SQL.Explain(t, s, "SELECT * FROM "+table+" WHERE "+map[bool]string{true: "counts_json", false: "summary"}[table != "user_tasks"]+" = 'none'")
		if planTableScan(h.SQL.Dialect, plan, table) == "" {
			t.Fatalf("%s: a full scan of %s is not recognized in the plan:\n%s", h.Name, table, plan)
		}
	})
	reads := map[string]func() error{
		"DashboardCounts": func() error { _, err := s.DashboardCounts(ctx(t), "p1", time.Hour); return err },
		"DailyRollup":     func() error { _, err := s.DailyRollup(ctx(t), "p1", "2000-01-01"); return err },
		"WorkerRuns":      func() error { _, err := s.WorkerRuns(ctx(t), "p1", models.WorkerDueSweep, 10); return err },
	}
	tables := []string{"user_tasks", "user_task_resumptions", "user_task_daily_stats", "user_task_worker_runs"}
	for name, read := range reads {
		t.Run(name+"UsesIndexes", func(t *testing.T) {
			rec.reset()
			if err := read(); err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, stmt := range rec.statements() {
				upper := strings.ToUpper(stmt)
				if !strings.HasPrefix(strings.TrimSpace(upper), "SELECT") || !strings.Contains(upper, "USER_TASK") {
					continue
				}
				checked++
				plan := h.SQL.Explain(t, s, stmt)
				for _, table := range tables {
					if table != "user_tasks" && h.SQL.Dialect != migrations.SQLite {
						continue
					}
					if scan := planTableScan(h.SQL.Dialect, plan, table); scan != "" {
						t.Fatalf("%s: the plan scans all of %s (%s)\nstatement:\n%s\nplan:\n%s", h.Name, table, scan, stmt, plan)
					}
				}
			}
			if checked == 0 {
				t.Fatalf("no statement was recorded")
			}
		})
	}
}
