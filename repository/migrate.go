package repository

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"  // registers "pgx"
	_ "github.com/microsoft/go-mssqldb" // registers "sqlserver"
	_ "github.com/sijms/go-ora/v2"      // registers "oracle"
	_ "gorm.io/driver/mysql"            // go-sql-driver registers "mysql"
	_ "gorm.io/driver/sqlite"           // mattn registers "sqlite3"

	"usertasks/migrations"
)

// OpenSQL opens a plain database/sql handle for the URL, for migrations and tooling. SQLite
// gets the store's settings with their defaults, on one connection; a binary without FTS5
// (built without the sqlite_fts5 tag) is refused first (migrations.ErrNoFTS5).
func OpenSQL(rawURL string) (*sql.DB, migrations.Dialect, error) {
	t, err := ParseURL(rawURL)
	if err != nil {
		return nil, "", err
	}
	var db *sql.DB
	switch t.Dialect {
	case migrations.SQLite:
		if err := requireFTS5(context.Background()); err != nil {
			return nil, "", err
		}
		// Opening stays lazy (a command that fails before its first query leaves no file);
		// the first connection creates the file for the owner only.
		db = sql.OpenDB(privateSQLite{path: t.DSN, dsn: sqliteDSN(t.DSN, Config{}.withDefaults(), sqliteTool)})
		db.SetMaxOpenConns(1)
	case migrations.Postgres:
		db, err = sql.Open("pgx", t.DSN)
	case migrations.MySQL:
		db, err = sql.Open("mysql", t.DSN)
	case migrations.SQLServer:
		db, err = sql.Open("sqlserver", t.DSN)
	case migrations.Oracle:
		db, err = sql.Open("oracle", t.DSN)
	}
	if err != nil {
		return nil, "", fmt.Errorf("repository: open %s: %w", t.Dialect, err)
	}
	return db, t.Dialect, nil
}

// Migrate applies every pending migration to the database at rawURL.
func Migrate(ctx context.Context, rawURL string) error {
	db, dialect, err := OpenSQL(rawURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return migrations.Up(ctx, dialect, db)
}
