package migrations

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pressly/goose/v3/database"
)

// No Oracle server runs here: these tests pin the SQL the Oracle store generates and run the
// store, and goose through it, against the recorder (which hands NUMBER values over as text, as
// go-ora does).

func TestOracleStoreSQL(t *testing.T) {
	s := newOracleStore("user_task_schema_versions").(*oracleStore)
	existsSQL, existsArgs := s.tableExistsSQL()
	ownerSQL, ownerArgs := (&oracleStore{table: "app.versions"}).tableExistsSQL()
	for _, tc := range []struct {
		name, got, want string
	}{
		{"CreateVersionTable", s.createTableSQL(), `CREATE TABLE user_task_schema_versions (
	id NUMBER(19) GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	version_id NUMBER(19) NOT NULL,
	is_applied NUMBER(1) NOT NULL,
	tstamp TIMESTAMP DEFAULT SYSTIMESTAMP NOT NULL
)`},
		{"Insert", s.insertSQL(), `INSERT INTO user_task_schema_versions (version_id, is_applied) VALUES (:1, :2)`},
		{"Delete", s.deleteSQL(), `DELETE FROM user_task_schema_versions WHERE version_id = :1`},
		{"GetMigration", s.getMigrationSQL(), `SELECT tstamp, is_applied FROM user_task_schema_versions WHERE version_id = :1 ORDER BY tstamp DESC, id DESC FETCH FIRST 1 ROWS ONLY`},
		{"GetLatestVersion", s.latestVersionSQL(), `SELECT MAX(version_id) FROM user_task_schema_versions`},
		{"ListMigrations", s.listMigrationsSQL(), `SELECT version_id, is_applied FROM user_task_schema_versions ORDER BY id DESC`},
		{"TableExists", existsSQL, `SELECT COUNT(*) FROM user_tables WHERE table_name = UPPER(:1)`},
		{"TableExistsWithOwner", ownerSQL, `SELECT COUNT(*) FROM all_tables WHERE owner = UPPER(:1) AND table_name = UPPER(:2)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", tc.got, tc.want)
			}
			checkOracleSQL(t, tc.got)
		})
	}
	if !slices.Equal(existsArgs, []any{"user_task_schema_versions"}) || !slices.Equal(ownerArgs, []any{"app", "versions"}) {
		t.Errorf("table-exists arguments %v, %v", existsArgs, ownerArgs)
	}
}

var (
	reOtherBinds  = regexp.MustCompile(`\$\d|\?|@p\d|:[A-Za-z]`)
	reOracleBinds = regexp.MustCompile(`:(\d+)`)
)

// checkOracleSQL asserts what Oracle requires of a statement sent through go-ora: no trailing
// semicolon, positional :n binds numbered from 1 (no $1, ?, @p1), identifiers of 30 characters
// at most, no quoted identifiers.
func checkOracleSQL(t *testing.T, sql string) {
	t.Helper()
	if strings.HasSuffix(strings.TrimSpace(sql), ";") {
		t.Errorf("statement ends with a semicolon: %q", sql)
	}
	if reOtherBinds.MatchString(sql) {
		t.Errorf("statement uses non-Oracle bind variables: %q", sql)
	}
	for i, m := range reOracleBinds.FindAllStringSubmatch(sql, -1) {
		if want := string(rune('1' + i)); m[1] != want {
			t.Errorf("bind %d is :%s, want :%s in %q", i+1, m[1], want, sql)
		}
	}
	if strings.Contains(sql, `"`) {
		t.Errorf("statement quotes an identifier: %q", sql)
	}
	for _, word := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`).FindAllString(sql, -1) {
		if len(word) > oracleMaxIdent {
			t.Errorf("identifier %s is longer than %d characters", word, oracleMaxIdent)
		}
	}
}

func TestOracleStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	rec := newRecorder(Oracle)
	db := rec.DB(t)
	s := newOracleStore(VersionTable).(*oracleStore)

	exists, err := s.TableExists(ctx, db)
	if err != nil || exists {
		t.Fatalf("TableExists before create = %v, %v; want false, nil", exists, err)
	}
	if _, err := s.GetLatestVersion(ctx, db); err == nil {
		t.Fatal("GetLatestVersion without a table: want an error")
	}
	if err := s.CreateVersionTable(ctx, db); err != nil {
		t.Fatalf("CreateVersionTable: %v", err)
	}
	if exists, err := s.TableExists(ctx, db); err != nil || !exists {
		t.Fatalf("TableExists after create = %v, %v; want true, nil", exists, err)
	}
	if _, err := s.GetLatestVersion(ctx, db); !errors.Is(err, database.ErrVersionNotFound) {
		t.Errorf("GetLatestVersion of an empty table: %v, want ErrVersionNotFound", err)
	}
	for _, v := range []int64{0, 1, 2} {
		if err := s.Insert(ctx, db, database.InsertRequest{Version: v}); err != nil {
			t.Fatalf("Insert %d: %v", v, err)
		}
	}
	if latest, err := s.GetLatestVersion(ctx, db); err != nil || latest != 2 {
		t.Errorf("GetLatestVersion = %d, %v; want 2, nil", latest, err)
	}
	list, err := s.ListMigrations(ctx, db)
	if err != nil {
		t.Fatalf("ListMigrations: %v", err)
	}
	var versions []int64
	for _, m := range list {
		versions = append(versions, m.Version)
		if !m.IsApplied {
			t.Errorf("version %d not applied", m.Version)
		}
	}
	if !slices.Equal(versions, []int64{2, 1, 0}) {
		t.Errorf("ListMigrations versions %v, want newest first [2 1 0]", versions)
	}
	m, err := s.GetMigration(ctx, db, 1)
	if err != nil || !m.IsApplied || m.Timestamp.IsZero() {
		t.Errorf("GetMigration(1) = %+v, %v; want applied with a timestamp", m, err)
	}
	if _, err := s.GetMigration(ctx, db, 7); !errors.Is(err, database.ErrVersionNotFound) {
		t.Errorf("GetMigration(7): %v, want ErrVersionNotFound", err)
	}
	if err := s.Delete(ctx, db, 2); err != nil {
		t.Fatalf("Delete 2: %v", err)
	}
	if latest, err := s.GetLatestVersion(ctx, db); err != nil || latest != 1 {
		t.Errorf("GetLatestVersion after Delete = %d, %v; want 1, nil", latest, err)
	}
	for _, q := range rec.StoreSQL() {
		checkOracleSQL(t, q)
	}
}

// TestOracleMigrationRun runs goose's provider through the Oracle store: the version table is
// created outside a transaction, the DDL runs without one, and no statement carries a semicolon.
func TestOracleMigrationRun(t *testing.T) {
	ctx := context.Background()
	rec := newRecorder(Oracle)
	db := rec.DB(t)
	if err := Up(ctx, Oracle, db); err != nil {
		t.Fatalf("Up: %v", err)
	}
	if err := DownAll(ctx, Oracle, db); err != nil {
		t.Fatalf("DownAll: %v", err)
	}
	statements := rec.Statements()
	if len(statements) == 0 {
		t.Fatal("no statements sent")
	}
	for _, s := range statements {
		if s.InTx {
			t.Errorf("DDL sent inside a transaction (Oracle commits DDL implicitly): %q", firstLine(s.SQL))
		}
		if strings.HasSuffix(strings.TrimSpace(s.SQL), ";") {
			t.Errorf("statement ends with a semicolon: %q", firstLine(s.SQL))
		}
	}
	for _, q := range rec.StoreSQL() {
		checkOracleSQL(t, q)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
