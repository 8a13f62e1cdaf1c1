package repository

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	mysqldriver "github.com/go-sql-driver/mysql"
	oracle "github.com/godoes/gorm-oracle"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
	mssql "github.com/microsoft/go-mssqldb"
	"gorm.io/driver/mysql"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/driver/sqlserver"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/schema"

	"usertasks/migrations"
)

// Target is a parsed database URL.
type Target struct {
	Dialect migrations.Dialect
	// DSN is what the dialect's driver takes; for SQLite it is the file path.
	DSN string
}

// ErrMemoryDatabase refuses SQLite in-memory databases: they vanish with their connection,
// which the durability promise of the store cannot survive.
var ErrMemoryDatabase = errors.New("repository: SQLite in-memory databases are refused; use a file")

// ParseURL turns USERTASKS_DATABASE_URL into a dialect and driver DSN.
func ParseURL(raw string) (Target, error) {
	switch {
	case strings.HasPrefix(raw, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(raw, "sqlite:"), "//")
		if path == "" {
			return Target{}, errors.New("repository: sqlite URL names no file")
		}
		if strings.Contains(path, ":memory:") || strings.Contains(path, "mode=memory") {
			return Target{}, ErrMemoryDatabase
		}
		if strings.ContainsAny(path, "?#") {
			return Target{}, errors.New("repository: sqlite URL takes a plain file path without options")
		}
		return Target{Dialect: migrations.SQLite, DSN: path}, nil
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		return Target{Dialect: migrations.Postgres, DSN: raw}, nil
	case strings.HasPrefix(raw, "mysql://"):
		dsn, err := mysqlDSN(raw)
		return Target{Dialect: migrations.MySQL, DSN: dsn}, err
	case strings.HasPrefix(raw, "sqlserver://"):
		return Target{Dialect: migrations.SQLServer, DSN: raw}, nil
	case strings.HasPrefix(raw, "oracle://"):
		return Target{Dialect: migrations.Oracle, DSN: raw}, nil
	}
	return Target{}, fmt.Errorf("repository: unsupported database URL scheme (want sqlite:, postgres://, mysql://, sqlserver:// or oracle://)")
}

// mysqlDSN converts mysql://user:pass@host:port/db?opts into a go-sql-driver DSN with the
// options the store relies on: UTC times, and clientFoundRows so that a guarded UPDATE that
// matches a row counts it even when no value changes.
func mysqlDSN(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("repository: mysql URL: %w", err)
	}
	cfg := mysqldriver.NewConfig()
	cfg.User = u.User.Username()
	cfg.Passwd, _ = u.User.Password()
	cfg.Net = "tcp"
	cfg.Addr = u.Host
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.ClientFoundRows = true
	cfg.Params = map[string]string{}
	for k, v := range u.Query() {
		cfg.Params[k] = v[0]
	}
	if _, ok := cfg.Params["time_zone"]; !ok {
		cfg.Params["time_zone"] = "'+00:00'"
	}
	return cfg.FormatDSN(), nil
}

func (s *Store) gormConfig() *gorm.Config {
	return &gorm.Config{
		SkipDefaultTransaction: true,
		PrepareStmt:            false,
		Logger:                 sqlRecorder{on: s.cfg.OnSQL},
		NowFunc:                func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
	}
}

// openGorm opens a dialector with the store's settings and the dialect fixes every statement
// depends on.
func (s *Store) openGorm(d gorm.Dialector) (*gorm.DB, error) {
	db, err := gorm.Open(d, s.gormConfig())
	if err != nil {
		return nil, err
	}
	if s.dialect == migrations.Oracle {
		// Oracle reports unquoted column names in upper case; the records name them in lower
		// case. godoes' own namer replaces the configured one during Open, so set it after.
		db.Config.NamingStrategy = lowerColumns{db.Config.NamingStrategy}
	}
	return db, nil
}

// lowerColumns maps result column names to the records' lower-case column names.
type lowerColumns struct{ schema.Namer }

func (n lowerColumns) ColumnName(_, column string) string { return strings.ToLower(column) }

