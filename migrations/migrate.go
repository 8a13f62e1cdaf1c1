// Package migrations holds the hand-written, versioned SQL schema of User Tasks for every
// supported dialect and applies it with goose's provider API.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"
)

// Dialect names a supported SQL dialect; it is also the folder of its migrations.
type Dialect string

const (
	SQLite    Dialect = "sqlite"
	Postgres  Dialect = "postgres"
	MySQL     Dialect = "mysql"
	SQLServer Dialect = "sqlserver"
	Oracle    Dialect = "oracle"
)

// Dialects lists every supported dialect.
var Dialects = []Dialect{SQLite, Postgres, MySQL, SQLServer, Oracle}

// VersionTable is goose's bookkeeping table (short enough for Oracle identifiers).
const VersionTable = "user_task_schema_versions"

//go:embed sqlite/*.sql postgres/*.sql mysql/*.sql sqlserver/*.sql oracle/*.sql
var files embed.FS

// ErrUnknownSchema means the database holds a schema version this binary does not know.
var ErrUnknownSchema = errors.New("migrations: database schema version is unknown to this binary")

// ErrPending means the database is older than this binary and needs `web migrate up`.
var ErrPending = errors.New("migrations: database schema is older than this binary; run migrations")

// Files returns the migration files of one dialect.
func Files(d Dialect) (fs.FS, error) {
	for _, known := range Dialects {
		if d == known {
			return fs.Sub(files, string(d))
		}
	}
	return nil, fmt.Errorf("migrations: unknown dialect %q", d)
}

// NewProvider builds a goose provider for db. PostgreSQL takes a session advisory lock so
// several nodes starting at once migrate one at a time.
func NewProvider(d Dialect, db *sql.DB) (*goose.Provider, error) {
	fsys, err := Files(d)
	if err != nil {
		return nil, err
	}
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}
	switch d {
	case Postgres:
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	case Oracle:
		// goose has no Oracle dialect: a custom store keeps its version table. Oracle DDL commits
		// implicitly, so the version table is created outside a transaction (IsolateDDL) and the
		// migration files run with NO TRANSACTION.
		opts = append(opts, goose.WithStore(newOracleStore(VersionTable)), goose.WithIsolateDDL(true))
		return goose.NewProvider(database.DialectCustom, db, fsys, opts...)
	}
	opts = append(opts, goose.WithTableName(VersionTable))
	return goose.NewProvider(gooseDialect(d), db, fsys, opts...)
}

// gooseDialect is goose's built-in dialect for d; Oracle has none (DialectCustom).
func gooseDialect(d Dialect) database.Dialect {
	switch d {
	case SQLite:
		return database.DialectSQLite3
	case Postgres:
		return database.DialectPostgres
	case MySQL:
		return database.DialectMySQL
	case SQLServer:
		return database.DialectMSSQL
	}
	return database.DialectCustom
}

// Up applies every pending migration. On SQLite it first checks that FTS5 is compiled in
// (ErrNoFTS5); on PostgreSQL a role that may not create pg_trgm gets ErrSearchExtension.
func Up(ctx context.Context, d Dialect, db *sql.DB) error {
	if d == SQLite {
		if err := CheckSQLiteFTS5(ctx, db); err != nil {
			return err
		}
	}
	p, err := NewProvider(d, db)
	if err != nil {
		return err
	}
	_, err = p.Up(ctx)
	return UpError(err)
}

// DownAll rolls every migration back, leaving an empty schema (goose's own table aside).
func DownAll(ctx context.Context, d Dialect, db *sql.DB) error {
	p, err := NewProvider(d, db)
	if err != nil {
		return err
	}
	_, err = p.DownTo(ctx, 0)
	return err
}

// Check compares the database's schema version with this binary's: ErrUnknownSchema when the
// database is newer or unknown, ErrPending when migrations are pending.
func Check(ctx context.Context, d Dialect, db *sql.DB) (current, latest int64, err error) {
	p, err := NewProvider(d, db)
	if err != nil {
		return 0, 0, err
	}
	current, latest, err = p.GetVersions(ctx)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case current > latest:
		return current, latest, ErrUnknownSchema
	case current < latest:
		return current, latest, ErrPending
	}
	return current, latest, nil
}
