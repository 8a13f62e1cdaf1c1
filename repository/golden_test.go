package repository

// Golden SQL for SQL Server and Oracle.
//
// The files under testdata/golden/{sqlserver,oracle} are REVIEWED SQL for dialects that are
// not run live here: no SQL Server or Oracle server is available on this machine, so every
// statement the store issues is rendered by GORM's real sqlserver and oracle dialectors (the
// exact dialector configuration Open uses) against a recording fake driver (fakesql_test.go),
// one file per scenario and dialect. The tests fail when the store's SQL changes; after a
// deliberate change, `make golden` (UPDATE_GOLDEN=1) rewrites the files and the diff is what
// a reviewer reads. Values are never inlined: the statements keep the dialect's bind markers
// (@pN, :N) and a comment under each statement lists the Go types of the bound values.
//
// Besides the comparison, every recorded statement is checked against what the two servers
// accept (no LIMIT, bind markers and counts, no trailing semicolon on Oracle, SELECT ... FROM
// on Oracle, no boolean literals, CLOB comparisons, FOR UPDATE, IN-list and parameter limits)
// and against the migrations' own CREATE TABLE text: every table and column a statement names
// must exist in that dialect's schema.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	oracle "github.com/godoes/gorm-oracle"
	mssql "github.com/microsoft/go-mssqldb"
	"gorm.io/driver/sqlserver"
	"gorm.io/gorm"

	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

var goldenDialects = []migrations.Dialect{migrations.SQLServer, migrations.Oracle}

// goldenNow is what the fake database clock answers.
var goldenNow = time.Date(2026, 3, 2, 10, 4, 5, 123456000, time.UTC)

// knownProblems are findings of the dialect checks that the store does not fix yet, keyed
// "dialect/scenario/check". They are logged instead of failing; an entry that no longer occurs
// fails, so the list is emptied as the store is fixed.
var knownProblems = map[string]string{}

func TestGolden(t *testing.T) {
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for _, d := range goldenDialects {
		t.Run(string(d), func(t *testing.T) {
			schema := loadSchema(t, d)
			s, srv := goldenStore(t, d)
			seen := map[string]bool{}
			for _, sc := range goldenScenarios() {
				if seen[sc.name] {
					t.Fatalf("scenario %s is listed twice", sc.name)
				}
				seen[sc.name] = true
				t.Run(sc.name, func(t *testing.T) {
					s.tenants.Clear()
					srv.Reset(fakeScript{})
					sc.run(t, &goldenEnv{s: s, srv: srv, ctx: context.Background()})
					log := srv.Log()
					if len(log) == 0 {
						t.Fatal("the scenario issued no statement")
					}
					found := checkStatements(d, schema, log)
					reportProblems(t, d, sc.name, found)
					compareGolden(t, d, sc.name, renderGolden(d, sc.name, log), update)
				})
			}
			if !update {
				checkNoStrayGoldenFiles(t, d, seen)
			}
		})
	}
}

// TestGoldenCheckersCatchBadSQL makes sure the dialect checks are not vacuous.
func TestGoldenCheckersCatchBadSQL(t *testing.T) {
	type checkerCase struct {
		dialect migrations.Dialect
		sql     string
		binds   int
		want    string
	}
	cases := []checkerCase{
		{migrations.SQLServer, `SELECT * FROM "user_tasks" WHERE tenant_id = @p1 LIMIT 1`, 1, "limit"},
		{migrations.Oracle, `SELECT * FROM user_tasks WHERE tenant_id = :1;`, 1, "trailing-semicolon"},
		{migrations.Oracle, `SELECT * FROM user_tasks WHERE tenant_id = @p1`, 1, "bind-markers"},
		{migrations.SQLServer, `SELECT * FROM "user_tasks" WHERE tenant_id = ?`, 1, "bind-markers"},
		{migrations.SQLServer, `SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2`, 1, "bind-count"},
		{migrations.Oracle, `SELECT 1`, 0, "select-from"},
		{migrations.Oracle, `SELECT * FROM user_tasks WHERE EXISTS (SELECT 1) AND id = :1`, 1, "select-from"},
		{migrations.Oracle, `SELECT * FROM user_tasks WHERE is_overdue = TRUE`, 0, "boolean-literal"},
		{migrations.Oracle, `SELECT * FROM user_tasks WHERE search_text = :1`, 1, "clob-comparison"},
		{migrations.Oracle, `SELECT id FROM user_tasks ORDER BY actions_json`, 0, "clob-comparison"},
		{migrations.SQLServer, `SELECT * FROM "user_tasks" WHERE id = @p1 FOR UPDATE`, 1, "for-update"},
		{migrations.SQLServer, `SELECT * FROM "user_tasks" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY`, 0, "fetch-without-order"},
		{migrations.SQLServer, `SELECT * FROM "user_tasks" WHERE tenant = @p1`, 1, "identifier"},
		{migrations.SQLServer, `SELECT count(*) FROM "user_tasks" WHERE id = @p1 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY`, 1, "aggregate-order-by"},
		{migrations.Oracle, `SELECT id FROM user_task WHERE id = :1`, 1, "identifier"},
		{migrations.Oracle, `UPDATE user_task_tags SET status = :1 WHERE task_id = :2`, 2, "identifier"},
		{migrations.Oracle, `SELECT x.id FROM user_tasks t WHERE t.id = :1`, 1, "identifier"},
	}
	markers := func(prefix string, n int) string {
		var m []string
		for i := 1; i <= n; i++ {
			m = append(m, prefix+strconv.Itoa(i))
		}
		return strings.Join(m, ",")
	}
	cases = append(cases,
		checkerCase{migrations.Oracle, "SELECT id FROM user_tasks WHERE id IN (" + markers(":", 1001) + ") ORDER BY id", 1001, "in-list"},
		checkerCase{migrations.SQLServer, `SELECT "id" FROM "user_tasks" WHERE id IN (` + markers("@p", 2101) + ")", 2101, "max-binds"},
	)
	for _, c := range cases {
		schema := loadSchema(t, c.dialect)
		log := []fakeStmt{{SQL: c.sql, Binds: make([]string, c.binds)}}
		found := checkStatements(c.dialect, schema, log)
		var checks []string
		for _, p := range found {
			checks = append(checks, p.check)
		}
		if !slices.Contains(checks, c.want) {
			t.Errorf("%s: %q: got problems %v, want %s", c.dialect, c.sql, found, c.want)
		}
	}
}

// TestGoldenOracleResultColumnNames drives reads through the Oracle dialector with result
// columns named as a real Oracle server names them: upper case, since the schema's unquoted
// identifiers are stored in upper case.
func TestGoldenOracleResultColumnNames(t *testing.T) {
	s, srv := goldenStore(t, migrations.Oracle)
	srv.upperColumns = true
	g := &goldenEnv{s: s, srv: srv, ctx: context.Background()}
	task := g.task(goldenTaskOpts{Tags: []string{"urgent"}, CandidateUsers: []string{"u1"}, Excluded: []string{"u9"}})
	g.answer(fakeScript{Rows: g.stored(task)})
	got, err := s.Get(g.ctx, "t1", task.ID)
	problem := ""
	switch {
	case err != nil:
		problem = fmt.Sprintf("Get fails: %v", err)
	case got.Title != task.Title || got.Status != task.Status || len(got.Assignment.Candidates) != 1:
		problem = fmt.Sprintf("Get decodes title %q, status %q, %d candidates; want %q, %q, 1",
			got.Title, got.Status, len(got.Assignment.Candidates), task.Title, task.Status)
	}
	var found []goldenProblem
	if problem != "" {
		found = append(found, goldenProblem{check: "upper-case-columns", detail: problem})
	}
	reportProblems(t, migrations.Oracle, "result-columns", found)
}

// goldenStore builds a store the way Open does for d (same dialector configuration, same GORM
// configuration, the defaults of Open), with the fake server as its connection.
func goldenStore(t *testing.T, d migrations.Dialect) (*Store, *fakeServer) {
	t.Helper()
	spec, err := keyring.Generate("golden")
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{URL: string(d) + "://golden", Keys: keys}.withDefaults()
	s := &Store{dialect: d, keys: keys, cfg: cfg}
	srv := newFakeServer(s.nowSQL(), goldenNow)
	db := srv.DB()
	var dialector gorm.Dialector
	switch d {
	case migrations.SQLServer:
		dialector = sqlserver.New(sqlserver.Config{Conn: db})
	case migrations.Oracle:
		dialector = oracle.New(oracle.Config{Conn: db})
		srv.numericBools = true
	default:
		t.Fatalf("no golden SQL for %s", d)
	}
	s.write, err = s.openGorm(dialector)
	if err != nil {
		t.Fatalf("open %s dialector on the fake: %v", d, err)
	}
	if d == migrations.Oracle {
		srv.upperColumns = true // as a real Oracle server answers
	}
	s.read = s.write
	s.pools = []*sql.DB{db}
	t.Cleanup(func() { s.Close() })
	return s, srv
}

// Rendering and comparison.

