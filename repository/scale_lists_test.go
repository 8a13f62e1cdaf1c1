package repository_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/storetest"
	"usertasks/stress/seed"
	"usertasks/testfactory"
)

// scaleDeepRows is how far the deep-cursor page of a list lies: its cursor is followed through
// this many rows first (pages of MaxPageSize), then a page of DefaultPageSize is read.
const scaleDeepRows = 1_000

// scaleListsEnv narrows the list matrix to the lists whose name ("available title desc search")
// matches its regular expression, to look at a few plans by hand; unset, every list runs.
const scaleListsEnv = "USERTASKS_SCALE_LISTS"

// scaleSortedTables are the tables no list, dashboard or worker statement may read in full.
var scaleSortedTables = []string{"user_tasks", "user_task_events", "user_task_candidates", "user_task_deadlines"}

// scaleRareNeedle is a search that matches a few of the tenant's tasks (a reference the seed
// writes once), where "review" matches thousands: the two sides of probeSearch.
const scaleRareNeedle = "ref-1234"

// scaleListCase is one list of the matrix: a scope for its actor, a sort, a direction and a
// variant (plain, search, filter).
type scaleListCase struct {
	name string
	f    models.TaskFilter
}

// scaleListCases is every scope (assigned, available for a user in 5 groups, history, all, needs
// attention) × every sort × both directions × plain, with a search, with a filter.
func scaleListCases(tenant string) []scaleListCase {
	person, _ := seed.Person(7)
	worker := testfactory.Person(tenant, person, "g00", "g03", "g06", "g01", "g02")
	manager := testfactory.Manager(tenant, "boss")
	scopes := []struct {
		scope models.Scope
		actor models.Actor
	}{
		{models.ScopeAssigned, worker}, {models.ScopeAvailable, worker}, {models.ScopeHistory, worker},
		{models.ScopeAll, manager}, {models.ScopeNeedsAttention, manager},
	}
	variants := []struct {
		name  string
		apply func(*models.TaskFilter)
	}{
		{"", func(*models.TaskFilter) {}},
		{" search", func(f *models.TaskFilter) { f.Search = "review" }},
		{" search rare", func(f *models.TaskFilter) { f.Search = scaleRareNeedle }},
		{" workflow", func(f *models.TaskFilter) { f.WorkflowDefinitionID = seed.WorkflowID(1) }},
	}
	var out []scaleListCase
	for _, sc := range scopes {
		for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortPriority, models.SortTitle,
			models.SortUpdated, models.SortCompleted} {
			for _, desc := range []bool{false, true} {
				for _, v := range variants {
					f := models.TaskFilter{Tenant: tenant, Actor: sc.actor, Scope: sc.scope, Sort: sort, Descending: desc}
					v.apply(&f)
					dir := "asc"
					if desc {
						dir = "desc"
					}
					out = append(out, scaleListCase{fmt.Sprintf("%s %s %s%s", sc.scope, sort, dir, v.name), f})
				}
			}
		}
	}
	return out
}

// scaleLists runs the list matrix on the loaded store: each case's first page with its total,
// and a page scaleDeepRows down its cursor. Every statement is explained: a full scan of a
// scaleSortedTables table, or a sort of more rows than a page, is an error. The figures (server
// time, plan) are logged as a table; time is reported, never judged.
func scaleLists(t *testing.T, d migrations.Dialect, s *repository.Store, db *sql.DB, rec *sqlLog) {
	ctx := context.Background()
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-40s %-5s %9s %7s  %s\n", "list", "page", "server", "sorted", "plan")
	known := map[string][]string{} // reason → the statements it explains
	only := regexp.MustCompile(os.Getenv(scaleListsEnv))
	for _, c := range scaleListCases("scale") {
		if !only.MatchString(c.name) {
			continue
		}
		for _, deep := range []bool{false, true} {
			f := c.f
			f.IncludeTotal = !deep
			page := "first"
			if deep {
				page = "deep"
				f.Limit = models.MaxPageSize
				var walked int
				for walked < scaleDeepRows {
					got, err := s.Query(ctx, f)
					if err != nil {
						t.Fatalf("%s: %v", c.name, err)
					}
					walked += len(got.Items)
					if got.NextCursor == "" {
						break
					}
					f.Cursor = got.NextCursor
				}
				if walked < scaleDeepRows {
					continue // the list is shorter than the deep page's offset
				}
			}
			f.Limit = models.DefaultPageSize
			rec.reset()
			if _, err := s.Query(ctx, f); err != nil {
				t.Fatalf("%s (%s page): %v", c.name, page, err)
			}
			for i, stmt := range rec.selects() {
				plan, took := serverTimeRuns(t, d, db, stmt, 1, 2)
				sorted := sortedRows(t, d, db, stmt, plan)
				fmt.Fprintf(&table, "%-40s %-5s %7.2fms %7s  %s\n", c.name, page, float64(took.Microseconds())/1000,
					map[bool]string{true: fmt.Sprint(sorted), false: "-"}[sorted >= 0], planSummary(d, plan))
				var problems []string
				for _, tbl := range scaleSortedTables {
					if scan := storetest.FullScan(d, plan, tbl); scan != "" {
						problems = append(problems, fmt.Sprintf("scans all of %s (%s)", tbl, scan))
					}
				}
				if sorted > models.MaxPageSize+1 {
					problems = append(problems, fmt.Sprintf("sorts %d rows", sorted))
				}
				for _, p := range problems {
					what := fmt.Sprintf("%s %s (%s page): statement %d %s", testfactory.Provider(d).Name(), c.name, page, i+1, p)
					if reason := scaleKnownGap(what); reason != "" {
						known[reason] = append(known[reason], what)
						continue
					}
					t.Errorf("%s\n%s\nplan:\n%s", what, stmt, plan)
				}
			}
		}
	}
	t.Logf("%s lists:%s", testfactory.Provider(d).Name(), table.String())
	for _, g := range scaleKnownGaps {
		if got := known[g.reason]; len(got) > 0 {
			t.Logf("%s: %d statements, a known gap: %s\n  %s", testfactory.Provider(d).Name(), len(got), g.reason, strings.Join(got, "\n  "))
		}
	}
}

