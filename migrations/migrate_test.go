package migrations

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pressly/goose/v3/database"
)

// versionStore is goose's store for d, used by tests to write the version table directly.
func versionStore(t *testing.T, d Dialect) database.Store {
	t.Helper()
	if d == Oracle {
		return newOracleStore(VersionTable)
	}
	s, err := database.NewStore(gooseDialect(d), VersionTable)
	if err != nil {
		t.Fatalf("version store for %s: %v", d, err)
	}
	return s
}

func wantTables() []string { return tableNames(Schema()) }

// TestUpThenDownAll applies the migrations and rolls them all back: afterwards the database holds
// no table of ours, only goose's version table.
func TestUpThenDownAll(t *testing.T) {
	ctx := context.Background()
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			tg := openTarget(t, d)
			if err := Up(ctx, d, tg.db); err != nil {
				t.Fatalf("Up: %v", err)
			}
			if got, want := tg.tables(t), wantTables(); !slices.Equal(got, want) {
				t.Fatalf("after Up: tables %v, want %v", got, want)
			}
			if err := DownAll(ctx, d, tg.db); err != nil {
				t.Fatalf("DownAll: %v", err)
			}
			if got := tg.tables(t); len(got) != 0 {
				t.Errorf("after DownAll: tables %v remain", got)
			}
			if tg.rec == nil {
				if leftovers := leftoverObjects(t, tg); len(leftovers) != 0 {
					t.Errorf("after DownAll: objects %v remain", leftovers)
				}
			}
			current, _, err := Check(ctx, d, tg.db)
			if !errors.Is(err, ErrPending) || current != 0 {
				t.Errorf("after DownAll: Check = %d, %v; want 0, ErrPending", current, err)
			}
		})
	}
}

// leftoverObjects lists indexes (and for PostgreSQL sequences and views) that do not belong to
// goose's version table.
func leftoverObjects(t *testing.T, tg target) []string {
	t.Helper()
	var query string
	switch tg.dialect {
	case SQLite:
		query = `SELECT type || ' ' || name FROM sqlite_master WHERE tbl_name <> '` + VersionTable + `' AND name NOT LIKE 'sqlite_%'`
	case Postgres:
		query = `SELECT c.relkind::text || ' ' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relname NOT LIKE '` + VersionTable + `%'`
	case MySQL:
		query = `SELECT CONCAT(TABLE_NAME, '.', INDEX_NAME) FROM information_schema.STATISTICS
WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> '` + VersionTable + `'`
	}
	got, err := queryStrings(context.Background(), tg.db, query)
	if err != nil {
		t.Fatalf("list objects: %v", err)
	}
	return got
}

// TestDownDropsEverythingCreated checks the Down section of the SQL Server and Oracle files, which
// cannot run here: it drops exactly the tables Up creates (their indexes go with them), children
// before the parents they reference, and nothing else.
func TestDownDropsEverythingCreated(t *testing.T) {
	ctx := context.Background()
	for _, d := range []Dialect{SQLServer, Oracle} {
		t.Run(string(d), func(t *testing.T) {
			tg := openTarget(t, d)
			if err := Up(ctx, d, tg.db); err != nil {
				t.Fatalf("Up: %v", err)
			}
			nUp := len(tg.rec.Statements())
			if err := DownAll(ctx, d, tg.db); err != nil {
				t.Fatalf("DownAll: %v", err)
			}
			var up, down []string
			for i, s := range tg.rec.Statements() {
				if i < nUp {
					up = append(up, s.SQL)
				} else {
					down = append(down, s.SQL)
				}
			}
			created, err := parseDDL(d, up)
			if err != nil {
				t.Fatalf("parse Up: %v", err)
			}
			dropped, err := parseDown(d, down)
			if err != nil {
				t.Fatalf("parse Down: %v", err)
			}
			if got, want := slices.Sorted(slices.Values(dropped)), tableNames(created.Tables); !slices.Equal(got, want) {
				t.Errorf("Down drops %v, want every created table %v", got, want)
			}
			for _, table := range created.Tables {
				for _, ix := range table.Indexes {
					if !slices.Contains(dropped, table.Name) {
						t.Errorf("index %s survives: its table %s is not dropped", ix.Name, table.Name)
					}
				}
			}
			// Drop order: a table is dropped only after every table referencing it.
			remaining := map[string]Table{}
			for _, table := range created.Tables {
				remaining[table.Name] = table
			}
			for _, name := range dropped {
				delete(remaining, name)
				for _, child := range remaining {
					for _, fk := range child.ForeignKeys {
						if fk.RefTable == name {
							t.Errorf("%s is dropped while %s still references it", name, child.Name)
						}
					}
				}
			}
		})
	}
}