func renderGolden(d migrations.Dialect, scenario string, log []fakeStmt) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "-- Scenario %q: the statements the store sends, in order, as GORM's %s dialector renders them.\n", scenario, d)
	b.WriteString("-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.\n")
	for _, st := range log {
		b.WriteString(st.SQL)
		b.WriteByte('\n')
		if len(st.Binds) > 0 {
			b.WriteString("--   binds: ")
			b.WriteString(compactTypes(st.Binds))
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// compactTypes lists types, runs of one type written once with a count: "string x3, int".
func compactTypes(types []string) string {
	var parts []string
	for i := 0; i < len(types); {
		j := i
		for j < len(types) && types[j] == types[i] {
			j++
		}
		if n := j - i; n > 1 {
			parts = append(parts, fmt.Sprintf("%s x%d", types[i], n))
		} else {
			parts = append(parts, types[i])
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

func goldenPath(d migrations.Dialect, scenario string) string {
	return filepath.Join("testdata", "golden", string(d), scenario+".sql")
}

func compareGolden(t *testing.T, d migrations.Dialect, scenario string, got []byte, update bool) {
	t.Helper()
	path := goldenPath(d, scenario)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s: golden file %s is missing; run `make golden` and review it", scenario, path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(gotLines), len(wantLines)); i++ {
		var g, w string
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Fatalf("%s SQL of scenario %s differs from %s at line %d:\n got: %s\nwant: %s\n"+
				"If the change is intended, run `make golden` and review the diff.", d, scenario, path, i+1, g, w)
		}
	}
}

func checkNoStrayGoldenFiles(t *testing.T, d migrations.Dialect, scenarios map[string]bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "golden", string(d), "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".sql"); !scenarios[name] {
			t.Errorf("%s belongs to no scenario; delete it (or rerun `make golden` after removing it)", f)
		}
	}
}

// Problems found by the checks.

type goldenProblem struct {
	check  string
	detail string
}

func (p goldenProblem) String() string { return p.check + ": " + p.detail }

func reportProblems(t *testing.T, d migrations.Dialect, scenario string, found []goldenProblem) {
	t.Helper()
	byCheck := map[string][]goldenProblem{}
	for _, p := range found {
		byCheck[p.check] = append(byCheck[p.check], p)
	}
	prefix := string(d) + "/" + scenario + "/"
	for check, ps := range byCheck {
		if reason, known := knownProblems[prefix+check]; known {
			t.Logf("KNOWN PROBLEM %s%s (%s): %s", prefix, check, reason, ps[0].detail)
			continue
		}
		for _, p := range ps {
			t.Errorf("%s %s: %s", d, scenario, p)
		}
	}
	for key := range knownProblems {
		if check, ok := strings.CutPrefix(key, prefix); ok && len(byCheck[check]) == 0 {
			t.Errorf("known problem %s no longer occurs: remove it from knownProblems", key)
		}
	}
}

// Scenarios.

type goldenScenario struct {
	name string
	run  func(t *testing.T, g *goldenEnv)
}

type goldenEnv struct {
	s   *Store
	srv *fakeServer
	ctx context.Context
}

// answer installs the scenario's script (and forgets nothing recorded so far).
func (g *goldenEnv) answer(sc fakeScript) {
	g.srv.mu.Lock()
	defer g.srv.mu.Unlock()
	g.srv.script = sc
}

func goldenOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func goldenCode(t *testing.T, err error, code models.Code) {
	t.Helper()
	if got := models.ErrorCode(err); got != code {
		t.Fatalf("got error %v (code %q), want %s", err, got, code)
	}
}

func goldenIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("got error %v, want %v", err, target)
	}
}

func goldenScenarios() []goldenScenario {
	var out []goldenScenario
	out = append(out, createScenarios()...)
	out = append(out, mutateScenarios()...)
	out = append(out, readScenarios()...)
	out = append(out, outboxScenarios()...)
	out = append(out, leaseScenarios()...)
	out = append(out, invitationScenarios()...)
	out = append(out, invitationExpiryScenarios()...)
	out = append(out, invitationRevokeScenarios()...)
	out = append(out, queryScenarios()...)
	out = append(out, purgeScenarios()...)
	out = append(out, webSessionScenarios()...)
	out = append(out, rekeyScenarios()...)
	out = append(out, guestSessionScenarios()...)
	out = append(out, notificationScenarios()...)
	out = append(out, commentScenarios()...)
	out = append(out, attachmentScenarios()...)
	out = append(out, activityScenarios()...)
	out = append(out, deadlineScenarios()...)
	out = append(out, absenceScenarios()...)
	out = append(out, deadlinePolicyScenarios()...)
	return out
}

// goldenRows lists, per table, what its successive SELECTs find; the last entry repeats.
type goldenRows map[string][][]any

func (a goldenRows) rows(table string, nth int) []any {
	list := a[table]
	if len(list) == 0 {
		return nil
	}
	return list[min(nth, len(list)-1)]
}

// goldenCounts lists, per table, what its successive SELECT COUNT(*)s answer; the last repeats.
type goldenCounts map[string][]int64

func (c goldenCounts) count(table string, nth int) int64 {
	list := c[table]
	if len(list) == 0 {
		return 0
	}
	return list[min(nth, len(list)-1)]
}

// goldenAffected answers the row counts of writes: key "VERB table", successive statements.
type goldenAffected map[string][]int64

func (a goldenAffected) rows(verb, table string, nth int) int64 {
	list, ok := a[verb+" "+table]
	if !ok {
		return 1
	}
	return list[min(nth, len(list)-1)]
}

// goldenDuplicateKey is the unique-key violation the dialect's driver reports.
func goldenDuplicateKey(d migrations.Dialect) error {
	if d == migrations.SQLServer {
		return mssql.Error{Number: 2627, Message: "Violation of UNIQUE KEY constraint 'ux_tasks_materialization'."}
	}
	return errors.New("ORA-00001: unique constraint (USERTASKS.UX_TASKS_MATERIALIZATION) violated")
}

func failOnceOn(err error, verb, table string) func(string, string, int) error {
	return func(v, tb string, nth int) error {
		if v == verb && tb == table && nth == 0 {
			return err
		}
		return nil
	}
}