// scaleKnownGaps are the plans at the scale target that still sort more than a page or read a
// table in full, each with why and what would close it (docs/query-plans.md). The test logs
// them and fails on any other: a new gap is a regression.
var scaleKnownGaps = []struct {
	match  *regexp.Regexp // against "<dialect> <scope> <sort> <dir>[ variant] (<page> page): statement <n> <problem>"
	reason string
}{
	{regexp.MustCompile(`^\w+ (needs-attention \S+ \w+ (search |workflow )?|all \S+ \w+ workflow )\(\w+ page\): statement \d sorts`),
		"bounded by design: the needs-attention page, and the all page with a workflow filter, read one walk per status in the sort's index (ix_tasks_status_<sort>, ix_tasks_workflow_<sort>); MariaDB sorts their union, at most 6 (needs attention) or 9 (all) × (page + 1) rows at any size (unitedWalks), SQLite and PostgreSQL merge the walks (mergedWalks), where PostgreSQL may still sort the few rows of an arm it expects to be short (statusPage)"},
	{regexp.MustCompile(`^PostgreSQL available \S+ \w+ \(deep page\): statement \d sorts`),
		"PostgreSQL, on a deep page of the available list, estimates that few of the user's tasks lie past the cursor and sorts them instead of walking the status's sort index (availableWalk): at most the list's rows past the cursor"},
	{regexp.MustCompile(`^PostgreSQL available \S+ \w+ search \(\w+ page\): statement \d sorts`),
		"PostgreSQL reads the available list from the person's candidate rows and sorts their tasks when they are a candidate of fewer than the crossing point √(need × open ÷ 2) (availableRead): for a common needle's window of 1,001 rows that is 2,237 at a tenth of the target, where the bench's user has 1,367, and 7,075 at the target, where they have 13,091 and the list is walked (no sort); at most the crossing point's rows: docs/query-plans.md, \"The available list by the list's length\""},
	{regexp.MustCompile(`^\w+ history .*sorts`),
		"the history list finds the tasks the user completed or acted on (covering ix_tasks_completed_by, ix_events_actor), then sorts them, the first page counting its total in the same statement: a few thousand rows per person at the target"},
	{regexp.MustCompile(`^MariaDB (all|needs-attention) \S+ \w+ search.*(sorts|scans all of user_tasks)`),
		"MariaDB has no substring index (docs/query-plans.md, Search): a search is the sort index's walk with the LIKE filter, and the total's count stops at the cap"},
	{regexp.MustCompile(`^(SQLite|PostgreSQL) \S+ \S+ \w+ search rare \(\w+ page\): statement \d sorts`),
		"bounded by design: a rare needle's list is read among the at most SearchProbe ids the substring index found, by primary key, and sorted (probeSearch)"},
}

// scaleKnownGap returns the reason of the known gap that explains what, or "".
func scaleKnownGap(what string) string {
	for _, g := range scaleKnownGaps {
		if g.match.MatchString(what) {
			return g.reason
		}
	}
	return ""
}

var (
	sqliteSort   = regexp.MustCompile(`USE TEMP B-TREE FOR (?:ORDER BY|GROUP BY|DISTINCT)`)
	postgresSort = regexp.MustCompile(`(?m)^\s*(?:->\s*)?Sort\s+\(`)
	mysqlSort    = regexp.MustCompile(`Using filesort`)
	orderByTail  = regexp.MustCompile(`(?is)\s+ORDER BY [^()]*$`)
)

// sortedRows is the number of rows the statement's sort reads when its plan sorts (the count of
// the statement without its outer ORDER BY and LIMIT), or -1 when the plan reads its rows in
// order. A sort of a statement whose ORDER BY lies inside a sub-select is counted as the whole
// statement's rows: an upper bound.
func sortedRows(t *testing.T, d migrations.Dialect, db *sql.DB, stmt, plan string) int {
	t.Helper()
	sorts := map[migrations.Dialect]*regexp.Regexp{migrations.SQLite: sqliteSort, migrations.Postgres: postgresSort,
		migrations.MySQL: mysqlSort}[d]
	if !sorts.MatchString(plan) {
		return -1
	}
	loc := orderByTail.FindStringIndex(stmt)
	if loc == nil {
		return -1 // a sort inside a sub-select of a bounded walk (statusPage): its rows are few
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM (" + stmt[:loc[0]] + ") sorted").Scan(&n); err != nil {
		t.Fatalf("count the sorted rows: %v\n%s", err, stmt)
	}
	return n
}

// scaleWorkerReads are the background workers' reads at the scale target.
func scaleWorkerReads(ctx context.Context, s *repository.Store) []scaleRead {
	return []scaleRead{
		{"due sweep", func() error { _, err := s.DueTasks(ctx, 100, nil); return err }},
		{"reconciliation", func() error { _, err := s.ReconcileTasks(ctx, "scale", time.Minute, "", 100); return err }},
		{"known bookmarks", func() error { _, err := s.KnownBookmarks(ctx, "scale", []string{"bm-x", "bm-y"}); return err }},
		{"tenants", func() error { _, err := s.Tenants(ctx); return err }},
	}
}

// scaleRead is one named read of the scale test.
type scaleRead struct {
	name string
	read func() error
}
