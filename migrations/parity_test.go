package migrations

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"usertasks/migrations/migrationstest"
)

// target is one dialect under test: a live database (sqlite file, PostgreSQL, MySQL) or, for SQL
// Server and Oracle, the recorder standing in for the server.
type target struct {
	dialect Dialect
	db      *sql.DB
	rec     *recorder // nil for a live database
}

func openTarget(t *testing.T, d Dialect) target {
	t.Helper()
	switch d {
	case SQLite:
		db, _ := migrationstest.NewSQLiteFile(t)
		return target{dialect: d, db: db}
	case Postgres:
		db, _ := migrationstest.NewPostgres(t)
		return target{dialect: d, db: db}
	case MySQL:
		db, _ := migrationstest.NewMySQL(t)
		return target{dialect: d, db: db}
	case SQLServer, Oracle:
		rec := newRecorder(d)
		return target{dialect: d, db: rec.DB(t), rec: rec}
	}
	t.Fatalf("unknown dialect %s", d)
	return target{}
}

// tables lists the user tables present (goose's version table aside).
func (tg target) tables(t *testing.T) []string {
	t.Helper()
	if tg.rec != nil {
		return tg.rec.Tables()
	}
	names, err := userTables(context.Background(), tg.dialect, tg.db)
	if err != nil {
		t.Fatalf("list tables: %v", err)
	}
	return names
}

// schema returns what the database holds, read back into the logical form: introspected from a
// live database, parsed from the statements goose sent for SQL Server and Oracle.
func (tg target) schema(t *testing.T) []Table {
	t.Helper()
	if tg.rec != nil {
		var up []string
		for _, s := range tg.rec.Statements() {
			up = append(up, s.SQL)
		}
		parsed, err := parseDDL(tg.dialect, up)
		if err != nil {
			t.Fatalf("parse %s DDL: %v", tg.dialect, err)
		}
		return parsed.Tables
	}
	got, err := introspect(context.Background(), tg.dialect, tg.db)
	if err != nil {
		t.Fatalf("introspect %s: %v", tg.dialect, err)
	}
	for _, p := range got.Problems {
		t.Errorf("%s: %s", tg.dialect, p)
	}
	return got.Tables
}

func tableNames(tables []Table) []string {
	var names []string
	for _, t := range tables {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names
}

// TestSchemaParity applies every dialect's migrations and proves the result is exactly the
// logical schema of schema.go: the same tables, columns (order, logical type, length,
// nullability), primary keys, unique and plain indexes (names, column order) and cascading
// foreign keys.
func TestSchemaParity(t *testing.T) {
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			tg := openTarget(t, d)
			if err := Up(context.Background(), d, tg.db); err != nil {
				t.Fatalf("Up: %v", err)
			}
			for _, diff := range diffSchema(Schema(), tg.schema(t)) {
				t.Errorf("%s differs from schema.go: %s", d, diff)
			}
		})
	}
}

// diffSchema lists every difference between want and got, one readable line each.
func diffSchema(want, got []Table) []string {
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	gotByName := map[string]Table{}
	for _, t := range got {
		gotByName[t.Name] = t
	}
	for _, w := range want {
		g, ok := gotByName[w.Name]
		if !ok {
			add("table %s is missing", w.Name)
			continue
		}
		delete(gotByName, w.Name)
		diffs = append(diffs, diffTable(w, g)...)
	}
	for _, name := range tableNames(got) {
		if _, extra := gotByName[name]; extra {
			add("unexpected table %s", name)
		}
	}
	return diffs
}