func createScenarios() []goldenScenario {
	build := func(c models.Change) models.BuildFunc {
		return func(now time.Time) (models.Change, error) {
			c.Task.CreatedAt, c.Task.UpdatedAt, c.Event.OccurredAt = now, now, now
			return c, nil
		}
	}
	richTask := goldenTaskOpts{
		Tags: []string{"urgent", "Finance"}, CandidateUsers: []string{"u1", "u2"}, CandidateGroups: []string{"g1"},
		SnapshotGroup: "g2", SnapshotMembers: []string{"u3"}, Excluded: []string{"u9"},
		Instructions: "Check the invoice.", Data: `{"amount":12}`, Requester: true,
	}
	create := func(t *testing.T, g *goldenEnv, c models.Change) (models.Task, bool, error) {
		return g.s.Create(g.ctx, c.Task.Tenant, c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, build(c))
	}
	return []goldenScenario{
		{"create", func(t *testing.T, g *goldenEnv) {
			c := g.change(richTask)
			g.answer(fakeScript{Count: goldenCounts{"user_task_tenants": {1}}.count, Rows: g.stripes(0).rows})
			_, created, err := create(t, g, c)
			goldenOK(t, err)
			if !created {
				t.Fatal("not created")
			}
		}},
		{"create-first-of-tenant", func(t *testing.T, g *goldenEnv) {
			c := g.change(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			g.answer(fakeScript{Count: goldenCounts{"user_task_tenants": {0}}.count})
			_, created, err := create(t, g, c)
			goldenOK(t, err)
			if !created {
				t.Fatal("not created")
			}
		}},
		{"create-counter-row-missing", func(t *testing.T, g *goldenEnv) {
			c := g.change(goldenTaskOpts{})
			// ensureTenant saw the stripes; they are gone when the task is counted.
			g.answer(fakeScript{
				Count:    goldenCounts{"user_task_tenants": {1}}.count,
				Rows:     goldenRows{"user_task_tenant_counters": {g.stripes(0)["user_task_tenant_counters"][0], nil}}.rows,
				Affected: goldenAffected{"UPDATE user_task_tenant_counters": {0, 1}}.rows,
			})
			_, created, err := create(t, g, c)
			goldenOK(t, err)
			if !created {
				t.Fatal("not created")
			}
		}},
		{"create-counter-row-race", func(t *testing.T, g *goldenEnv) {
			// Two creations insert the missing counter rows at once: the loser runs again.
			c := g.change(goldenTaskOpts{})
			g.answer(fakeScript{
				Count:    goldenCounts{"user_task_tenants": {1}}.count,
				Rows:     goldenRows{"user_task_tenant_counters": {g.stripes(0)["user_task_tenant_counters"][0], nil}}.rows,
				Affected: goldenAffected{"UPDATE user_task_tenant_counters": {0, 1}}.rows,
				Fail:     failOnceOn(goldenDuplicateKey(g.s.dialect), "INSERT", "user_task_tenant_counters"),
			})
			_, created, err := create(t, g, c)
			goldenOK(t, err)
			if !created {
				t.Fatal("not created")
			}
		}},
		{"create-capacity-exceeded", func(t *testing.T, g *goldenEnv) {
			c := g.change(goldenTaskOpts{})
			// Every stripe at its share of the limit: each is tried once, then the refusal.
			g.answer(fakeScript{
				Count:    goldenCounts{"user_task_tenants": {1}}.count,
				Rows:     g.stripes(models.DefaultOpenTasksPerTenant / g.s.counterStripes()).rows,
				Affected: goldenAffected{"UPDATE user_task_tenant_counters": {0}}.rows,
			})
			_, _, err := create(t, g, c)
			goldenCode(t, err, models.CodeCapacityExceeded)
		}},
		{"create-terminal", func(t *testing.T, g *goldenEnv) {
			c := g.change(goldenTaskOpts{Status: models.StatusCompleted})
			g.answer(fakeScript{Count: goldenCounts{"user_task_tenants": {1}}.count, Rows: g.stripes(0).rows})
			_, created, err := create(t, g, c)
			goldenOK(t, err)
			if !created {
				t.Fatal("not created")
			}
		}},
		{"create-duplicate-found", func(t *testing.T, g *goldenEnv) {
			c := g.change(richTask)
			existing := g.task(richTask)
			existing.MaterializationKey = c.Task.MaterializationKey
			a := g.storedAnswers(existing)
			a["user_task_tenant_counters"] = g.stripes(0)["user_task_tenant_counters"]
			g.answer(fakeScript{Count: goldenCounts{"user_task_tenants": {1}}.count, Rows: a.rows})
			got, created, err := create(t, g, c)
			goldenOK(t, err)
			if created || got.ID != existing.ID {
				t.Fatalf("created %v, id %s; want the existing task %s", created, got.ID, existing.ID)
			}
		}},
		{"create-race-lost", func(t *testing.T, g *goldenEnv) {
			c := g.change(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			winner := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			a := g.storedAnswers(winner)
			a["user_tasks"] = [][]any{nil, a["user_tasks"][0]}
			a["user_task_tenant_counters"] = g.stripes(0)["user_task_tenant_counters"]
			g.answer(fakeScript{
				Count: goldenCounts{"user_task_tenants": {1}}.count, Rows: a.rows,
				Fail: failOnceOn(goldenDuplicateKey(g.s.dialect), "INSERT", "user_tasks"),
			})
			got, created, err := create(t, g, c)
			goldenOK(t, err)
			if created || got.ID != winner.ID {
				t.Fatalf("created %v, id %s; want the winner %s", created, got.ID, winner.ID)
			}
		}},
		{"create-many-candidates", func(t *testing.T, g *goldenEnv) {
			// More candidates than one insert batch (200) holds: two batches. Every candidate
			// row binds 14 values.
			var users []string
			for i := 0; i < 201; i++ {
				users = append(users, fmt.Sprintf("u%03d", i))
			}
			c := g.change(goldenTaskOpts{CandidateUsers: users})
			g.answer(fakeScript{Count: goldenCounts{"user_task_tenants": {1}}.count, Rows: g.stripes(0).rows})
			_, created, err := create(t, g, c)
			goldenOK(t, err)
			if !created {
				t.Fatal("not created")
			}
		}},
	}
}

func mutateScenarios() []goldenScenario {
	available := goldenTaskOpts{CandidateUsers: []string{"u1", "u2"}, CandidateGroups: []string{"g1"}, Excluded: []string{"u9"}, Tags: []string{"urgent"}}
	assigned := goldenTaskOpts{Assignee: "u1", CandidateUsers: []string{"u1"}}
	return []goldenScenario{
		{"mutate", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			g.answer(fakeScript{Rows: g.stored(task)})
			_, err := g.s.Mutate(g.ctx, "t1", task.ID, "", goldenBump("", "h"))
			goldenOK(t, err)
		}},
		{"mutate-with-operation", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			g.answer(fakeScript{Rows: g.stored(task)})
			_, err := g.s.Mutate(g.ctx, "t1", task.ID, "op-1", goldenBump("op-1", "h"))
			goldenOK(t, err)
		}},
		{"mutate-assignment-changed", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			g.answer(fakeScript{Rows: g.stored(task)})
			_, err := g.s.Mutate(g.ctx, "t1", task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
				c, err := goldenBump("", "")(now, cur, nil)
				c.Task.Assignment.Candidates = append(c.Task.Assignment.Candidates,
					models.Candidate{Participant: goldenUser("u7"), Source: models.SourceDirectUser})
				c.Task.Assignment.Exclusions = []models.ParticipantRef{goldenUser("u8")}
				c.Task.CandidateSummary = c.Task.Assignment.Summarize()
				c.AssignmentChanged = true
				return c, err
			})
			goldenOK(t, err)
		}},
		{"mutate-status-change", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			g.answer(fakeScript{Rows: g.stored(task)})
			_, err := g.s.Mutate(g.ctx, "t1", task.ID, "op-claim", goldenTransition(models.StatusAssigned, "op-claim"))
			goldenOK(t, err)
		}},
		{"mutate-transition", func(t *testing.T, g *goldenEnv) {
			task := g.task(assigned)
			g.answer(fakeScript{Rows: g.stored(task)})
			c, err := g.s.Mutate(g.ctx, "t1", task.ID, "op-complete", goldenTransition(models.StatusCompleting, "op-complete"))
			goldenOK(t, err)
			if c.Resumption == nil || c.Operation == nil {
				t.Fatal("the transition wrote no operation or outbox row")
			}
		}},
		{"mutate-finalize", func(t *testing.T, g *goldenEnv) {
			task := g.task(assigned)
			task.Status = models.StatusCompleting
			task.TransitionedAt = &goldenNow
			g.answer(fakeScript{Rows: g.stored(task)})
			c, err := g.s.Mutate(g.ctx, "t1", task.ID, "op-finalize", goldenTransition(models.StatusCompleted, "op-finalize"))
			goldenOK(t, err)
			if !c.Finalize {
				t.Fatal("not a finalization")
			}
		}},
		{"mutate-replay", func(t *testing.T, g *goldenEnv) {
			// The decision accepts the command on the task as it stands (goldenBump checks no
			// revision), so the first attempt does not look the operation up; its operation
			// row meets the stored one's unique key, and the second attempt looks it up first.
			task := g.task(available)
			prior := g.operation(task, "op-1", "h", models.OperationCompleted)
			a := g.storedAnswers(task)
			a["user_task_operations"] = [][]any{{prior}}
			g.answer(fakeScript{Rows: a.rows, Fail: failOnceOn(goldenDuplicateKey(g.s.dialect), "INSERT", "user_task_operations")})
			c, err := g.s.Mutate(g.ctx, "t1", task.ID, "op-1", goldenBump("op-1", "h"))
			goldenOK(t, err)
			if c.Replay == nil {
				t.Fatal("not replayed")
			}
		}},
		{"mutate-revision-conflict", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			moved := task
			moved.Revision++
			a := g.storedAnswers(task)
			a["user_tasks"] = [][]any{{g.record(task)}, {g.record(moved)}}
			g.answer(fakeScript{Rows: a.rows, Affected: goldenAffected{"UPDATE user_tasks": {1, 0}}.rows})
			_, err := g.s.Mutate(g.ctx, "t1", task.ID, "", goldenBump("", "h"))
			goldenCode(t, err, models.CodeRevisionConflict)
		}},
		{"mutate-conflict-then-replay", func(t *testing.T, g *goldenEnv) {
			// The command loses the race to its own operation id committed by another node:
			// decided again on fresh state, it replays.
			task := g.task(available)
			moved := task
			moved.Revision++
			prior := g.operation(moved, "op-1", "h", models.OperationCompleted)
			a := g.storedAnswers(task)
			a["user_tasks"] = [][]any{{g.record(task)}, {g.record(moved)}}
			a["user_task_operations"] = [][]any{{prior}}
			g.answer(fakeScript{Rows: a.rows, Affected: goldenAffected{"UPDATE user_tasks": {1, 0, 1}}.rows})
			c, err := g.s.Mutate(g.ctx, "t1", task.ID, "op-1", goldenBump("op-1", "h"))
			goldenOK(t, err)
			if c.Replay == nil {
				t.Fatal("not replayed")
			}
		}},
		{"mutate-event-sequence-moved", func(t *testing.T, g *goldenEnv) {
			// An event was appended meanwhile (same revision): the transaction runs again.
			task := g.task(available)
			g.answer(fakeScript{Rows: g.stored(task), Affected: goldenAffected{"UPDATE user_tasks": {1, 0, 1}}.rows})
			_, err := g.s.Mutate(g.ctx, "t1", task.ID, "", goldenBump("", "h"))
			goldenOK(t, err)
		}},
		{"append-event", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			after := task
			after.LastEventSeq++
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}}.rows})
			_, err := g.s.AppendEvent(g.ctx, "t1", task.ID, func(now time.Time, cur models.Task) (models.Event, error) {
				return models.Event{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, Seq: cur.LastEventSeq + 1,
					Revision: cur.Revision, Type: models.EventFieldRevealed, OccurredAt: now, Actor: goldenPtr(goldenUser("u1")),
					Metadata: json.RawMessage(`{"field":"iban"}`)}, nil
			})
			goldenOK(t, err)
		}},
		{"append-event-not-found", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Affected: goldenAffected{"UPDATE user_tasks": {0}}.rows})
			_, err := g.s.AppendEvent(g.ctx, "t1", models.NewID(), func(time.Time, models.Task) (models.Event, error) {
				t.Fatal("built an event for a missing task")
				return models.Event{}, nil
			})
			goldenIs(t, err, models.ErrNotFound)
		}},
	}
}

func readScenarios() []goldenScenario {
	opts := goldenTaskOpts{Tags: []string{"urgent"}, CandidateUsers: []string{"u1"}, SnapshotGroup: "g2", SnapshotMembers: []string{"u3"},
		Excluded: []string{"u9"}, Instructions: "Read me.", Data: `{"a":1}`, Requester: true}
	get := func(name string, call func(g *goldenEnv, task models.Task) (models.Task, error)) goldenScenario {
		return goldenScenario{name, func(t *testing.T, g *goldenEnv) {
			task := g.task(opts)
			g.answer(fakeScript{Rows: g.stored(task)})
			got, err := call(g, task)
			goldenOK(t, err)
			if got.ID != task.ID || got.Protected.Instructions != "Read me." || len(got.Assignment.Candidates) != 2 || len(got.Assignment.Exclusions) != 1 {
				t.Fatalf("decoded %+v", got)
			}
		}}
	}
	return []goldenScenario{
		get("get", func(g *goldenEnv, task models.Task) (models.Task, error) {
			return g.s.Get(g.ctx, task.Tenant, task.ID)
		}),
		get("find-by-materialization-key", func(g *goldenEnv, task models.Task) (models.Task, error) {
			return g.s.FindByMaterializationKey(g.ctx, task.Tenant, task.MaterializationKey)
		}),
		get("find-by-bookmark-id", func(g *goldenEnv, task models.Task) (models.Task, error) {
			return g.s.FindByBookmarkID(g.ctx, task.Tenant, task.Workflow.BookmarkID)
		}),
		{"get-not-found", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.Get(g.ctx, "t1", models.NewID())
			goldenIs(t, err, models.ErrNotFound)
		}},
		{"events", func(t *testing.T, g *goldenEnv) {
			task := g.task(opts)
			ev := eventRecordOf(&models.Event{ID: models.NewID(), Tenant: "t1", TaskID: task.ID, Seq: 2, Revision: 1,
				Type: models.EventFieldRevealed, OccurredAt: goldenNow, Actor: goldenPtr(goldenUser("u1"))})
			g.answer(fakeScript{Rows: goldenRows{"user_task_events": {{ev}}}.rows})
			got, err := g.s.Events(g.ctx, "t1", task.ID, 1, 50)
			goldenOK(t, err)
			if len(got) != 1 || got[0].Seq != 2 {
				t.Fatalf("got %+v", got)
			}
		}},
		{"operation", func(t *testing.T, g *goldenEnv) {
			task := g.task(opts)
			op := g.operation(task, "op-1", "h", models.OperationAccepted)
			g.answer(fakeScript{Rows: goldenRows{"user_task_operations": {{op}}}.rows})
			got, err := g.s.Operation(g.ctx, "t1", task.ID, "op-1")
			goldenOK(t, err)
			if got.OperationID != "op-1" || string(got.Payload) != `{"approved":true}` {
				t.Fatalf("got %+v", got)
			}
		}},
		{"operation-not-found", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.Operation(g.ctx, "t1", models.NewID(), "op-1")
			goldenIs(t, err, models.ErrNotFound)
		}},
		{"resumptions", func(t *testing.T, g *goldenEnv) {
			task := g.task(opts)
			g.answer(fakeScript{Rows: goldenRows{"user_task_resumptions": {{goldenResumption(task, 0), goldenResumption(task, 1)}}}.rows})
			got, err := g.s.Resumptions(g.ctx, "t1", task.ID)
			goldenOK(t, err)
			if len(got) != 2 {
				t.Fatalf("got %+v", got)
			}
		}},
		{"now", func(t *testing.T, g *goldenEnv) {
			got, err := g.s.Now(g.ctx)
			goldenOK(t, err)
			if !got.Equal(goldenNow) {
				t.Fatalf("got %v, want %v", got, goldenNow)
			}
		}},
	}
}

