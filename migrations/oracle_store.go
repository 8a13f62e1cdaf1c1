package migrations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pressly/goose/v3/database"
)

// oracleStore keeps goose's version table on Oracle (12c+), for which goose has no dialect. It
// follows goose's own dialect stores (same columns, same queries) with Oracle types, an IDENTITY
// id, positional bind variables (:1, :2) and no trailing semicolons. Booleans are NUMBER(1): the
// store binds 1 and reads any non-zero number as applied.
type oracleStore struct {
	table string
}

var (
	_ database.Store         = (*oracleStore)(nil)
	_ database.StoreExtender = (*oracleStore)(nil)
)

func newOracleStore(table string) database.Store {
	return &oracleStore{table: table}
}

// Tablename returns the version table's name.
func (s *oracleStore) Tablename() string { return s.table }

func (s *oracleStore) createTableSQL() string {
	return fmt.Sprintf(`CREATE TABLE %s (
	id NUMBER(19) GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	version_id NUMBER(19) NOT NULL,
	is_applied NUMBER(1) NOT NULL,
	tstamp TIMESTAMP DEFAULT SYSTIMESTAMP NOT NULL
)`, s.table)
}

func (s *oracleStore) insertSQL() string {
	return fmt.Sprintf(`INSERT INTO %s (version_id, is_applied) VALUES (:1, :2)`, s.table)
}

func (s *oracleStore) deleteSQL() string {
	return fmt.Sprintf(`DELETE FROM %s WHERE version_id = :1`, s.table)
}

func (s *oracleStore) getMigrationSQL() string {
	return fmt.Sprintf(`SELECT tstamp, is_applied FROM %s WHERE version_id = :1 ORDER BY tstamp DESC, id DESC FETCH FIRST 1 ROWS ONLY`, s.table)
}

func (s *oracleStore) latestVersionSQL() string {
	return fmt.Sprintf(`SELECT MAX(version_id) FROM %s`, s.table)
}

func (s *oracleStore) listMigrationsSQL() string {
	return fmt.Sprintf(`SELECT version_id, is_applied FROM %s ORDER BY id DESC`, s.table)
}

// tableExistsSQL looks the table up in the data dictionary. Unquoted identifiers are stored
// upper-case, hence UPPER on the bound names; a "schema.table" name is looked up in ALL_TABLES.
func (s *oracleStore) tableExistsSQL() (query string, args []any) {
	if owner, table, ok := strings.Cut(s.table, "."); ok {
		return `SELECT COUNT(*) FROM all_tables WHERE owner = UPPER(:1) AND table_name = UPPER(:2)`, []any{owner, table}
	}
	return `SELECT COUNT(*) FROM user_tables WHERE table_name = UPPER(:1)`, []any{s.table}
}

// CreateVersionTable creates the version table.
func (s *oracleStore) CreateVersionTable(ctx context.Context, db database.DBTxConn) error {
	if _, err := db.ExecContext(ctx, s.createTableSQL()); err != nil {
		return fmt.Errorf("failed to create version table %q: %w", s.table, err)
	}
	return nil
}

// Insert records version as applied.
func (s *oracleStore) Insert(ctx context.Context, db database.DBTxConn, req database.InsertRequest) error {
	if _, err := db.ExecContext(ctx, s.insertSQL(), req.Version, 1); err != nil {
		return fmt.Errorf("failed to insert version %d: %w", req.Version, err)
	}
	return nil
}

// Delete removes version from the version table.
func (s *oracleStore) Delete(ctx context.Context, db database.DBTxConn, version int64) error {
	if _, err := db.ExecContext(ctx, s.deleteSQL(), version); err != nil {
		return fmt.Errorf("failed to delete version %d: %w", version, err)
	}
	return nil
}

// GetMigration returns the newest row of version, or database.ErrVersionNotFound.
func (s *oracleStore) GetMigration(ctx context.Context, db database.DBTxConn, version int64) (*database.GetMigrationResult, error) {
	var (
		tstamp  time.Time
		applied int64
	)
	err := db.QueryRowContext(ctx, s.getMigrationSQL(), version).Scan(&tstamp, &applied)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %d", database.ErrVersionNotFound, version)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to get migration %d: %w", version, err)
	}
	return &database.GetMigrationResult{Timestamp: tstamp, IsApplied: applied != 0}, nil
}

// GetLatestVersion returns the highest recorded version, or database.ErrVersionNotFound when the
// table is empty.
func (s *oracleStore) GetLatestVersion(ctx context.Context, db database.DBTxConn) (int64, error) {
	var version sql.NullInt64
	if err := db.QueryRowContext(ctx, s.latestVersionSQL()).Scan(&version); err != nil {
		return -1, fmt.Errorf("failed to get latest version: %w", err)
	}
	if !version.Valid {
		return -1, fmt.Errorf("latest %w", database.ErrVersionNotFound)
	}
	return version.Int64, nil
}

// ListMigrations returns every recorded row, newest first.
func (s *oracleStore) ListMigrations(ctx context.Context, db database.DBTxConn) ([]*database.ListMigrationsResult, error) {
	rows, err := db.QueryContext(ctx, s.listMigrationsSQL())
	if err != nil {
		return nil, fmt.Errorf("failed to list migrations: %w", err)
	}
	defer rows.Close()
	var migrations []*database.ListMigrationsResult
	for rows.Next() {
		var (
			version int64
			applied int64
		)
		if err := rows.Scan(&version, &applied); err != nil {
			return nil, fmt.Errorf("failed to scan list migrations result: %w", err)
		}
		migrations = append(migrations, &database.ListMigrationsResult{Version: version, IsApplied: applied != 0})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("failed to list migrations: %w", err)
	}
	return migrations, nil
}

// TableExists reports whether the version table exists, from the data dictionary (goose would
// otherwise probe it with a query that fails and logs when the table is missing).
func (s *oracleStore) TableExists(ctx context.Context, db database.DBTxConn) (bool, error) {
	query, args := s.tableExistsSQL()
	var n int64
	if err := db.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return false, fmt.Errorf("failed to check if version table exists: %w", err)
	}
	return n > 0, nil
}
