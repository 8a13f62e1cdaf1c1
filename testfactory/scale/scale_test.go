package scale_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
	"usertasks/testfactory/scale"
)

// TestLoadReadsBack loads a small tenant on every dialect and reads it back through the store:
// the rows decode, and the dashboard's counts, the needs-attention list, the workflow choices
// and the rollup are exactly what the generator wrote.
func TestLoadReadsBack(t *testing.T) {
	// A cap above the 1,200 terminal tasks: the totals below are checked exactly.
	testfactory.EachStore(t, &testfactory.StoreOpts{TotalCap: 10_000}, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		db, err := s.DB()
		if err != nil {
			t.Fatal(err)
		}
		indexes := indexCount(t, db, s.Dialect())
		res, err := scale.Load(ctx, db, s.Dialect(), scale.Options{Open: 400, Terminal: 1200, Batch: 500})
		if err != nil {
			t.Fatal(err)
		}
		if got := indexCount(t, db, s.Dialect()); got != indexes {
			t.Errorf("%d indexes after the load, want the %d before it", got, indexes)
		}

		task, err := s.Get(ctx, "scale", res.SampleID)
		if err != nil {
			t.Fatalf("Get(sample): %v", err)
		}
		if !task.Status.CountsAsOpen() || task.Title == "" || task.Workflow.DefinitionName == "" || len(task.Actions) != 1 {
			t.Errorf("sample task = %+v, want an open task with a title, a workflow name and the default action", task)
		}

		counts, err := s.DashboardCounts(ctx, "scale", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range append(append([]models.Status{}, models.OpenStatuses...), models.TransitionalStatuses...) {
			if got, want := counts.ByStatus[st], res.ByStatus[st]; got != want {
				t.Errorf("open count of %s = %d, want %d", st, got, want)
			}
		}
		health := 0
		for _, h := range counts.ByHealth {
			health += h.Count
		}
		if health != res.Health || counts.Overdue != res.Overdue || counts.Backlog != res.Backlog {
			t.Errorf("health, overdue, backlog = %d, %d, %d; want %d, %d, %d",
				health, counts.Overdue, counts.Backlog, res.Health, res.Overdue, res.Backlog)
		}
		if len(counts.Workload) == 0 || counts.Workload[0].Assignee.DisplayName == "" {
			t.Errorf("workload = %+v, want named assignees", counts.Workload)
		}

		manager := testfactory.Manager("scale", "boss")
		page, err := s.Query(ctx, models.TaskFilter{Tenant: "scale", Actor: manager, Scope: models.ScopeAll,
			Statuses: models.TerminalStatuses, IncludeTotal: true, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		terminal := res.ByStatus[models.StatusCompleted] + res.ByStatus[models.StatusCancelled] + res.ByStatus[models.StatusTimedOut]
		if page.Total == nil || *page.Total != terminal || len(page.Items) != 50 {
			t.Errorf("terminal page: total %v, %d items; want %d, 50", page.Total, len(page.Items), terminal)
		}
		attention, err := s.Query(ctx, models.TaskFilter{Tenant: "scale", Actor: manager, Scope: models.ScopeNeedsAttention,
			IncludeTotal: true})
		if err != nil {
			t.Fatal(err)
		}
		if attention.Total == nil || *attention.Total < res.Overdue {
			t.Errorf("needs attention total = %v, want at least the %d overdue", attention.Total, res.Overdue)
		}

		choices, err := s.WorkflowChoices(ctx, models.TaskFilter{Tenant: "scale", Actor: manager, Scope: models.ScopeAll}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(choices) != res.Workflows || choices[0].Name == "" {
			t.Errorf("workflow choices = %+v, want %d named", choices, res.Workflows)
		}

		rollup, err := s.DailyRollup(ctx, "scale", "2000-01-01")
		if err != nil {
			t.Fatal(err)
		}
		var created, createdByFlow int64
		for _, st := range rollup.ByDay {
			if st.Metric == models.MetricCreated {
				created += st.Count
			}
		}
		flows := map[string]bool{}
		for _, st := range rollup.ByWorkflow {
			flows[st.WorkflowDefinitionID] = true
			if st.Metric == models.MetricCreated {
				createdByFlow += st.Count
			}
		}
		if res.Stats == 0 || created != 1600 || createdByFlow != 1600 || len(flows) != res.Workflows {
			t.Errorf("rollup of %d counters: %d created by day, %d by workflow over %d workflows; want 1600, 1600, %d",
				res.Stats, created, createdByFlow, len(flows), res.Workflows)
		}
	})
}

// indexCount counts the indexes of the schema (Load drops some and builds them again).
func indexCount(t *testing.T, db *sql.DB, d migrations.Dialect) int {
	t.Helper()
	q := map[migrations.Dialect]string{
		migrations.SQLite:   "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index'",
		migrations.Postgres: "SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema()",
		migrations.MySQL:    "SELECT COUNT(DISTINCT table_name, index_name) FROM information_schema.statistics WHERE table_schema = DATABASE()",
	}[d]
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