func outboxScenarios() []goldenScenario {
	lease := &models.Lease{Owner: "node-1", Token: models.NewID(), Generation: 3, ExpiresAt: goldenNow.Add(time.Minute)}
	claimed := func(task models.Task) models.Resumption {
		r := resumptionFromRecord(goldenResumption(task, 0))
		r.Lease = lease
		return r
	}
	return []goldenScenario{
		{"claim-resumptions", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			r1, r2 := goldenResumption(task, 0), goldenResumption(task, 1)
			g.answer(fakeScript{
				// The second row was claimed by another node between the select and its update.
				Rows:     goldenRows{"user_task_resumptions": {{r1, r2}, {r1}}}.rows,
				Affected: goldenAffected{"UPDATE user_task_resumptions": {1, 0}}.rows,
			})
			got, err := g.s.ClaimResumptions(g.ctx, "node-1", 10, time.Minute)
			goldenOK(t, err)
			if len(got) != 1 {
				t.Fatalf("claimed %d rows, want 1", len(got))
			}
		}},
		{"claim-resumptions-none-due", func(t *testing.T, g *goldenEnv) {
			got, err := g.s.ClaimResumptions(g.ctx, "node-1", 10, time.Minute)
			goldenOK(t, err)
			if len(got) != 0 {
				t.Fatalf("claimed %d rows", len(got))
			}
		}},
		// The background workers' queries (worker_queries.go).
		{"due-tasks", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			// One walk per open status; the second finds the task, the third nothing.
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {nil, {g.record(task)}, nil}}.rows})
			got, err := g.s.DueTasks(g.ctx, 200, nil)
			goldenOK(t, err)
			if len(got) != 1 {
				t.Fatalf("got %d tasks", len(got))
			}
		}},
		{"due-tasks-next-page", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			task.Status = models.StatusAvailable
			due := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
			task.DueAt = &due
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {nil}}.rows})
			got, err := g.s.DueTasks(g.ctx, 200, &task)
			goldenOK(t, err)
			if len(got) != 0 {
				t.Fatalf("got %d tasks", len(got))
			}
		}},
		{"reconcile-tasks", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(task)}}}.rows})
			got, err := g.s.ReconcileTasks(g.ctx, "t1", 5*time.Minute, models.NewID(), 100)
			goldenOK(t, err)
			if len(got) != 1 {
				t.Fatalf("got %d tasks", len(got))
			}
		}},
		{"known-bookmarks", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.KnownBookmarks(g.ctx, "t1", []string{"bm-1", "bm-2"})
			goldenOK(t, err)
		}},
		{"tenants", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.Tenants(g.ctx)
			goldenOK(t, err)
		}},
		{"set-health", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			g.answer(fakeScript{Rows: g.stored(task)})
			goldenOK(t, g.s.SetHealth(g.ctx, "t1", task.ID, models.Health{Severity: models.SeverityAdvisory, Code: models.HealthResumeDeliveryFailing, Message: "x"}))
		}},
		{"clear-health", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			g.answer(fakeScript{Rows: g.stored(task)})
			goldenOK(t, g.s.ClearHealth(g.ctx, "t1", task.ID, models.HealthResumeDeliveryFailing))
		}},
		{"accepted-operation", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			op := g.operation(task, "op-1", "h", models.OperationAccepted)
			g.answer(fakeScript{Rows: goldenRows{"user_task_operations": {{op}}}.rows})
			got, err := g.s.AcceptedOperation(g.ctx, "t1", task.ID)
			goldenOK(t, err)
			if got == nil || got.OperationID != "op-1" {
				t.Fatalf("got %+v", got)
			}
		}},
		{"requeue-resumption", func(t *testing.T, g *goldenEnv) {
			requeued, err := g.s.RequeueResumption(g.ctx, "t1", models.NewID(), "op-1")
			goldenOK(t, err)
			if !requeued {
				t.Fatal("not requeued")
			}
		}},
		{"release-resumption", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.ReleaseResumption(g.ctx, claimed(g.task(goldenTaskOpts{}))))
		}},
		{"settle-resumption", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.SettleResumption(g.ctx, claimed(g.task(goldenTaskOpts{}))))
		}},
		{"ack-resumption", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.AckResumption(g.ctx, claimed(g.task(goldenTaskOpts{}))))
		}},
		{"ack-resumption-lease-lost", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Affected: goldenAffected{"UPDATE user_task_resumptions": {0}}.rows})
			goldenIs(t, g.s.AckResumption(g.ctx, claimed(g.task(goldenTaskOpts{}))), models.ErrLeaseLost)
		}},
		{"retry-resumption", func(t *testing.T, g *goldenEnv) {
			n, err := g.s.RetryResumption(g.ctx, claimed(g.task(goldenTaskOpts{})), 30*time.Second, "runtime-unavailable")
			goldenOK(t, err)
			if n != 1 {
				t.Fatalf("attempts %d", n)
			}
		}},
	}
}

func invitationScenarios() []goldenScenario {
	issue := func(g *goldenEnv) store.IssueFunc {
		return func(now time.Time, t models.Task) (models.Invitation, models.Delivery, models.Event, error) {
			inv := goldenInvitation(t)
			d := goldenDelivery(inv)
			ev := models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: t.LastEventSeq + 1, Revision: t.Revision,
				Type: models.EventInvitationIssued, OccurredAt: now, Actor: goldenPtr(goldenUser("u1"))}
			return inv, d, ev, nil
		}
	}
	claimedDelivery := func(g *goldenEnv) models.Delivery {
		d := goldenDelivery(goldenInvitation(g.task(goldenTaskOpts{})))
		d.Lease = &models.Lease{Owner: "node-1", Token: models.NewID(), Generation: 2, ExpiresAt: goldenNow.Add(time.Minute)}
		return d
	}
	return []goldenScenario{
		{"issue-invitation", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			after := task
			after.LastEventSeq++
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}}.rows, Count: goldenCounts{"user_task_invitations": {1}}.count})
			_, err := g.s.IssueInvitation(g.ctx, "t1", task.ID, issue(g))
			goldenOK(t, err)
		}},
		{"issue-invitation-limit-reached", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			after := task
			after.LastEventSeq++
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}}.rows,
				Count: goldenCounts{"user_task_invitations": {models.MaxInvitationsPerTask}}.count})
			_, err := g.s.IssueInvitation(g.ctx, "t1", task.ID, issue(g))
			goldenCode(t, err, models.CodeValidationFailed)
		}},
		{"find-invitation-by-token-hash", func(t *testing.T, g *goldenEnv) {
			inv := goldenInvitation(g.task(goldenTaskOpts{}))
			g.answer(fakeScript{Rows: goldenRows{"user_task_invitations": {{g.invitationRecord(inv)}}}.rows})
			got, err := g.s.FindInvitationByTokenHash(g.ctx, inv.TokenHash)
			goldenOK(t, err)
			if got.ID != inv.ID || got.Recipient != inv.Recipient {
				t.Fatalf("got %+v", got)
			}
		}},
		{"invitations", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			g.answer(fakeScript{Rows: goldenRows{"user_task_invitations": {{g.invitationRecord(goldenInvitation(task)), g.invitationRecord(goldenInvitation(task))}}}.rows})
			got, err := g.s.Invitations(g.ctx, "t1", task.ID)
			goldenOK(t, err)
			if len(got) != 2 {
				t.Fatalf("got %d invitations", len(got))
			}
		}},
		{"claim-deliveries", func(t *testing.T, g *goldenEnv) {
			d1, d2 := g.deliveryRecord(goldenDelivery(goldenInvitation(g.task(goldenTaskOpts{})))), g.deliveryRecord(goldenDelivery(goldenInvitation(g.task(goldenTaskOpts{}))))
			g.answer(fakeScript{Rows: goldenRows{"user_task_deliveries": {{d1, d2}, {d1, d2}}}.rows})
			got, err := g.s.ClaimDeliveries(g.ctx, "node-1", 10, time.Minute)
			goldenOK(t, err)
			if len(got) != 2 || string(got[0].Payload) != `{"token":"secret"}` {
				t.Fatalf("got %+v", got)
			}
		}},
		{"ack-delivery", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.AckDelivery(g.ctx, claimedDelivery(g)))
		}},
		{"ack-delivery-lease-lost", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Affected: goldenAffected{"UPDATE user_task_deliveries": {0}}.rows})
			goldenIs(t, g.s.AckDelivery(g.ctx, claimedDelivery(g)), models.ErrLeaseLost)
		}},
		{"retry-delivery", func(t *testing.T, g *goldenEnv) {
			n, err := g.s.RetryDelivery(g.ctx, claimedDelivery(g), time.Minute, "smtp-unavailable", false)
			goldenOK(t, err)
			if n != 1 {
				t.Fatalf("attempts %d", n)
			}
		}},
		{"has-acted", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: func(table string, _ int) []any {
				if table == "user_task_events" {
					return []any{&eventRecord{storekit.EventRow{ID: models.NewID(), TenantID: "t1", Seq: 1, Revision: 1, EventType: "claimed", OccurredAt: goldenNow}}}
				}
				return nil
			}})
			acted, err := g.s.HasActed(g.ctx, "t1", models.NewID(), goldenUser("u1"))
			goldenOK(t, err)
			if !acted {
				t.Fatal("not acted")
			}
		}},
	}
}

