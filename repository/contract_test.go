package repository_test

import (
	"fmt"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/migrations/migrationstest"
	"usertasks/repository"
	"usertasks/repository/storetest"
	"usertasks/testfactory"
)

// The contract suite runs on a real SQLite file always, and on PostgreSQL and MariaDB when
// their URLs are set (.ci/databases.sh prints them). Under CI=true a missing provider fails.

func TestContractSQLite(t *testing.T) { storetest.Run(t, harness(migrations.SQLite)) }

func TestContractPostgres(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.PostgresURLEnv, "PostgreSQL")
	storetest.Run(t, harness(migrations.Postgres))
}

func TestContractMySQL(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.MySQLURLEnv, "MariaDB")
	storetest.Run(t, harness(migrations.MySQL))
}

func storeOpts(o storetest.Options) *testfactory.StoreOpts {
	return &testfactory.StoreOpts{OpenTasksPerTenant: o.OpenTasksPerTenant, TotalCap: o.TotalCap, Clock: o.Clock, OnSQL: o.OnSQL, WriteTimeout: o.WriteTimeout, Keys: o.Keys}
}

// urls remembers which database URL each store was opened on, for Reopen.
var urls = map[*repository.Store]string{}

// harness opens each case's store on a fresh database of dialect d (testfactory.Database).
func harness(d migrations.Dialect) storetest.Harness {
	h := storetest.Harness{
		Name: testfactory.Name(d),
		Open: func(t *testing.T, o storetest.Options) *repository.Store {
			u := testfactory.Database(t, d)
			s := testfactory.Open(t, u, storeOpts(o))
			urls[s] = u
			return s
		},
		Reopen:   reopen,
		Exec:     execSQL,
		QueryInt: queryInt,
	}
	switch d {
	case migrations.SQLite:
		h.Explain = func(t *testing.T, s *repository.Store, q string, args ...any) string {
			return explain(t, s, "EXPLAIN QUERY PLAN "+q, args...)
		}
	case migrations.Postgres, migrations.MySQL:
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
	n := testfactory.Open(t, u, storeOpts(o))
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
