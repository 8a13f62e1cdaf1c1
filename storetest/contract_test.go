package storetest_test

import (
	"testing"

	"usertasks/migrations"
	"usertasks/migrations/migrationstest"
	"usertasks/storetest"
	"usertasks/storetest/sqlharness"
)

// The contract suite runs on a real SQLite file always, and on PostgreSQL and MariaDB when
// their URLs are set (.ci/databases.sh prints them). Under CI=true a missing provider fails.
// The SQL harness (storetest/sqlharness) opens store.Store and implements the suite's
// storage hooks with SQL.

func TestContractSQLite(t *testing.T) { storetest.Run(t, sqlharness.Harness(migrations.SQLite)) }

func TestContractPostgres(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.PostgresURLEnv, "PostgreSQL")
	storetest.Run(t, sqlharness.Harness(migrations.Postgres))
}

func TestContractMySQL(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.MySQLURLEnv, "MariaDB")
	storetest.Run(t, sqlharness.Harness(migrations.MySQL))
}