func leaseScenarios() []goldenScenario {
	held := func(expires time.Time) *leaseRecord {
		return &leaseRecord{storekit.LeaseRow{LeaseName: "due-sweep", LeaseOwner: "node-2", LeaseToken: models.NewID(), LeaseGeneration: 4,
			LeaseExpiresAt: expires, UpdatedAt: goldenNow.Add(-time.Minute)}}
	}
	mine := models.Lease{Owner: "node-1", Token: models.NewID(), Generation: 5, ExpiresAt: goldenNow.Add(time.Minute)}
	return []goldenScenario{
		{"acquire-lease-new", func(t *testing.T, g *goldenEnv) {
			l, err := g.s.AcquireLease(g.ctx, "due-sweep", "node-1", time.Minute)
			goldenOK(t, err)
			if l.Generation != 1 {
				t.Fatalf("generation %d", l.Generation)
			}
		}},
		{"acquire-lease-takeover", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_leases": {{held(goldenNow.Add(-time.Second))}}}.rows})
			l, err := g.s.AcquireLease(g.ctx, "due-sweep", "node-1", time.Minute)
			goldenOK(t, err)
			if l.Generation != 5 {
				t.Fatalf("generation %d", l.Generation)
			}
		}},
		{"acquire-lease-held", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_leases": {{held(goldenNow.Add(time.Minute))}}}.rows})
			_, err := g.s.AcquireLease(g.ctx, "due-sweep", "node-1", time.Minute)
			goldenIs(t, err, models.ErrLeaseLost)
		}},
		{"acquire-lease-created-concurrently", func(t *testing.T, g *goldenEnv) {
			// The insert loses to another node's: the transaction runs again and finds its live lease.
			g.answer(fakeScript{
				Rows: goldenRows{"user_task_leases": {nil, {held(goldenNow.Add(time.Minute))}}}.rows,
				Fail: failOnceOn(goldenDuplicateKey(g.s.dialect), "INSERT", "user_task_leases"),
			})
			_, err := g.s.AcquireLease(g.ctx, "due-sweep", "node-1", time.Minute)
			goldenIs(t, err, models.ErrLeaseLost)
		}},
		{"renew-lease", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.RenewLease(g.ctx, "due-sweep", mine, time.Minute)
			goldenOK(t, err)
		}},
		{"release-lease", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.ReleaseLease(g.ctx, "due-sweep", mine))
		}},
	}
}

func queryScenarios() []goldenScenario {
	me := goldenUser("u1")
	person := models.Actor{Tenant: "t1", Subject: me}
	manager := models.Actor{Tenant: "t1", Subject: me, Manager: true}
	// page runs one Query with three matching rows for a page of two, so a next cursor is made.
	page := func(t *testing.T, g *goldenEnv, f models.TaskFilter) models.TaskPage {
		t.Helper()
		var rows []any
		for i := 0; i < 3; i++ {
			due := goldenNow.Add(time.Duration(i) * time.Hour)
			rows = append(rows, g.record(g.task(goldenTaskOpts{DueAt: &due, Assignee: "u1", CandidateUsers: []string{"u1"}})))
		}
		g.answer(fakeScript{Rows: goldenRows{"user_tasks": {rows}}.rows, Count: goldenCounts{"user_tasks": {3}}.count})
		f.Tenant, f.Limit = "t1", 2
		p, err := g.s.Query(g.ctx, f)
		goldenOK(t, err)
		if len(p.Items) != 2 || p.NextCursor == "" {
			t.Fatalf("got %d items, cursor %q; want 2 and a cursor", len(p.Items), p.NextCursor)
		}
		if f.IncludeTotal && (p.Total == nil || *p.Total != 3) {
			t.Fatalf("total %v, want 3", p.Total)
		}
		return p
	}
	var out []goldenScenario
	for _, scope := range []models.Scope{models.ScopeAssigned, models.ScopeAvailable, models.ScopeHistory, models.ScopeAll, models.ScopeNeedsAttention} {
		actor := person
		if scope.ManagerOnly() {
			actor = manager
		}
		out = append(out, goldenScenario{"query-scope-" + string(scope), func(t *testing.T, g *goldenEnv) {
			for _, key := range models.SortKeys {
				for _, desc := range []bool{false, true} {
					page(t, g, models.TaskFilter{Scope: scope, Actor: actor, Sort: key, Descending: desc})
				}
			}
		}})
	}
	out = append(out,
		goldenScenario{"query-cursors", func(t *testing.T, g *goldenEnv) {
			id := models.NewID()
			for _, key := range models.SortKeys {
				col := storekit.Sorts[key]
				var v storekit.SortValue
				switch col.Kind {
				case storekit.KindTime:
					v.Time = goldenNow
				case storekit.KindInt:
					v.Int = 50
				default:
					v.Text = "Task"
				}
				values := []storekit.SortValue{v}
				if col.Nullable {
					values = append(values, storekit.SortValue{Null: true})
				}
				for _, desc := range []bool{false, true} {
					for _, v := range values {
						f := models.TaskFilter{Scope: models.ScopeAll, Actor: manager, Sort: key, Descending: desc}
						c, err := storekit.EncodeCursor(key, desc, storekit.FilterDigest(f), v, id)
						goldenOK(t, err)
						f.Cursor = c
						page(t, g, f)
					}
				}
			}
		}},
		goldenScenario{"query-filters", func(t *testing.T, g *goldenEnv) {
			from, to := 10, 90
			dueFrom, dueTo := goldenNow.Add(-48*time.Hour), goldenNow.Add(48*time.Hour)
			page(t, g, models.TaskFilter{Scope: models.ScopeAll, Actor: manager, Sort: models.SortDue,
				Statuses: []models.Status{models.StatusAvailable, models.StatusAssigned}, PriorityFrom: &from, PriorityTo: &to,
				Due: models.DueOverdue, DueFrom: &dueFrom, DueTo: &dueTo, WorkflowDefinitionID: "approval", WorkflowInstanceID: "wf-1",
				Reference: "INV-1", TaskType: "invoice", Tag: " Urgent ", Search: "50%_[off]!", IncludeTotal: true})
		}},
		goldenScenario{"query-due-filters", func(t *testing.T, g *goldenEnv) {
			for _, due := range []models.DueFilter{models.DueOverdue, models.DueToday, models.DueThisWeek, models.DueNoDueDate} {
				page(t, g, models.TaskFilter{Scope: models.ScopeAll, Actor: manager, Due: due})
			}
		}},
		goldenScenario{"query-available-with-groups", func(t *testing.T, g *goldenEnv) {
			actor := person
			actor.Groups = []models.ParticipantRef{
				goldenGroup("g1"), goldenGroup("g2"),
				{Tenant: "t1", Provider: "ldap", Type: models.GroupParticipant, ID: "cn=approvers"},
				{Tenant: "t2", Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: "other-tenant"},
			}
			page(t, g, models.TaskFilter{Scope: models.ScopeAvailable, Actor: actor, Sort: models.SortPriority, Descending: true})
		}},
		goldenScenario{"query-available-with-many-groups", func(t *testing.T, g *goldenEnv) {
			// More groups of one provider than Oracle takes in one IN list (1,000).
			actor := person
			for i := 0; i < 1001; i++ {
				actor.Groups = append(actor.Groups, goldenGroup(fmt.Sprintf("g%04d", i)))
			}
			page(t, g, models.TaskFilter{Scope: models.ScopeAvailable, Actor: actor})
		}},
		goldenScenario{"query-without-subject", func(t *testing.T, g *goldenEnv) {
			// The system actor has no inbox: personal scopes match nothing, in SQL.
			g.answer(fakeScript{})
			p, err := g.s.Query(g.ctx, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAssigned, Actor: models.SystemActor("t1"), IncludeTotal: true})
			goldenOK(t, err)
			if len(p.Items) != 0 {
				t.Fatalf("got %d items", len(p.Items))
			}
		}},
	)
	return out
}

// Fixtures: small copies of storetest's factories (storetest imports this package, so this
// internal test cannot import it).

type goldenTaskOpts struct {
	Status          models.Status
	Assignee        string // user id
	CandidateUsers  []string
	CandidateGroups []string
	SnapshotGroup   string
	SnapshotMembers []string
	Excluded        []string
	Tags            []string
	DueAt           *time.Time
	Instructions    string
	Data            string
	Requester       bool
}

func goldenUser(id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id, DisplayName: "User " + id}
}

func goldenGroup(id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: id}
}

func goldenPtr[T any](v T) *T { return &v }