func (s *Store) connect(ctx context.Context, t Target) error {
	var err error
	switch t.Dialect {
	case migrations.SQLite:
		return s.connectSQLite(ctx, t.DSN)
	case migrations.Postgres:
		var conn *sql.DB
		if conn, err = openPostgres(t.DSN); err == nil {
			s.write, err = s.openGorm(postgres.New(postgres.Config{Conn: conn}))
		}
	case migrations.MySQL:
		s.write, err = s.openGorm(mysql.Open(t.DSN))
	case migrations.SQLServer:
		s.write, err = s.openGorm(sqlserver.Open(t.DSN))
	case migrations.Oracle:
		s.write, err = s.openGorm(oracle.Open(t.DSN))
	}
	if err != nil {
		return fmt.Errorf("repository: connect %s: %w", t.Dialect, err)
	}
	db, err := s.write.DB()
	if err != nil {
		return err
	}
	if t.Dialect == migrations.Oracle {
		// go-ora binds time.Time as TIMESTAMP WITH TIME ZONE and sets the session zone to the
		// host's offset; the columns are UTC TIMESTAMPs, so pin the session to UTC.
		if _, err := oracle.AddSessionParams(db, map[string]string{"TIME_ZONE": "+00:00"}); err != nil {
			return fmt.Errorf("repository: oracle session time zone: %w", err)
		}
	}
	// Every open connection may stay idle: database/sql keeps only 2 by default, so with more
	// concurrent requests than that each returned connection was closed and the next request
	// opened a new one (a PostgreSQL backend started, its statements prepared again): over a
	// thousand sessions for one 8-client stress run (issue 27). Idle ones still close after
	// five minutes.
	db.SetMaxOpenConns(s.cfg.ReadConnections + 8)
	db.SetMaxIdleConns(s.cfg.ReadConnections + 8)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s.pools = append(s.pools, db)
	s.read = s.write
	if err := db.PingContext(ctx); err != nil {
		return err
	}
	if t.Dialect == migrations.Postgres {
		var version int
		if err := db.QueryRowContext(ctx, "SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
			return fmt.Errorf("repository: postgres version: %w", err)
		}
		return checkPostgresVersion(version)
	}
	return nil
}

// minPostgresVersion is the oldest PostgreSQL the store runs on: the search probe's bounded
// sample reads a page range (a TID Range Scan, PostgreSQL 14), which an older server would
// read as a scan of the whole table.
const minPostgresVersion = 140000

// checkPostgresVersion refuses a server older than minPostgresVersion (server_version_num).
func checkPostgresVersion(num int) error {
	if num < minPostgresVersion {
		return fmt.Errorf("repository: PostgreSQL 14 or later is required, this server is %d.%d", num/10000, num%10000)
	}
	return nil
}

// sqliteRole is what a connection to the SQLite file is for.
type sqliteRole int

const (
	// sqliteWriter begins its transactions IMMEDIATE, taking the write lock before reading.
	sqliteWriter sqliteRole = iota
	// sqliteReader only reads.
	sqliteReader
	// sqliteTool is migrations and tools (OpenSQL): the driver's deferred transactions, so
	// `web migrate status` never takes the write lock from a running server.
	sqliteTool
)

// sqliteDSN is the one place the SQLite connection settings are written, for the store's
// pools and for migrations and tools: WAL, foreign keys on, cfg's busy timeout and synchronous
// mode, and the transaction mode of the role.
func sqliteDSN(path string, cfg Config, role sqliteRole) string {
	dsn := fmt.Sprintf("file:%s?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=%d&_synchronous=%s",
		path, cfg.BusyTimeout.Milliseconds(), url.QueryEscape(cfg.Synchronous))
	switch role {
	case sqliteWriter:
		return dsn + "&_txlock=immediate"
	case sqliteReader:
		return dsn + "&_txlock=deferred&_query_only=on"
	}
	return dsn
}

// connectSQLite opens one writer connection and a pool of readers on the same WAL file.
// Writers queue for the single connection in Go (database/sql's pool) instead of spinning in
// SQLite's busy handler; their transactions begin IMMEDIATE so the write lock is taken before
// anything is read.
func (s *Store) connectSQLite(ctx context.Context, path string) error {
	if err := requireFTS5(ctx); err != nil {
		return err
	}
	if err := createSQLiteFile(path); err != nil {
		return err
	}
	var err error
	if s.write, err = s.openGorm(sqlite.Open(sqliteDSN(path, s.cfg, sqliteWriter))); err != nil {
		return fmt.Errorf("repository: open sqlite: %w", err)
	}
	w, err := s.write.DB()
	if err != nil {
		return err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	s.pools = append(s.pools, w)
	if err := s.checkSQLite(ctx, w); err != nil {
		return err
	}
	if s.read, err = s.openGorm(sqlite.Open(sqliteDSN(path, s.cfg, sqliteReader))); err != nil {
		return fmt.Errorf("repository: open sqlite readers: %w", err)
	}
	r, err := s.read.DB()
	if err != nil {
		return err
	}
	r.SetMaxOpenConns(s.cfg.ReadConnections)
	r.SetMaxIdleConns(s.cfg.ReadConnections)
	s.pools = append(s.pools, r)
	return r.PingContext(ctx)
}

// checkSQLite verifies that the pragmas the store depends on took effect.
func (s *Store) checkSQLite(ctx context.Context, db *sql.DB) error {
	var mode string
	var fk, sync int
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("repository: sqlite: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return err
	}
	if err := db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("repository: sqlite journal mode is %q, want wal (is the file on a network filesystem?)", mode)
	}
	if fk != 1 {
		return errors.New("repository: sqlite foreign keys are off")
	}
	return nil
}

