package storetest_test

import (
	"testing"

	"usertasks/migrations"
	"usertasks/migrations/migrationstest"
	"usertasks/storetest"
	"usertasks/storetest/docharness"
	"usertasks/storetest/sqlharness"
)

// The contract suite runs on a real SQLite file always, on PostgreSQL and MariaDB when their
// URLs are set (.ci/databases.sh prints them; under CI=true a missing provider fails), and on
// the document store: the embedded FerretDB, or the MongoDB at USERTASKS_TEST_MONGODB_URL. Each
// harness opens store.Store through testfactory and implements the suite's storage hooks on
// its storage: SQL (storetest/sqlharness), raw BSON (storetest/docharness).

func TestContractSQLite(t *testing.T) { storetest.Run(t, sqlharness.Harness(migrations.SQLite)) }

func TestContractPostgres(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.PostgresURLEnv, "PostgreSQL")
	storetest.Run(t, sqlharness.Harness(migrations.Postgres))
}

func TestContractMySQL(t *testing.T) {
	migrationstest.ServerURL(t, migrationstest.MySQLURLEnv, "MariaDB")
	storetest.Run(t, sqlharness.Harness(migrations.MySQL))
}

// TestContractMongo: the store has the task aggregate and every group the suite asserts; the
// cases that need an option or a storage hook the document store cannot honour are reported
// "not applicable on MongoDB: <case> — <reason>".
func TestContractMongo(t *testing.T) { storetest.Run(t, docharness.Harness()) }