// change builds the creation change of a task in tenant t1 at goldenNow.
func (g *goldenEnv) change(o goldenTaskOpts) models.Change {
	now := goldenNow
	id := models.NewID()
	t := models.Task{
		ID: id, Tenant: "t1",
		Workflow: models.WorkflowLink{DefinitionID: "approval", DefinitionName: "Approval", DefinitionVersion: goldenPtr(3),
			InstanceID: "wf-" + id, InstanceReference: "PO-7", ActivityInstanceID: "review", BookmarkID: "bm-" + id},
		Title: "Approve invoice", Summary: "Invoice 7", Reference: "INV-7", TaskType: "invoice", Tags: o.Tags,
		Priority: models.DefaultPriority, DueAt: o.DueAt, CreatedAt: now, UpdatedAt: now,
		Assignment: models.Assignment{Mode: models.MembershipLive}, Actions: models.DefaultActions(),
		Protected: models.Protected{Instructions: o.Instructions}, Revision: 1, LastEventSeq: 1,
	}
	t.MaterializationKey = models.MaterializationKey(t.Tenant, t.Workflow.InstanceID, t.Workflow.ActivityInstanceID)
	if o.Requester {
		t.Requester = goldenPtr(goldenUser("requester"))
	}
	if o.Data != "" {
		t.Protected.Data = json.RawMessage(o.Data)
	}
	for _, u := range o.CandidateUsers {
		t.Assignment.Candidates = append(t.Assignment.Candidates, models.Candidate{Participant: goldenUser(u), Source: models.SourceDirectUser})
	}
	for _, gr := range o.CandidateGroups {
		t.Assignment.Candidates = append(t.Assignment.Candidates, models.Candidate{Participant: goldenGroup(gr), Source: models.SourceDirectGroup})
	}
	if o.SnapshotGroup != "" {
		group := goldenGroup(o.SnapshotGroup)
		for _, u := range o.SnapshotMembers {
			t.Assignment.Candidates = append(t.Assignment.Candidates, models.Candidate{Participant: goldenUser(u), Source: models.SourceSnapshotMember, SourceGroup: &group})
		}
	}
	for _, u := range o.Excluded {
		t.Assignment.Exclusions = append(t.Assignment.Exclusions, goldenUser(u))
	}
	t.CandidateSummary = t.Assignment.Summarize()
	if o.Assignee != "" {
		t.Assignee = goldenPtr(goldenUser(o.Assignee))
		t.AssignedAt = &now
	}
	switch {
	case o.Status != "":
		t.Status = o.Status
	case t.Assignee != nil:
		t.Status = models.StatusAssigned
	case len(t.Assignment.Candidates) > 0:
		t.Status = models.StatusAvailable
	default:
		t.Status = models.StatusUnassigned
	}
	if t.Status.IsTerminal() {
		t.CompletedAt = &now
		t.Outcome = models.Outcome{ActionKey: models.ActionComplete, CompletedBy: goldenPtr(goldenUser("u1"))}
	}
	ev := models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: 1, Revision: 1, Type: models.EventCreated, OccurredAt: now}
	return models.Change{Task: t, Event: &ev, AssignmentChanged: true}
}

// task is a stored task (revision 3, three events) built from o.
func (g *goldenEnv) task(o goldenTaskOpts) models.Task {
	t := g.change(o).Task
	t.Revision, t.LastEventSeq = 3, 3
	return t
}

func (g *goldenEnv) record(t models.Task) *taskRecord {
	rec, err := g.s.toTaskRecord(&t)
	if err != nil {
		panic(err)
	}
	return rec
}

// storedAnswers are the rows of a stored task: its row, candidates and exclusions.
func (g *goldenEnv) storedAnswers(t models.Task) goldenRows {
	a := goldenRows{"user_tasks": {{g.record(t)}}}
	var cands, excl []any
	for _, c := range candidateRecords(&t, t.CreatedAt) {
		cands = append(cands, c)
	}
	for _, e := range exclusionRecords(&t, t.CreatedAt) {
		excl = append(excl, e)
	}
	a["user_task_candidates"] = [][]any{cands}
	a["user_task_exclusions"] = [][]any{excl}
	return a
}

// stripes answers a known tenant's counter rows: the dialect's stripes, each counting count.
func (g *goldenEnv) stripes(count int) goldenRows {
	var rows []any
	for k := 0; k < g.s.counterStripes(); k++ {
		rows = append(rows, &tenantCounterRecord{TenantID: "t1", Stripe: k, OpenTasks: count, UpdatedAt: goldenNow})
	}
	return goldenRows{"user_task_tenant_counters": {rows}}
}

func (g *goldenEnv) stored(t models.Task) func(string, int) []any { return g.storedAnswers(t).rows }

func (g *goldenEnv) operation(t models.Task, opID, hash string, state models.OperationState) *operationRecord {
	op := models.Operation{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, OperationID: opID, Kind: models.OpComplete,
		ExpectedRevision: t.Revision - 1, RequestHash: hash, State: state, Attempts: 1, CreatedAt: goldenNow, UpdatedAt: goldenNow,
		ActionKey: models.ActionComplete, Actor: goldenPtr(goldenUser("u1")), Result: json.RawMessage(`{"revision":3}`),
		Payload: json.RawMessage(`{"approved":true}`)}
	rec, err := g.s.operationRecordOf(&op)
	if err != nil {
		panic(err)
	}
	return &rec
}

func goldenInvitation(t models.Task) models.Invitation {
	id := models.NewID()
	return models.Invitation{ID: id, Tenant: t.Tenant, TaskID: t.ID, VerifierName: "email-code",
		AllowedActions: []string{models.ActionComplete}, Recipient: "guest@example.com", TokenHash: "th-" + id, CodeHash: "ch-" + id,
		Status: models.InvitationPending, IssuedBy: goldenPtr(goldenUser("u1")), IssuedAt: goldenNow, ExpiresAt: goldenNow.Add(72 * time.Hour),
		UpdatedAt: goldenNow}
}

func goldenDelivery(inv models.Invitation) models.Delivery {
	return models.Delivery{ID: models.NewID(), Tenant: inv.Tenant, TaskID: inv.TaskID, InvitationID: inv.ID, Dispatcher: "email",
		Payload: []byte(`{"token":"secret"}`), Metadata: json.RawMessage(`{"channel":"email"}`), State: models.DeliveryPending,
		AvailableAt: goldenNow, ExpiresAt: inv.ExpiresAt, IdempotencyKey: "issue-" + inv.ID, CreatedAt: goldenNow, UpdatedAt: goldenNow}
}

func (g *goldenEnv) invitationRecord(inv models.Invitation) *invitationRecord {
	row, err := g.s.codec().InvitationRow(&inv)
	if err != nil {
		panic(err)
	}
	return &invitationRecord{row}
}

func (g *goldenEnv) deliveryRecord(d models.Delivery) *deliveryRecord {
	row, err := g.s.codec().DeliveryRow(&d)
	if err != nil {
		panic(err)
	}
	return &deliveryRecord{row}
}

func goldenResumption(t models.Task, i int) *resumptionRecord {
	return &resumptionRecord{storekit.ResumptionRow{ID: models.NewID(), TenantID: t.Tenant, TaskID: t.ID, OperationID: fmt.Sprintf("op-%d", i),
		Kind: string(models.OpComplete), State: string(models.DeliveryPending), AvailableAt: goldenNow.Add(-time.Minute),
		LeaseColumns: LeaseColumns{LeaseGeneration: int64(i)}, CreatedAt: goldenNow, UpdatedAt: goldenNow}}
}

// goldenBump is storetest.Bump: priority +1, revision +1, one event, an operation when opID is set.
func goldenBump(opID, hash string) models.MutateFunc {
	return func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		if prior != nil {
			if prior.RequestHash != hash {
				return models.Change{}, models.Conflict(models.CodeIdempotencyConflict)
			}
			return models.Change{Replay: prior}, nil
		}
		expected := t.Revision
		t.Priority = (t.Priority + 1) % 101
		t.Revision++
		t.LastEventSeq++
		t.UpdatedAt = now
		ev := models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: t.LastEventSeq, Revision: t.Revision,
			Type: models.EventScheduleUpdated, OccurredAt: now, OperationID: opID}
		c := models.Change{Task: t, ExpectedRevision: expected, Event: &ev}
		if opID != "" {
			c.Operation = &models.Operation{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, OperationID: opID,
				Kind: models.OpScheduleUpdate, ExpectedRevision: expected, RequestHash: hash, State: models.OperationCompleted,
				Attempts: 1, CreatedAt: now, UpdatedAt: now, Result: json.RawMessage(fmt.Sprintf(`{"revision":%d}`, t.Revision))}
		}
		return c, nil
	}
}

// goldenTransition is storetest's transition: the rows a real transition to status writes.
func goldenTransition(to models.Status, opID string) models.MutateFunc {
	return func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		if prior != nil {
			return models.Change{Replay: prior}, nil
		}
		from := t.Status
		expected := t.Revision
		t.Status = to
		t.Revision++
		t.LastEventSeq++
		t.UpdatedAt = now
		c := models.Change{Task: t, ExpectedRevision: expected}
		c.Event = &models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: t.LastEventSeq, Revision: t.Revision,
			Type: models.EventType("status-" + string(to)), OccurredAt: now, OperationID: opID}
		switch {
		case to.IsTransitional():
			c.Task.TransitionedAt = &now
			c.Task.Outcome.ActionKey = models.ActionComplete
			c.Task.Protected.CompletionData = json.RawMessage(`{"approved":true}`)
			c.Operation = &models.Operation{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, OperationID: opID,
				Kind: models.OpComplete, ExpectedRevision: expected, RequestHash: "h-" + opID, State: models.OperationAccepted,
				Attempts: 1, CreatedAt: now, UpdatedAt: now, ActionKey: models.ActionComplete,
				Result:  json.RawMessage(fmt.Sprintf(`{"status":"accepted","revision":%d}`, t.Revision)),
				Payload: json.RawMessage(`{"approved":true}`)}
			c.Resumption = &models.Resumption{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, OperationID: opID,
				Kind: models.OpComplete, State: models.DeliveryPending, AvailableAt: now, CreatedAt: now, UpdatedAt: now}
		case to.IsTerminal():
			c.Task.CompletedAt = &now
			c.Finalize = true
		case to == models.StatusAssigned && from != models.StatusAssigned:
			c.Task.Assignee = goldenPtr(goldenUser("u1"))
			c.Task.AssignedAt = &now
		}
		return c, nil
	}
}

