package migrations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// The substring search index of migration 00013 (issue 27 item 1) is dialect-specific, so the
// logical schema (package logical, from which the document store derives its collections) does
// not describe it; the parity tests set these objects aside and check them on their own.
const (
	// SQLiteSearchTable is SQLite's FTS5 table (trigram tokenizer, contentless); FTS5 adds
	// shadow tables named after it, and user_task_search_rows maps its rowids to task ids.
	SQLiteSearchTable = "user_task_search"
	// SQLiteSearchRows maps each FTS row (a stable INTEGER PRIMARY KEY) to its task and tenant.
	SQLiteSearchRows = "user_task_search_rows"
	// PostgresSearchIndex is PostgreSQL's GIN index (pg_trgm's gin_trgm_ops) on search_text.
	PostgresSearchIndex = "ix_tasks_search"
)

// IsSearchIndexTable reports whether a SQLite table belongs to the search index: the FTS5
// table, its shadow tables (user_task_search_data, _idx, _docsize, _config) and the row map.
func IsSearchIndexTable(name string) bool {
	return name == SQLiteSearchTable || strings.HasPrefix(name, SQLiteSearchTable+"_")
}

// ErrNoFTS5 means the SQLite library linked into this binary lacks FTS5, which the search
// index (migration 00013) needs: go-sqlite3 compiles it in only under the sqlite_fts5 build tag.
var ErrNoFTS5 = errors.New("SQLite: this binary was built without FTS5, which the search index needs: build it with the sqlite_fts5 build tag (go build -tags sqlite_fts5; the Makefile sets it)")

// CheckSQLiteFTS5 fails with ErrNoFTS5 unless db's SQLite library has FTS5 compiled in.
func CheckSQLiteFTS5(ctx context.Context, db *sql.DB) error {
	var on bool
	if err := db.QueryRowContext(ctx, "SELECT sqlite_compileoption_used('ENABLE_FTS5')").Scan(&on); err != nil {
		return fmt.Errorf("SQLite: check for FTS5: %w", err)
	}
	if !on {
		return ErrNoFTS5
	}
	return nil
}

// ErrSearchExtension means the migration's PostgreSQL role may not create the pg_trgm
// extension that the search index (migration 00013) needs.
var ErrSearchExtension = errors.New("PostgreSQL: the migration's role may not create the extension pg_trgm (the search index needs it): have a superuser run `CREATE EXTENSION pg_trgm;` in this database once, or grant the role CREATE on the database, then start again (docs/deployment.md)")

// UpError explains an error of applying migrations where it can: PostgreSQL's refusal to
// create pg_trgm becomes ErrSearchExtension, which names the fix; any other error is returned
// as it is. Up applies it; so must any caller that runs the goose provider itself.
func UpError(err error) error {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "42501" /* insufficient_privilege */ && strings.Contains(err.Error(), "pg_trgm") {
		return fmt.Errorf("%w: %s", ErrSearchExtension, pg.Message)
	}
	return err
}