// nowSQL is the query that reads the database clock in UTC.
func (s *Store) nowSQL() string {
	switch s.dialect {
	case migrations.SQLite:
		return "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')"
	case migrations.Postgres:
		return "SELECT clock_timestamp()"
	case migrations.MySQL:
		return "SELECT UTC_TIMESTAMP(6)"
	case migrations.SQLServer:
		return "SELECT SYSUTCDATETIME()"
	default:
		return "SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL"
	}
}

// dbNow reads the database clock on tx, truncated to microseconds, in UTC.
func (s *Store) dbNow(tx *gorm.DB) (time.Time, error) {
	var now time.Time
	if s.dialect == migrations.SQLite {
		var text string
		if err := tx.Raw(s.nowSQL()).Row().Scan(&text); err != nil {
			return time.Time{}, translate(err)
		}
		parsed, err := time.ParseInLocation("2006-01-02 15:04:05.000", text, time.UTC)
		if err != nil {
			return time.Time{}, fmt.Errorf("repository: sqlite clock %q: %w", text, err)
		}
		now = parsed
	} else if err := tx.Raw(s.nowSQL()).Row().Scan(&now); err != nil {
		return time.Time{}, translate(err)
	}
	now = now.UTC().Truncate(time.Microsecond)
	if s.cfg.Clock != nil {
		now = s.cfg.Clock(now).UTC().Truncate(time.Microsecond)
	}
	return now, nil
}

// Internal error kinds that translate() produces.
var (
	errDuplicate = errors.New("repository: duplicate key")
	errRetry     = errors.New("repository: transaction must be retried")
)

// connectionLost reports whether err says the database could not be reached or the connection
// broke, rather than that the database refused the statement. A cancelled or expired context
// is the caller's, not the database's.
func connectionLost(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var connect *pgconn.ConnectError
	var netErr net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysqldriver.ErrInvalidConn) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &connect) || errors.As(err, &netErr)
}

// translate maps driver errors to the store's error kinds, once, here.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, gorm.ErrRecordNotFound) || errors.Is(err, sql.ErrNoRows) {
		return errNoRows
	}
	if connectionLost(err) {
		// The server is down or the network to it dropped: the transaction did not commit (a
		// server rolls back what a lost connection left open), so the caller may try again.
		return fmt.Errorf("%w: the database connection failed", errBusy)
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch {
		case se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked:
			return fmt.Errorf("%w: %v", errBusy, err)
		case se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey:
			return fmt.Errorf("%w: %v", errDuplicate, err)
		}
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return fmt.Errorf("%w: %s", errDuplicate, pe.ConstraintName)
		case "40001", "40P01":
			return fmt.Errorf("%w: %s", errRetry, pe.Code)
		case "55P03", "57014":
			return fmt.Errorf("%w: %s", errBusy, pe.Code)
		}
		return err
	}
	var me *mysqldriver.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1062:
			return fmt.Errorf("%w: %d", errDuplicate, me.Number)
		case 1213:
			return fmt.Errorf("%w: %d", errRetry, me.Number)
		case 1205:
			return fmt.Errorf("%w: %d", errBusy, me.Number)
		}
		return err
	}
	var ms mssql.Error
	if errors.As(err, &ms) {
		switch ms.Number {
		case 2627, 2601:
			return fmt.Errorf("%w: %d", errDuplicate, ms.Number)
		case 1205:
			return fmt.Errorf("%w: %d", errRetry, ms.Number)
		case 1222:
			return fmt.Errorf("%w: %d", errBusy, ms.Number)
		}
		return err
	}
	if msg := err.Error(); strings.Contains(msg, "ORA-00001") {
		return fmt.Errorf("%w: ORA-00001", errDuplicate)
	} else if strings.Contains(msg, "ORA-00060") || strings.Contains(msg, "ORA-08177") {
		return fmt.Errorf("%w: oracle", errRetry)
	}
	return err
}

// sqlRecorder is a silent GORM logger that hands every statement to a hook.
type sqlRecorder struct{ on func(string) }

func (r sqlRecorder) LogMode(logger.LogLevel) logger.Interface      { return r }
func (r sqlRecorder) Info(context.Context, string, ...interface{})  {}
func (r sqlRecorder) Warn(context.Context, string, ...interface{})  {}
func (r sqlRecorder) Error(context.Context, string, ...interface{}) {}
func (r sqlRecorder) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	if r.on != nil {
		sql, _ := fc()
		r.on(sql)
	}
}

// requireFTS5 refuses a binary whose SQLite lacks FTS5 (built without the sqlite_fts5 tag)
// before any file is created: the search index (migration 00013) cannot work without it.
func requireFTS5(ctx context.Context) error {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return fmt.Errorf("repository: open sqlite: %w", err)
	}
	defer db.Close()
	return migrations.CheckSQLiteFTS5(ctx, db)
}