// The migrations' schema, as the dialect's CREATE TABLE statements state it.

type goldenSchema struct {
	tables map[string]map[string]string // table → column → declared type (upper case)
}

func (s goldenSchema) isColumn(table, col string) bool {
	_, ok := s.tables[table][col]
	return ok
}

var (
	createTableRE = regexp.MustCompile(`(?is)CREATE\s+TABLE\s+(\w+)\s*\((.*?)\n\)`)
	columnLineRE  = regexp.MustCompile(`^\s*(\w+)\s+(\w+(?:\s*\([^)]*\))?)`)
	addColumnRE   = regexp.MustCompile(`(?im)^\s*ALTER\s+TABLE\s+(\w+)\s+ADD\s+(?:COLUMN\s+)?(\w+)\s+(\w+(?:\s*\([^)]*\))?)`)
)

func loadSchema(t *testing.T, d migrations.Dialect) goldenSchema {
	t.Helper()
	fsys, err := migrations.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("no %s migrations: %v", d, err)
	}
	s := goldenSchema{tables: map[string]map[string]string{}}
	for _, name := range names {
		text, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		up, _, _ := strings.Cut(string(text), "-- +goose Down")
		for _, m := range createTableRE.FindAllStringSubmatch(up, -1) {
			table := strings.ToLower(m[1])
			cols := map[string]string{}
			for _, line := range strings.Split(m[2], "\n") {
				cm := columnLineRE.FindStringSubmatch(line)
				if cm == nil || strings.EqualFold(cm[1], "CONSTRAINT") {
					continue
				}
				cols[strings.ToLower(cm[1])] = strings.ToUpper(cm[2])
			}
			s.tables[table] = cols
		}
		for _, m := range addColumnRE.FindAllStringSubmatch(up, -1) {
			if cols := s.tables[strings.ToLower(m[1])]; cols != nil {
				cols[strings.ToLower(m[2])] = strings.ToUpper(m[3])
			}
		}
	}
	if len(s.tables["user_tasks"]) < 50 {
		t.Fatalf("parsed %d user_tasks columns from the %s migrations", len(s.tables["user_tasks"]), d)
	}
	return s
}

// Tokens.

type tokKind int

const (
	tokWord   tokKind = iota + 1 // unquoted identifier or keyword
	tokQuoted                    // "quoted identifier"
	tokString                    // 'literal'
	tokNumber
	tokBind // @pN, :N or ?
	tokPunct
)

type sqlToken struct {
	kind  tokKind
	text  string // identifiers without quotes
	depth int    // parenthesis depth
}

func (t sqlToken) isName() bool { return t.kind == tokWord || t.kind == tokQuoted }

func (t sqlToken) is(word string) bool { return t.kind == tokWord && strings.EqualFold(t.text, word) }

