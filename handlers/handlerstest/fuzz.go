package handlerstest

import (
	"testing"

	"usertasks/migrations"
)

// FuzzSQLite starts a server on a store in a fresh SQLite file for a fuzz target: one per
// target (per fuzzing worker), shared by all its inputs.
func FuzzSQLite(f *testing.F, o *Options) *Env {
	f.Helper()
	return start(f, migrations.SQLite, o)
}
