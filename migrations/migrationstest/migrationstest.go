// Package migrationstest creates throwaway databases for tests: an empty SQLite file, or a fresh
// database with a random name on the PostgreSQL or MySQL/MariaDB server named by an environment
// variable. Everything it creates is closed and dropped when the test ends.
//
// Server URLs (printed by `bash .ci/databases.sh`):
//
//	USERTASKS_TEST_POSTGRES_URL=postgres://user@host:port/db?sslmode=disable
//	USERTASKS_TEST_MYSQL_URL=mysql://user:password@host:port/db
//
// The user must be allowed to create and drop databases. When a URL is unset the test is skipped
// with a message naming the provider, unless CI=true, where a missing server fails the test.
package migrationstest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "github.com/mattn/go-sqlite3"    // registers the "sqlite3" driver
)

// Environment variables naming the test servers.
const (
	PostgresURLEnv = "USERTASKS_TEST_POSTGRES_URL"
	MySQLURLEnv    = "USERTASKS_TEST_MYSQL_URL"
)

// NewSQLiteFile creates an empty SQLite database file in a fresh temporary directory and returns
// it opened with the "sqlite3" driver (mattn/go-sqlite3; foreign keys on, 5 s busy timeout)
// together with the file's path, for code that opens the file itself with its own settings.
// Never an in-memory database.
func NewSQLiteFile(t testing.TB) (*sql.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "usertasks.db")
	db, err := sql.Open("sqlite3", path+"?_foreign_keys=on&_busy_timeout=5000")
	if err != nil {
		t.Fatalf("migrationstest: open sqlite %s: %v", path, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := db.Ping(); err != nil { // creates the file
		t.Fatalf("migrationstest: open sqlite %s: %v", path, err)
	}
	return db, path
}

// NewPostgres creates a fresh database with a random name on the server of
// USERTASKS_TEST_POSTGRES_URL and returns it opened with the "pgx" driver (pgx v5 stdlib)
// together with its URL (the server URL with the new database name), usable by
// gorm.io/driver/postgres. The database is dropped when the test ends.
func NewPostgres(t testing.TB) (*sql.DB, string) {
	t.Helper()
	dsn := PostgresURL(t)
	db := open(t, "pgx", dsn)
	t.Cleanup(func() { _ = db.Close() })
	return db, dsn
}

// PostgresURL creates a fresh database with a random name on the server of
// USERTASKS_TEST_POSTGRES_URL and returns its postgres:// URL (what USERTASKS_DATABASE_URL
// takes). The database is dropped, with any connection still open to it, when the test ends.
func PostgresURL(t testing.TB) string {
	t.Helper()
	serverURL := ServerURL(t, PostgresURLEnv, "PostgreSQL")
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatalf("migrationstest: %s: %v", PostgresURLEnv, err)
	}
	name := randomName(t)
	admin := open(t, "pgx", serverURL)
	defer admin.Close()
	exec(t, admin, `CREATE DATABASE "`+name+`"`)
	t.Cleanup(func() {
		if err := dropDatabase("pgx", serverURL, `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`); err != nil {
			t.Errorf("migrationstest: drop postgres database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// NewMySQL creates a fresh database (utf8mb4, utf8mb4_bin) with a random name on the server of
// USERTASKS_TEST_MYSQL_URL and returns it opened with the "mysql" driver (go-sql-driver/mysql)
// together with its DSN in that driver's form,
// `user:password@tcp(host:port)/name?multiStatements=true&parseTime=true` (times in UTC); append
// more parameters with "&", e.g. "&clientFoundRows=true" for GORM. The database is dropped when
// the test ends.
func NewMySQL(t testing.TB) (*sql.DB, string) {
	t.Helper()
	serverURL, name := createMySQL(t)
	dsn, err := mysqlDSN(serverURL, name)
	if err != nil {
		t.Fatalf("migrationstest: %s: %v", MySQLURLEnv, err)
	}
	db := open(t, "mysql", dsn)
	t.Cleanup(func() { _ = db.Close() })
	return db, dsn
}

// MySQLURL creates a fresh database (utf8mb4, utf8mb4_bin) with a random name on the server of
// USERTASKS_TEST_MYSQL_URL and returns its mysql:// URL (what USERTASKS_DATABASE_URL takes).
// The database is dropped when the test ends.
func MySQLURL(t testing.TB) string {
	t.Helper()
	serverURL, name := createMySQL(t)
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatalf("migrationstest: %s: %v", MySQLURLEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

// createMySQL creates the database and registers its drop; it returns the server URL and name.
func createMySQL(t testing.TB) (serverURL, name string) {
	t.Helper()
	serverURL = ServerURL(t, MySQLURLEnv, "MySQL")
	adminDSN, err := mysqlDSN(serverURL, "")
	if err != nil {
		t.Fatalf("migrationstest: %s: %v", MySQLURLEnv, err)
	}
	name = randomName(t)
	admin := open(t, "mysql", adminDSN)
	defer admin.Close()
	exec(t, admin, "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
	t.Cleanup(func() {
		if err := dropDatabase("mysql", adminDSN, "DROP DATABASE IF EXISTS `"+name+"`"); err != nil {
			t.Errorf("migrationstest: drop mysql database %s: %v", name, err)
		}
	})
	return serverURL, name
}

// mysqlDSN turns mysql://user:password@host:port/db?param=value into the go-sql-driver form, with
// the database replaced by name when name is not empty. Query parameters are passed on.
func mysqlDSN(rawURL, name string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	if u.Scheme != "mysql" {
		return "", fmt.Errorf("want a mysql:// URL, got scheme %q", u.Scheme)
	}
	cfg := mysql.NewConfig()
	cfg.User = u.User.Username()
	cfg.Passwd, _ = u.User.Password()
	cfg.Net = "tcp"
	cfg.Addr = u.Host
	if u.Port() == "" {
		cfg.Addr = u.Host + ":3306"
	}
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	if name != "" {
		cfg.DBName = name
	}
	cfg.ParseTime = true
	cfg.MultiStatements = true
	for key, values := range u.Query() {
		if cfg.Params == nil {
			cfg.Params = map[string]string{}
		}
		cfg.Params[key] = values[len(values)-1]
	}
	return cfg.FormatDSN(), nil
}

// ServerURL returns the server URL in env, or skips the test with a message naming the
// provider (fails it when CI=true).
func ServerURL(t testing.TB, env, provider string) string {
	t.Helper()
	v := os.Getenv(env)
	if v != "" {
		return v
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("migrationstest: %s is not set and CI=true: the %s provider must run in CI", env, provider)
	}
	t.Skipf("migrationstest: %s is not set; skipping the %s provider", env, provider)
	return ""
}

func open(t testing.TB, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := connect(driver, dsn)
	if err != nil {
		t.Fatalf("migrationstest: %v", err)
	}
	return db
}

func connect(driver, dsn string) (*sql.DB, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", driver, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connect %s: %w", driver, err)
	}
	return db, nil
}

// dropDatabase runs drop on a new administrative connection (the test's own pool is closed first,
// cleanups running last-registered first).
func dropDatabase(driver, adminDSN, drop string) error {
	admin, err := connect(driver, adminDSN)
	if err != nil {
		return err
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = admin.ExecContext(ctx, drop)
	return err
}

func exec(t testing.TB, db *sql.DB, query string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := db.ExecContext(ctx, query); err != nil {
		t.Fatalf("migrationstest: %s: %v", query, err)
	}
}

// randomName returns a database name that is valid unquoted on every server: ut_ and 16 hex digits.
func randomName(t testing.TB) string {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("migrationstest: random name: %v", err)
	}
	return "ut_" + hex.EncodeToString(b)
}
