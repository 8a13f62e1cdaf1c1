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
//   - jit=off: PostgreSQL compiles a statement whose estimated cost passes jit_above_cost
//     (100,000) to machine code first, with inlining and optimization past 500,000. The store
//     runs short statements only, so it never gains: forced on a 50-row list page of the scale
//     target the compilation took 57 ms (357 ms with inlining and optimization), and the
//     capped search total there is estimated at 80,000, near the threshold (issue 27).
//
// plan_cache_mode stays auto on purpose: pgx prepares each statement once per connection, and
// a generic plan saves planning each execution. Forcing custom plans (to keep list pages off a
// generic plan chosen without the tenant, status or cursor) made a completion through to
// Completed 1.25–1.3× slower on PostgreSQL (BenchmarkCompletionStages, issue 27): planning a
// statement on user_tasks weighs its many indexes every time. List reads force custom plans
// for their own transaction only (postgres_list_plans.go).
var postgresSessionDefaults = map[string]string{
	"jit": "off",
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
