package seed_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/store"
	"usertasks/stress/seed"
	"usertasks/testfactory"
)

// TestLoadReadsBack loads a small tenant on every dialect and reads it back through the store:
// the rows decode, and the dashboard's counts, the needs-attention list, the workflow choices
// and the rollup are exactly what the generator wrote.
func TestLoadReadsBack(t *testing.T) {
	// A cap above the 1,200 terminal tasks: the totals below are checked exactly.
	testfactory.EachSQL(t, &testfactory.StoreOpts{TotalCap: 10_000}, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		db, err := s.DB()
		if err != nil {
			t.Fatal(err)
		}
		indexes := indexSignature(t, db, s.Dialect())
		var phases []seed.Phase
		results, err := seed.Load(ctx, db, s.Dialect(), seed.Options{Keys: testfactory.Keys(), Tenants: []seed.Tenant{{Name: "scale", Open: 400, Terminal: 1200},
			{Name: "scale-other", Open: 4, Terminal: 12}}, Batch: 500, Progress: func(p seed.Progress) {
			if n := len(phases); n == 0 || phases[n-1] != p.Phase {
				phases = append(phases, p.Phase)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(phases), fmt.Sprint([]seed.Phase{seed.PhaseDropIndexes, seed.PhaseTasks, seed.PhaseCreateIndexes, seed.PhaseAnalyze}); got != want {
			t.Errorf("phases %s, want %s", got, want)
		}
		res := results[0]
		if got := indexSignature(t, db, s.Dialect()); got != indexes {
			t.Errorf("indexes after the load:\n%s\nwant the ones before it:\n%s", got, indexes)
		}
		auditClean(t, s)

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

		t.Run("ErrTenantNotEmpty", func(t *testing.T) {
			_, err := seed.Load(ctx, db, s.Dialect(), seed.Options{Keys: testfactory.Keys(), Tenants: []seed.Tenant{{Name: "fresh", Open: 1}, {Name: "scale", Open: 1}}})
			if !errors.Is(err, seed.ErrTenantNotEmpty) {
				t.Fatalf("err = %v, want ErrTenantNotEmpty", err)
			}
			if _, err := s.Get(ctx, "fresh", res.SampleID); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("a refused load wrote tenant fresh: %v", err)
			}
		})
		t.Run("BesideOtherTenantsKeepsIndexes", func(t *testing.T) {
			var phases []seed.Phase
			results, err := seed.Load(ctx, db, s.Dialect(), seed.Options{Keys: testfactory.Keys(), Tenants: []seed.Tenant{{Name: "more", Open: 30, Terminal: 20}},
				Batch: 7, Progress: func(p seed.Progress) { phases = append(phases, p.Phase) }})
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(phases, seed.PhaseDropIndexes) || results[0].Tasks != 50 {
				t.Errorf("phases %v, result %+v: want no index dropped and 50 tasks", phases, results[0])
			}
			auditClean(t, s)
		})
	})
}

// auditClean runs every check of `web audit` over the whole store and fails on a finding.
func auditClean(t *testing.T, s *repository.Store) {
	t.Helper()
	ctx := context.Background()
	findings, err := s.AuditTenantCounters(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	f := store.AuditFilter{}
	for {
		page, err := s.Audit(ctx, f, 500)
		if err != nil {
			t.Fatal(err)
		}
		findings = append(findings, page.Findings...)
		if page.Done {
			break
		}
		f.AfterTenant, f.AfterID = page.LastTenant, page.LastID
	}
	for i, x := range findings {
		if i == 10 {
			t.Errorf("... %d findings in all", len(findings))
			break
		}
		t.Errorf("audit: %+v", x)
	}
}

// indexSignature lists the indexes of the schema with their definitions (Load drops some and
// builds them again).
func indexSignature(t *testing.T, db *sql.DB, d migrations.Dialect) string {
	t.Helper()
	q := map[migrations.Dialect]string{
		migrations.SQLite:   "SELECT name || ' ' || COALESCE(sql, '') FROM sqlite_master WHERE type = 'index' ORDER BY name",
		migrations.Postgres: "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname",
		migrations.MySQL: "SELECT CONCAT_WS(' ', table_name, index_name, non_unique, seq_in_index, column_name, COALESCE(sub_part, ''), COALESCE(collation, '')) " +
			"FROM information_schema.statistics WHERE table_schema = DATABASE() ORDER BY table_name, index_name, seq_in_index",
	}[d]
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		b.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