func sqlTokens(q string) []sqlToken {
	var out []sqlToken
	depth := 0
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'':
			j := i + 1
			for j < len(q) {
				if q[j] == '\'' {
					if j+1 < len(q) && q[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			out = append(out, sqlToken{tokString, q[i:min(j+1, len(q))], depth})
			i = j + 1
		case c == '"':
			j := strings.IndexByte(q[i+1:], '"')
			if j < 0 {
				j = len(q) - i - 1
			}
			out = append(out, sqlToken{tokQuoted, q[i+1 : i+1+j], depth})
			i += j + 2
		case c == '@' && i+1 < len(q) && (q[i+1] == 'p' || q[i+1] == 'P'):
			j := i + 2
			for j < len(q) && isDigit(q[j]) {
				j++
			}
			out = append(out, sqlToken{tokBind, q[i:j], depth})
			i = j
		case c == ':' && i+1 < len(q) && isDigit(q[i+1]):
			j := i + 1
			for j < len(q) && isDigit(q[j]) {
				j++
			}
			out = append(out, sqlToken{tokBind, q[i:j], depth})
			i = j
		case c == '?':
			out = append(out, sqlToken{tokBind, "?", depth})
			i++
		case isDigit(c):
			j := i
			for j < len(q) && (isDigit(q[j]) || q[j] == '.') {
				j++
			}
			out = append(out, sqlToken{tokNumber, q[i:j], depth})
			i = j
		case isWordByte(c):
			j := i
			for j < len(q) && (isWordByte(q[j]) || isDigit(q[j]) || q[j] == '$' || q[j] == '#') {
				j++
			}
			out = append(out, sqlToken{tokWord, q[i:j], depth})
			i = j
		default:
			text := string(c)
			if i+1 < len(q) && slices.Contains([]string{"<=", ">=", "<>", "!="}, q[i:i+2]) {
				text = q[i : i+2]
			}
			if c == ')' {
				depth--
			}
			out = append(out, sqlToken{tokPunct, text, depth})
			if c == '(' {
				depth++
			}
			i += len(text)
		}
	}
	return out
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isWordByte(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// The checks.

// sqlKeywords are the words the store's statements may use besides tables and columns.
var sqlKeywords = wordSet(`SELECT FROM WHERE AND OR NOT IN IS NULL EXISTS INSERT INTO VALUES UPDATE SET DELETE
	ORDER BY ASC DESC CASE WHEN THEN ELSE END OFFSET ROW ROWS FETCH NEXT FIRST ONLY LIKE ESCAPE DUAL UNION
	ALL AS COUNT MIN GROUP SYSUTCDATETIME SYS_EXTRACT_UTC SYSTIMESTAMP`)

// oracleReserved are Oracle's reserved words (SQL Language Reference, "Oracle SQL Reserved
// Words"): unquoted, they cannot name a table or column.
var oracleReserved = wordSet(`ACCESS ADD ALL ALTER AND ANY AS ASC AUDIT BETWEEN BY CHAR CHECK CLUSTER COLUMN
	COLUMN_VALUE COMMENT COMPRESS CONNECT CREATE CURRENT DATE DECIMAL DEFAULT DELETE DESC DISTINCT DROP ELSE
	EXCLUSIVE EXISTS FILE FLOAT FOR FROM GRANT GROUP HAVING IDENTIFIED IMMEDIATE IN INCREMENT INDEX INITIAL
	INSERT INTEGER INTERSECT INTO IS LEVEL LIKE LOCK LONG MAXEXTENTS MINUS MLSLABEL MODE MODIFY NESTED_TABLE_ID
	NOAUDIT NOCOMPRESS NOT NOWAIT NULL NUMBER OF OFFLINE ON ONLINE OPTION OR ORDER PCTFREE PRIOR PUBLIC RAW
	RENAME RESOURCE REVOKE ROW ROWID ROWNUM ROWS SELECT SESSION SET SHARE SIZE SMALLINT START SUCCESSFUL
	SYNONYM SYSDATE TABLE THEN TO TRIGGER UID UNION UNIQUE UPDATE USER VALIDATE VALUES VARCHAR VARCHAR2 VIEW
	WHENEVER WHERE WITH`)

// sqlServerReserved are Transact-SQL's reserved keywords ("Reserved Keywords (Transact-SQL)").
var sqlServerReserved = wordSet(`ADD ALL ALTER AND ANY AS ASC AUTHORIZATION BACKUP BEGIN BETWEEN BREAK BROWSE
	BULK BY CASCADE CASE CHECK CHECKPOINT CLOSE CLUSTERED COALESCE COLLATE COLUMN COMMIT COMPUTE CONSTRAINT
	CONTAINS CONTAINSTABLE CONTINUE CONVERT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP
	CURRENT_USER CURSOR DATABASE DBCC DEALLOCATE DECLARE DEFAULT DELETE DENY DESC DISK DISTINCT DISTRIBUTED
	DOUBLE DROP DUMP ELSE END ERRLVL ESCAPE EXCEPT EXEC EXECUTE EXISTS EXIT EXTERNAL FETCH FILE FILLFACTOR FOR
	FOREIGN FREETEXT FREETEXTTABLE FROM FULL FUNCTION GOTO GRANT GROUP HAVING HOLDLOCK IDENTITY IDENTITY_INSERT
	IDENTITYCOL IF IN INDEX INNER INSERT INTERSECT INTO IS JOIN KEY KILL LEFT LIKE LINENO LOAD MERGE NATIONAL
	NOCHECK NONCLUSTERED NOT NULL NULLIF OF OFF OFFSETS ON OPEN OPENDATASOURCE OPENQUERY OPENROWSET OPENXML
	OPTION OR ORDER OUTER OVER PERCENT PIVOT PLAN PRECISION PRIMARY PRINT PROC PROCEDURE PUBLIC RAISERROR READ
	READTEXT RECONFIGURE REFERENCES REPLICATION RESTORE RESTRICT RETURN REVERT REVOKE RIGHT ROLLBACK ROWCOUNT
	ROWGUIDCOL RULE SAVE SCHEMA SECURITYAUDIT SELECT SEMANTICKEYPHRASETABLE SEMANTICSIMILARITYDETAILSTABLE
	SEMANTICSIMILARITYTABLE SESSION_USER SET SETUSER SHUTDOWN SOME STATISTICS SYSTEM_USER TABLE TABLESAMPLE
	TEXTSIZE THEN TO TOP TRAN TRANSACTION TRIGGER TRUNCATE TRY_CONVERT TSEQUAL UNION UNIQUE UNPIVOT UPDATE
	UPDATETEXT USE USER VALUES VARYING VIEW WAITFOR WHEN WHERE WHILE WITH WRITETEXT`)

func wordSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

var bindMarkerRE = map[migrations.Dialect]*regexp.Regexp{
	migrations.SQLServer: regexp.MustCompile(`^@p([0-9]+)$`),
	migrations.Oracle:    regexp.MustCompile(`^:([0-9]+)$`),
}

// maxBinds is the most parameters one statement may carry: SQL Server's 2,100 per request;
// Oracle's 65,535 bind variables per statement.
var maxBinds = map[migrations.Dialect]int{migrations.SQLServer: 2100, migrations.Oracle: 65535}

func checkStatements(d migrations.Dialect, schema goldenSchema, log []fakeStmt) []goldenProblem {
	var out []goldenProblem
	for _, st := range log {
		if st.SQL == "BEGIN" || st.SQL == "COMMIT" || st.SQL == "ROLLBACK" || strings.HasPrefix(st.SQL, "BEGIN ") {
			continue
		}
		add := func(check, format string, args ...any) {
			out = append(out, goldenProblem{check, fmt.Sprintf(format, args...) + " in: " + abbreviate(st.SQL)})
		}
		toks := sqlTokens(st.SQL)
		checkSyntax(d, toks, st, add)
		checkIdentifiers(d, schema, toks, add)
	}
	return out
}

func abbreviate(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

func checkSyntax(d migrations.Dialect, toks []sqlToken, st fakeStmt, add func(check, format string, args ...any)) {
	// Bind markers: the dialect's own, numbered 1..n for n bound values.
	seen := map[int]bool{}
	for _, tk := range toks {
		if tk.kind != tokBind {
			continue
		}
		m := bindMarkerRE[d].FindStringSubmatch(tk.text)
		if m == nil {
			add("bind-markers", "bind marker %s is not the dialect's", tk.text)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		seen[n] = true
	}
	for n := 1; n <= len(st.Binds); n++ {
		if !seen[n] {
			add("bind-count", "%d values bound but marker %d is missing", len(st.Binds), n)
			break
		}
	}
	if len(seen) > len(st.Binds) {
		add("bind-count", "%d markers for %d bound values", len(seen), len(st.Binds))
	}
	if len(st.Binds) > maxBinds[d] {
		add("max-binds", "%d bound values, more than %s accepts (%d)", len(st.Binds), d, maxBinds[d])
	}
	if d == migrations.Oracle && strings.HasSuffix(strings.TrimSpace(st.SQL), ";") {
		add("trailing-semicolon", "Oracle refuses a statement ending in ';' (ORA-00933/ORA-00911)")
	}
	var hasOrder, hasFetch, hasOffset, forUpdate bool
	for i, tk := range toks {
		switch {
		case tk.is("LIMIT"):
			add("limit", "LIMIT is neither T-SQL nor Oracle SQL")
		case tk.is("TRUE") || tk.is("FALSE"):
			add("boolean-literal", "%s is not a literal in %s", tk.text, d)
		case tk.is("ORDER") && i+1 < len(toks) && toks[i+1].is("BY"):
			hasOrder = true
		case tk.is("FETCH"):
			hasFetch = true
		case tk.is("OFFSET"):
			hasOffset = true
		case tk.is("FOR") && i+1 < len(toks) && toks[i+1].is("UPDATE"):
			forUpdate = true
		}
	}
	if len(toks) > 3 && toks[0].is("SELECT") && toks[1].is("COUNT") && hasOrder && !slices.ContainsFunc(toks, func(tk sqlToken) bool { return tk.is("GROUP") }) {
		add("aggregate-order-by", "an aggregate without GROUP BY is ordered by a column (SQL Server Msg 8127, Oracle ORA-00979)")
	}
	if (hasFetch || hasOffset) && !hasOrder {
		add("fetch-without-order", "OFFSET/FETCH without ORDER BY")
	}
	if forUpdate && (d == migrations.SQLServer || hasFetch) {
		add("for-update", "SELECT ... FOR UPDATE is refused (SQL Server has table hints; Oracle refuses it with FETCH, ORA-02014)")
	}
	// Every SELECT has a FROM at its own depth (Oracle: FROM DUAL).
	if d == migrations.Oracle {
		for i, tk := range toks {
			if !tk.is("SELECT") {
				continue
			}
			found := false
			for _, next := range toks[i+1:] {
				if next.depth < tk.depth {
					break
				}
				if next.depth == tk.depth && next.is("FROM") {
					found = true
					break
				}
			}
			if !found {
				add("select-from", "a SELECT without FROM (Oracle needs FROM DUAL)")
			}
		}
	}
	// In-list sizes: Oracle takes at most 1,000 expressions (ORA-01795); SQL Server at most
	// 1,000 rows in one VALUES list.
	for i, tk := range toks {
		if !(tk.is("IN") || tk.is("VALUES")) || i+1 >= len(toks) || toks[i+1].text != "(" {
			continue
		}
		if tk.is("IN") && d == migrations.Oracle {
			if n := countAtDepth(toks[i+2:], toks[i+1].depth+1, ","); n+1 > 1000 {
				add("in-list", "an IN list of %d values (Oracle allows 1,000)", n+1)
			}
		}
		if tk.is("VALUES") && d == migrations.SQLServer {
			if n := countAtDepth(toks[i+1:], toks[i+1].depth, ","); n+1 > 1000 {
				add("values-rows", "an INSERT of %d rows (SQL Server allows 1,000 per VALUES)", n+1)
			}
		}
	}
}

// countAtDepth counts punctuation p at depth in toks, up to the end of that depth.
func countAtDepth(toks []sqlToken, depth int, p string) int {
	n := 0
	for _, tk := range toks {
		if tk.depth < depth {
			break
		}
		if tk.depth == depth && tk.kind == tokPunct && tk.text == p {
			n++
		}
	}
	return n
}

func checkIdentifiers(d migrations.Dialect, schema goldenSchema, toks []sqlToken, add func(check, format string, args ...any)) {
	// Tables the statement names (after FROM, INTO, UPDATE), with their aliases.
	alias := map[string]string{}
	var tables []string
	for i, tk := range toks {
		if !(tk.is("FROM") || tk.is("INTO") || tk.is("UPDATE")) || i+1 >= len(toks) || !toks[i+1].isName() {
			continue
		}
		table := strings.ToLower(toks[i+1].text)
		if strings.EqualFold(table, "DUAL") {
			continue
		}
		if _, ok := schema.tables[table]; !ok {
			add("identifier", "unknown table %s", toks[i+1].text)
			continue
		}
		tables = append(tables, table)
		alias[table] = table
		if i+2 < len(toks) && toks[i+2].kind == tokWord && !sqlKeywords[strings.ToUpper(toks[i+2].text)] {
			alias[strings.ToLower(toks[i+2].text)] = table
		}
	}
	// Output columns the statement names with AS (a UNION's ORDER BY sorts by them).
	outputs := map[string]bool{}
	for i, tk := range toks {
		if tk.is("AS") && i+1 < len(toks) && toks[i+1].isName() {
			outputs[strings.ToLower(toks[i+1].text)] = true
		}
	}
	for i, tk := range toks {
		if !tk.isName() {
			continue
		}
		name := strings.ToLower(tk.text)
		if tk.kind == tokWord && sqlKeywords[strings.ToUpper(tk.text)] {
			continue
		}
		if outputs[name] {
			checkReserved(d, tk, add)
			continue
		}
		if _, ok := alias[name]; ok && (i+1 >= len(toks) || toks[i+1].text != ".") {
			checkReserved(d, tk, add)
			continue // a table or alias
		}
		if i > 0 && toks[i-1].text == "." {
			continue // checked with its qualifier
		}
		if i+2 < len(toks) && toks[i+1].text == "." {
			table, ok := alias[name]
			col := strings.ToLower(toks[i+2].text)
			switch {
			case !ok && d == migrations.Oracle && name == "dbms_lob":
				// Oracle's LOB package: DBMS_LOB.COMPARE is how a CLOB is compared.
			case !ok:
				add("identifier", "unknown qualifier %s", tk.text)
			case !schema.isColumn(table, col):
				add("identifier", "%s has no column %s", table, col)
			default:
				checkReserved(d, toks[i+2], add)
				checkClob(d, schema, table, toks, i+2, add)
			}
			continue
		}
		found := ""
		for _, table := range tables {
			if schema.isColumn(table, name) {
				found = table
				break
			}
		}
		if found == "" {
			add("identifier", "%s is not a column of %v (nor a known keyword)", tk.text, tables)
			continue
		}
		checkReserved(d, tk, add)
		checkClob(d, schema, found, toks, i, add)
	}
}

func checkReserved(d migrations.Dialect, tk sqlToken, add func(check, format string, args ...any)) {
	if tk.kind == tokQuoted {
		return
	}
	word := strings.ToUpper(tk.text)
	switch {
	case d == migrations.Oracle && oracleReserved[word]:
		add("reserved", "%s is an Oracle reserved word and is not quoted", tk.text)
	case d == migrations.SQLServer && sqlServerReserved[word]:
		add("reserved", "%s is a T-SQL reserved keyword and is not quoted", tk.text)
	case d == migrations.Oracle && len(tk.text) > 30:
		add("identifier-length", "%s is longer than Oracle 12.1's 30 characters", tk.text)
	}
}

// checkClob refuses an Oracle CLOB column compared with =, <>, <, >, IN or sorted (ORA-00932);
// LIKE and IS NULL are fine. Assignments (UPDATE ... SET col = ...) come before WHERE.
func checkClob(d migrations.Dialect, schema goldenSchema, table string, toks []sqlToken, i int, add func(check, format string, args ...any)) {
	if d != migrations.Oracle || schema.tables[table][strings.ToLower(toks[i].text)] != "CLOB" {
		return
	}
	inWhere, inOrder := false, false
	for _, tk := range toks[:i] {
		switch {
		case tk.is("WHERE"):
			inWhere, inOrder = true, false
		case tk.is("ORDER"):
			inWhere, inOrder = false, true
		}
	}
	next := ""
	if i+1 < len(toks) {
		next = strings.ToUpper(toks[i+1].text)
	}
	if inOrder || (inWhere && slices.Contains([]string{"=", "<>", "!=", "<", ">", "<=", ">=", "IN"}, next)) {
		add("clob-comparison", "CLOB column %s.%s is compared or sorted (ORA-00932)", table, toks[i].text)
	}
}
