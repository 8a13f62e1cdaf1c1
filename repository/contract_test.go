package repository_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"usertasks/keyring"
	"usertasks/migrations/migrationstest"
	"usertasks/repository"
	"usertasks/repository/storetest"
)

// The contract suite runs on a real SQLite file always, and on PostgreSQL and MariaDB when
// their URLs are set (.ci/databases.sh prints them). Under CI=true a missing provider fails.

func TestContractSQLite(t *testing.T) { storetest.Run(t, sqliteHarness(t)) }

func TestContractPostgres(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.PostgresURLEnv, "PostgreSQL")
	storetest.Run(t, serverHarness(t, "PostgreSQL", migrationstest.PostgresURL))
}

func TestContractMySQL(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.MySQLURLEnv, "MariaDB")
	storetest.Run(t, serverHarness(t, "MariaDB", migrationstest.MySQLURL))
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

// serverHarness creates one database per test with fresh (migrationstest.PostgresURL or
// MySQLURL) on a PostgreSQL or MariaDB server.
func serverHarness(t *testing.T, name string, fresh func(testing.TB) string) storetest.Harness {
	h := storetest.Harness{
		Name: name,
		Open: func(t *testing.T, o storetest.Options) *repository.Store {
			u := fresh(t)
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
	if name == "PostgreSQL" {
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
