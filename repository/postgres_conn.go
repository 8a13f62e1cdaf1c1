package repository

import (
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// postgresSessionDefaults are the session settings every store connection to PostgreSQL starts
// with, unless the database URL sets them itself (a URL query parameter PostgreSQL knows is
// sent as a run-time parameter, e.g. ?jit=on):
//
//   - jit=off: PostgreSQL compiles a plan whose estimated cost passes jit_above_cost to machine
//     code before running it. The list queries over a tenant of a million tasks pass it while
//     reading 50 rows through an index, and the compilation (tens of milliseconds on a busy
//     core) then costs more than the query: the p95 of simple list shapes was 2–10× their
//     median (issue 27). The store runs short statements only, so it never gains from JIT.
//   - plan_cache_mode=force_custom_plan: pgx prepares each statement once per connection and
//     PostgreSQL switches a prepared statement to a generic plan after five executions when
//     that plan looks no costlier on average. A generic plan is chosen without the tenant, the
//     status or the cursor, which decide the index of a list page; a custom plan costs a
//     planning step per execution (a fraction of a millisecond for these statements) and is
//     what an unprepared statement gets anyway.
var postgresSessionDefaults = map[string]string{
	"jit":             "off",
	"plan_cache_mode": "force_custom_plan",
}

// openPostgres opens a pgx connection pool for dsn with the store's session defaults.
func openPostgres(dsn string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("repository: postgres URL: %w", err)
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	for name, value := range postgresSessionDefaults {
		if _, set := cfg.RuntimeParams[name]; !set {
			cfg.RuntimeParams[name] = value
		}
	}
	return stdlib.OpenDB(*cfg), nil
}