func diffTable(want, got Table) []string {
	var diffs []string
	add := func(format string, args ...any) {
		diffs = append(diffs, want.Name+": "+fmt.Sprintf(format, args...))
	}
	colNames := func(cols []Column) []string {
		var names []string
		for _, c := range cols {
			names = append(names, c.Name)
		}
		return names
	}
	if w, g := colNames(want.Columns), colNames(got.Columns); !slices.Equal(w, g) {
		add("columns %v, want %v", g, w)
	}
	for _, wc := range want.Columns {
		gc, ok := got.Column(wc.Name)
		if ok && gc != wc {
			add("column %s is %s, want %s", wc.Name, describeColumn(gc), describeColumn(wc))
		}
	}
	if !slices.Equal(want.PrimaryKey, got.PrimaryKey) {
		add("primary key %v, want %v", got.PrimaryKey, want.PrimaryKey)
	}
	gotIdx := map[string]Index{}
	for _, ix := range got.Indexes {
		gotIdx[ix.Name] = ix
	}
	for _, w := range want.Indexes {
		g, ok := gotIdx[w.Name]
		if !ok {
			add("index %s is missing", w.Name)
			continue
		}
		delete(gotIdx, w.Name)
		if g.Unique != w.Unique || !slices.Equal(g.Columns, w.Columns) {
			add("index %s is %s, want %s", w.Name, describeIndex(g), describeIndex(w))
		}
	}
	var extra []string
	for name := range gotIdx {
		extra = append(extra, name)
	}
	slices.Sort(extra)
	for _, name := range extra {
		add("unexpected index %s", describeIndex(gotIdx[name]))
	}
	wantFK, gotFK := describeForeignKeys(want.ForeignKeys), describeForeignKeys(got.ForeignKeys)
	for _, fk := range wantFK {
		if !slices.Contains(gotFK, fk) {
			add("foreign key %s is missing", fk)
		}
	}
	for _, fk := range gotFK {
		if !slices.Contains(wantFK, fk) {
			add("unexpected foreign key %s", fk)
		}
	}
	return diffs
}

func describeColumn(c Column) string {
	s := string(c.Type)
	if c.Type == Varchar {
		s = fmt.Sprintf("%s(%d)", c.Type, c.Length)
	} else if c.Length != 0 {
		s = fmt.Sprintf("%s length %d", c.Type, c.Length)
	}
	if c.Type == "" {
		s = "an unknown type"
	}
	if !c.Nullable {
		s += " NOT NULL"
	}
	return s
}

func describeIndex(ix Index) string {
	kind := "INDEX"
	if ix.Unique {
		kind = "UNIQUE INDEX"
	}
	return fmt.Sprintf("%s %s (%s)", kind, ix.Name, strings.Join(ix.Columns, ", "))
}

func describeForeignKeys(fks []ForeignKey) []string {
	var out []string
	for _, fk := range fks {
		s := fmt.Sprintf("(%s) REFERENCES %s (%s)", strings.Join(fk.Columns, ", "), fk.RefTable, strings.Join(fk.RefColumns, ", "))
		if fk.OnDeleteCascade {
			s += " ON DELETE CASCADE"
		} else {
			s += " without ON DELETE CASCADE"
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestDiffSchemaReportsDifferences keeps the comparison honest: each kind of drift is reported.
func TestDiffSchemaReportsDifferences(t *testing.T) {
	want := Schema()
	got := Schema()
	tasks := &got[0]
	tasks.Columns[1].Nullable = true                                  // nullability
	tasks.Columns[2].Length = 64                                      // length
	tasks.Indexes[0].Columns = slices.Clone(tasks.Indexes[0].Columns) // column order
	slices.Reverse(tasks.Indexes[0].Columns)
	tasks.Indexes = tasks.Indexes[:len(tasks.Indexes)-1] // missing index
	got[1].ForeignKeys[0].OnDeleteCascade = false        // cascade
	got = got[:len(got)-1]                               // missing table

	diffs := diffSchema(want, got)
	for _, fragment := range []string{
		"column tenant_id is VARCHAR(64), want VARCHAR(64) NOT NULL",
		"column workflow_definition_id is VARCHAR(64) NOT NULL, want VARCHAR(128) NOT NULL",
		"index ux_tasks_materialization is UNIQUE INDEX ux_tasks_materialization (materialization_key, tenant_id)",
		"index ix_tasks_revision is missing",
		"without ON DELETE CASCADE",
		"table " + want[len(want)-1].Name + " is missing", // the newest table, whichever it is
	} {
		if !slices.ContainsFunc(diffs, func(d string) bool { return strings.Contains(d, fragment) }) {
			t.Errorf("no difference mentions %q; got %q", fragment, diffs)
		}
	}
	if diffs := diffSchema(Schema(), Schema()); len(diffs) != 0 {
		t.Errorf("identical schemas differ: %q", diffs)
	}
}
