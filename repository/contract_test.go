package repository_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/repository/storetest"
)

// The contract suite runs on a real SQLite file always, and on PostgreSQL and MariaDB when
// their URLs are set (.ci/databases.sh prints them). Under CI=true a missing provider fails.

func TestContractSQLite(t *testing.T) { storetest.Run(t, sqliteHarness(t)) }

func TestContractPostgres(t *testing.T) {
	storetest.Run(t, serverHarness(t, "PostgreSQL", providerURL(t, "USERTASKS_TEST_POSTGRES_URL", "PostgreSQL")))
}

func TestContractMySQL(t *testing.T) {
	storetest.Run(t, serverHarness(t, "MariaDB", providerURL(t, "USERTASKS_TEST_MYSQL_URL", "MariaDB")))
}

func providerURL(t *testing.T, env, name string) string {
	t.Helper()
	u := os.Getenv(env)
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required under CI=true (%s unset)", name, env)
		}
		t.Skipf("skipped provider %s: %s is not set", name, env)
	}
	return u
}

var testKeys = func() *keyring.Keyring {
	spec, err := keyring.Generate("test")
	if err != nil {
		panic(err)
	}
	r, err := keyring.Parse(spec)
	if err != nil {
		panic(err)
	}
	return r
}()

func openStore(t *testing.T, rawURL string, o storetest.Options) *repository.Store {
	t.Helper()
	s, err := repository.Open(context.Background(), repository.Config{
		URL: rawURL, Keys: testKeys, OpenTasksPerTenant: o.OpenTasksPerTenant,
		Clock: o.Clock, OnSQL: o.OnSQL, WriteTimeout: o.WriteTimeout,
	})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// urls remembers which database URL each store was opened on, for Reopen.
var urls = map[*repository.Store]string{}

func sqliteHarness(t *testing.T) storetest.Harness {
	return storetest.Harness{
		Name: "SQLite",
		Open: func(t *testing.T, o storetest.Options) *repository.Store {
			u := "sqlite:" + filepath.Join(t.TempDir(), "usertasks.db")
			if err := repository.Migrate(context.Background(), u); err != nil {
				t.Fatalf("migrate: %v", err)
			}
			s := openStore(t, u, o)
			urls[s] = u
			return s
		},
		Reopen:   reopen,
		Exec:     execSQL,
		QueryInt: queryInt,
		Explain: func(t *testing.T, s *repository.Store, q string, args ...any) string {
			return explain(t, s, "EXPLAIN QUERY PLAN "+q, args...)
		},
	}
}

// serverHarness creates one database per test on a PostgreSQL or MariaDB server.
func serverHarness(t *testing.T, name, serverURL string) storetest.Harness {
	h := storetest.Harness{
		Name: name,
		Open: func(t *testing.T, o storetest.Options) *repository.Store {
			u := freshDatabase(t, serverURL)
			if err := repository.Migrate(context.Background(), u); err != nil {
				t.Fatalf("migrate: %v", err)
			}
			s := openStore(t, u, o)
			urls[s] = u
			return s
		},
		Reopen:   reopen,
		Exec:     execSQL,
		QueryInt: queryInt,
	}
	if strings.HasPrefix(serverURL, "postgres") {
		h.Explain = func(t *testing.T, s *repository.Store, q string, args ...any) string {
			return explain(t, s, "EXPLAIN "+q, args...)
		}
	}
	return h
}

func reopen(t *testing.T, s *repository.Store, o storetest.Options) *repository.Store {
	u := urls[s]
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	n := openStore(t, u, o)
	urls[n] = u
	return n
}

func execSQL(t *testing.T, s *repository.Store, q string, args ...any) {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("exec %q: %v", q, err)
	}
}

func queryInt(t *testing.T, s *repository.Store, q string, args ...any) int {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("query %q: %v", q, err)
	}
	return n
}

func explain(t *testing.T, s *repository.Store, q string, args ...any) string {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("explain %q: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, v := range vals {
			parts = append(parts, fmt.Sprint(asText(v)))
		}
		out = append(out, strings.Join(parts, " "))
	}
	return strings.Join(out, "\n")
}

func asText(v any) any {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

// freshDatabase creates a uniquely named database on the server and drops it after the test.
func freshDatabase(t *testing.T, serverURL string) string {
	t.Helper()
	name := fmt.Sprintf("ut_%d_%s", time.Now().UnixNano()%1e9, strings.ReplaceAll(models.NewID()[24:], "-", ""))
	admin, _, err := repository.OpenSQL(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	create, drop := "CREATE DATABASE "+name, "DROP DATABASE IF EXISTS "+name
	if strings.HasPrefix(serverURL, "mysql") {
		create += " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
	}
	if _, err := admin.Exec(create); err != nil {
		t.Fatalf("create database: %v", err)
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	t.Cleanup(func() {
		a, _, err := repository.OpenSQL(serverURL)
		if err != nil {
			return
		}
		defer a.Close()
		dropWithRetry(a, drop, strings.HasPrefix(serverURL, "postgres"), name)
	})
	return u.String()
}

func dropWithRetry(a *sql.DB, drop string, postgres bool, name string) {
	if postgres {
		a.Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name)
	}
	for i := 0; i < 5; i++ {
		if _, err := a.Exec(drop); err == nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}