// TestUpTwiceIsNoOp runs Up on an up-to-date database: nothing is applied and the schema is
// unchanged.
func TestUpTwiceIsNoOp(t *testing.T) {
	ctx := context.Background()
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			tg := openTarget(t, d)
			if err := Up(ctx, d, tg.db); err != nil {
				t.Fatalf("first Up: %v", err)
			}
			before := tg.schema(t)
			var statementsBefore int
			if tg.rec != nil {
				statementsBefore = len(tg.rec.Statements())
			}
			p, err := NewProvider(d, tg.db)
			if err != nil {
				t.Fatalf("NewProvider: %v", err)
			}
			results, err := p.Up(ctx)
			if err != nil {
				t.Fatalf("second Up: %v", err)
			}
			if len(results) != 0 {
				t.Errorf("second Up applied %d migrations, want 0", len(results))
			}
			if tg.rec != nil && len(tg.rec.Statements()) != statementsBefore {
				t.Errorf("second Up sent %d statements, want 0", len(tg.rec.Statements())-statementsBefore)
			}
			if diffs := diffSchema(before, tg.schema(t)); len(diffs) != 0 {
				t.Errorf("second Up changed the schema: %q", diffs)
			}
			if err := Up(ctx, d, tg.db); err != nil {
				t.Errorf("Up on an up-to-date database: %v", err)
			}
		})
	}
}

// TestCheck covers the start-up schema check: pending on an empty database, nil when up to date,
// unknown when the database records a version this binary does not have.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			tg := openTarget(t, d)
			latest := latestVersion(t, d)

			t.Run("ErrPending", func(t *testing.T) {
				gotCurrent, gotLatest, err := Check(ctx, d, tg.db)
				if !errors.Is(err, ErrPending) {
					t.Fatalf("Check on an empty database: %v, want ErrPending", err)
				}
				if gotCurrent != 0 || gotLatest != latest {
					t.Errorf("Check = %d, %d; want 0, %d", gotCurrent, gotLatest, latest)
				}
			})

			t.Run("OK", func(t *testing.T) {
				if err := Up(ctx, d, tg.db); err != nil {
					t.Fatalf("Up: %v", err)
				}
				gotCurrent, gotLatest, err := Check(ctx, d, tg.db)
				if err != nil {
					t.Fatalf("Check after Up: %v", err)
				}
				if gotCurrent != latest || gotLatest != latest {
					t.Errorf("Check = %d, %d; want %d, %d", gotCurrent, gotLatest, latest, latest)
				}
			})

			t.Run("ErrUnknownSchema", func(t *testing.T) {
				newer := latest + 1
				if err := versionStore(t, d).Insert(ctx, tg.db, database.InsertRequest{Version: newer}); err != nil {
					t.Fatalf("record version %d: %v", newer, err)
				}
				gotCurrent, gotLatest, err := Check(ctx, d, tg.db)
				if !errors.Is(err, ErrUnknownSchema) {
					t.Fatalf("Check with version %d recorded: %v, want ErrUnknownSchema", newer, err)
				}
				if gotCurrent != newer || gotLatest != latest {
					t.Errorf("Check = %d, %d; want %d, %d", gotCurrent, gotLatest, newer, latest)
				}
			})
		})
	}
}

// TestLatestVersionMatchesFiles keeps Check's idea of "latest" honest: every dialect has the same
// migration versions.
func TestLatestVersionMatchesFiles(t *testing.T) {
	var want []string
	for i, d := range Dialects {
		fsys, err := Files(d)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := readDirNames(fsys)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			want = entries
			continue
		}
		if !slices.Equal(entries, want) {
			t.Errorf("%s migrations %v, want %v (as %s)", d, entries, want, Dialects[0])
		}
	}
	if len(want) == 0 {
		t.Fatal("no migrations")
	}
}

// latestVersion is the version of the dialect's newest migration file (files are numbered
// 00001, 00002, … without gaps, as TestLatestVersionMatchesFiles keeps them alike).
func latestVersion(t *testing.T, d Dialect) int64 {
	t.Helper()
	fsys, err := Files(d)
	if err != nil {
		t.Fatal(err)
	}
	names, err := readDirNames(fsys)
	if err != nil || len(names) == 0 {
		t.Fatalf("no %s migrations: %v", d, err)
	}
	v, err := strconv.ParseInt(strings.SplitN(names[len(names)-1], "_", 2)[0], 10, 64)
	if err != nil {
		t.Fatalf("migration %s has no version number: %v", names[len(names)-1], err)
	}
	return v
}

func readDirNames(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	return names, nil
}
