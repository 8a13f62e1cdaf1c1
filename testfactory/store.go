// Package testfactory is the tests' shared fixtures: a migrated store on a fresh database of any
// dialect that runs here, tasks created through the real projection path, and the actors that
// call the service. Tests only; production code never imports it.
package testfactory

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/migrations/migrationstest"
	"usertasks/repository"
)

// Dialects are the dialects a store runs on in tests: SQLite always, PostgreSQL and MariaDB when
// their servers are named (migrationstest skips them otherwise, and fails them under CI=true).
var Dialects = []migrations.Dialect{migrations.SQLite, migrations.Postgres, migrations.MySQL}

// Name is the provider's name for test names and messages.
func Name(d migrations.Dialect) string {
	switch d {
	case migrations.SQLite:
		return "SQLite"
	case migrations.Postgres:
		return "PostgreSQL"
	case migrations.MySQL:
		return "MariaDB"
	}
	return string(d)
}

// StoreOpts tune the store OpenStore opens; the zero value takes the store's defaults.
type StoreOpts struct {
	// Keys seals the protected columns; nil takes Keys().
	Keys               *keyring.Keyring
	Clock              func(dbNow time.Time) time.Time
	OnSQL              func(sql string)
	OpenTasksPerTenant int
	TotalCap           int
	WriteTimeout       time.Duration
	BusyTimeout        time.Duration
}

// Keys is one keyring shared by every test store of the process.
var Keys = sync.OnceValue(func() *keyring.Keyring {
	spec, err := keyring.Generate("test")
	if err != nil {
		panic(err)
	}
	r, err := keyring.Parse(spec)
	if err != nil {
		panic(err)
	}
	return r
})

// Database creates a fresh database of dialect d, migrates it and returns its URL (what
// USERTASKS_DATABASE_URL takes). A SQLite file lives in the test's temporary directory; a server
// database is dropped when the test ends.
func Database(t testing.TB, d migrations.Dialect) string {
	t.Helper()
	var u string
	switch d {
	case migrations.SQLite:
		u = "sqlite:" + filepath.Join(t.TempDir(), "usertasks.db")
	case migrations.Postgres:
		u = migrationstest.PostgresURL(t)
	case migrations.MySQL:
		u = migrationstest.MySQLURL(t)
	default:
		t.Fatalf("testfactory: no test database for dialect %q", d)
	}
	if err := repository.Migrate(context.Background(), u); err != nil {
		t.Fatalf("testfactory: migrate %s: %v", Name(d), err)
	}
	return u
}

// OpenStore opens a store on a fresh, migrated database of dialect d, closed when the test ends.
func OpenStore(t testing.TB, d migrations.Dialect, o *StoreOpts) *repository.Store {
	t.Helper()
	return Open(t, Database(t, d), o)
}

// Open opens one more store on the database at url (a second node, or a reopen after a close);
// it is closed when the test ends.
func Open(t testing.TB, url string, o *StoreOpts) *repository.Store {
	t.Helper()
	if o == nil {
		o = &StoreOpts{}
	}
	keys := o.Keys
	if keys == nil {
		keys = Keys()
	}
	s, err := repository.Open(context.Background(), repository.Config{
		URL: url, Keys: keys, Clock: o.Clock, OnSQL: o.OnSQL, OpenTasksPerTenant: o.OpenTasksPerTenant, TotalCap: o.TotalCap,
		WriteTimeout: o.WriteTimeout, BusyTimeout: o.BusyTimeout,
	})
	if err != nil {
		t.Fatalf("testfactory: open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// EachStore runs fn as a subtest named for each dialect in Dialects, on a fresh store each.
func EachStore(t *testing.T, o *StoreOpts, fn func(t *testing.T, s *repository.Store)) {
	t.Helper()
	for _, d := range Dialects {
		t.Run(Name(d), func(t *testing.T) { fn(t, OpenStore(t, d, o)) })
	}
}

// Clock moves a store's database clock forward (StoreOpts.Clock = c.Now); the zero Clock is the
// database's own.
type Clock struct{ offset atomic.Int64 }

// Now is the store's clock: the database's time moved by what Advance added.
func (c *Clock) Now(db time.Time) time.Time { return db.Add(time.Duration(c.offset.Load())) }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }
