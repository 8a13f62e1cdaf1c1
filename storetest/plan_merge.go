package storetest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// planPostgresSort finds a Sort node in a PostgreSQL plan (not its "Sort Key" or "Sort Method"
// lines).
var planPostgresSort = regexp.MustCompile(`(?m)^\s*(?:->\s*)?Sort\s+\(`)

// statusMerge is how each dialect's plan shows statusPage's walks read as one merge in index
// order (merge), and whether a plan sorts the walks' rows together instead (sortsUnion).
var statusMerge = map[migrations.Dialect]struct {
	merge      string
	sortsUnion func(plan string) bool
}{
	migrations.SQLite:   {"MERGE (UNION ALL)", func(plan string) bool { return strings.Contains(plan, "TEMP B-TREE") }},
	migrations.Postgres: {"Merge Append", postgresSortsUnion},
}

// postgresSortsUnion reports whether a PostgreSQL plan has a Sort above its Merge Append (a
// plan lists a node's parents before it), or no Merge Append at all: the union's rows are
// sorted. A Sort inside an arm, under the arm's own Limit, is the planner's choice for a
// status it expects a few rows of (the suite's tenant of 450 tasks); at the scale target every
// arm walks its index (docs/query-plans.md).
func postgresSortsUnion(plan string) bool {
	at := strings.Index(plan, "Merge Append")
	return at < 0 || planPostgresSort.MatchString(plan[:at])
}

// testStatusMergePlans pins the shape of statusPage on SQLite and PostgreSQL: the walks of the
// statuses are the arms of one ordered compound that the database reads as a merge, each arm
// in its index's order, stopping after the page — SQLite's MERGE (UNION ALL), PostgreSQL's
// Merge Append. The shape before (each walk LIMIT page + 1 ids, their rows read again by id
// and sorted: SQLite's USE TEMP B-TREE, PostgreSQL's Sort over the Append) read up to a page
// per status and fetched each row twice; for a common needle's window (1,001 rows, six
// statuses) 33 ms of the needs-attention page's 40 on SQLite at the scale target, 29–63 ms of
// statement on PostgreSQL. PostgreSQL merges only arms that carry their own ORDER BY and LIMIT
// (mergedWalks): without them it sorts the union's rows, which this reports too.
// Every sort and direction of needs attention, plain and with a short needle (the window a
// common needle reads too), and the all list with a workflow filter, first page and past a
// cursor.
func testStatusMergePlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, boss models.Actor) {
	want, ok := statusMerge[h.SQL.Dialect]
	if !ok {
		return // MariaDB sorts the union of the walks (unitedWalks)
	}
	type variant struct {
		name  string
		apply func(*models.TaskFilter)
	}
	variants := []variant{
		{"NeedsAttention", func(f *models.TaskFilter) { f.Scope = models.ScopeNeedsAttention }},
		{"NeedsAttentionShortSearch", func(f *models.TaskFilter) { f.Scope = models.ScopeNeedsAttention; f.Search = "e" }},
		{"AllWorkflow", func(f *models.TaskFilter) { f.Scope = models.ScopeAll; f.WorkflowDefinitionID = "def-03" }},
	}
	for _, v := range variants {
		for _, sort := range []models.SortKey{models.SortCreated, models.SortDue, models.SortPriority, models.SortTitle,
			models.SortUpdated, models.SortCompleted} {
			for _, desc := range []bool{false, true} {
				name := fmt.Sprintf("%s%s%sMergesTheWalks", v.name, sort, map[bool]string{false: "Asc", true: "Desc"}[desc])
				t.Run(name, func(t *testing.T) {
					f := models.TaskFilter{Tenant: "p1", Actor: boss, Sort: sort, Descending: desc, Limit: 5, IncludeTotal: true}
					v.apply(&f)
					walks, _ := pageStatements(t, s, rec, f, func(stmt string) bool { return strings.Contains(stmt, " UNION ALL ") })
					if len(walks) == 0 {
						t.Fatalf("no walk of the statuses (UNION ALL) was recorded")
					}
					for _, stmt := range walks {
						plan := h.SQL.Explain(t, s, stmt)
						if !strings.Contains(plan, want.merge) || want.sortsUnion(plan) {
							t.Errorf("%s: the walks are not one merge in index order\nstatement:\n%s\nplan:\n%s", h.Name, stmt, plan)
						}
					}
				})
			}
		}
	}
}
