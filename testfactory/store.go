// Package testfactory is the tests' shared fixtures: a migrated store on a fresh database of any
// provider that runs here — SQLite, PostgreSQL, MariaDB, and the document store on
// docstoretest's server (the embedded FerretDB, or the MongoDB of USERTASKS_TEST_MONGODB_URL) —
// tasks created through the real projection path, and the actors that call the service.
// OpenStore and EachStore are the one way a test opens a store; Database and Open open more
// stores on one database (a reopen, a second node). Tests only; production code never imports
// it.
package testfactory

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/docstore"
	"usertasks/docstore/docstoretest"
	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/migrations/migrationstest"
	"usertasks/repository"
	"usertasks/store"
)

// Provider is a store the tests run on: a SQL dialect (its value is the migrations.Dialect), or
// the document store.
type Provider string

// The providers: SQLite and the document store always (the embedded FerretDB starts on first
// use); PostgreSQL and MariaDB when their servers are named (migrationstest skips them
// otherwise, and fails them under CI=true).
const (
	SQLite   = Provider(migrations.SQLite)
	Postgres = Provider(migrations.Postgres)
	MySQL    = Provider(migrations.MySQL)
	Mongo    = Provider("mongodb")
)

// Providers are the stores a store test runs on (EachStore); SQLProviders those of them that
// are SQL dialects, for the tests of what only the SQL store has (statements, pools, dialects).
var (
	Providers    = []Provider{SQLite, Postgres, MySQL, Mongo}
	SQLProviders = []Provider{SQLite, Postgres, MySQL}
)

// Name is the provider's name for test names and messages.
func (p Provider) Name() string {
	switch p {
	case SQLite:
		return "SQLite"
	case Postgres:
		return "PostgreSQL"
	case MySQL:
		return "MariaDB"
	case Mongo:
		return "DocumentStore"
	}
	return string(p)
}

// Dialect is the SQL dialect of a provider of SQLProviders (the document store has none).
func (p Provider) Dialect() migrations.Dialect { return migrations.Dialect(p) }

// StoreOpts tune the store OpenStore opens; the zero value takes the store's defaults.
type StoreOpts struct {
	// Keys seals the protected columns; nil takes Keys().
	Keys               *keyring.Keyring
	Clock              func(dbNow time.Time) time.Time
	OnSQL              func(sql string)
	OpenTasksPerTenant int
	TotalCap           int
	SearchProbe        int
	ShortSearchWindow  int
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

// Database creates a fresh database of provider p, migrates it and returns its URL (what
// USERTASKS_DATABASE_URL takes). A SQLite file lives in the test's temporary directory; a server
// database is dropped when the test ends.
func Database(t testing.TB, p Provider) string {
	t.Helper()
	var u string
	migrate := repository.Migrate
	switch p {
	case SQLite:
		u = "sqlite:" + filepath.Join(t.TempDir(), "usertasks.db")
	case Postgres:
		u = migrationstest.PostgresURL(t)
	case MySQL:
		u = migrationstest.MySQLURL(t)
	case Mongo:
		u, migrate = docstoretest.DatabaseURL(t), docstore.Migrate
	default:
		t.Fatalf("testfactory: no test database for provider %q", p)
	}
	if err := migrate(context.Background(), u); err != nil {
		t.Fatalf("testfactory: migrate %s: %v", p.Name(), err)
	}
	return u
}

// OpenStore opens a store on a fresh, migrated database of provider p, closed when the test
// ends: the one way a test opens a store.
func OpenStore(t testing.TB, p Provider, o *StoreOpts) store.Store {
	t.Helper()
	return Open(t, Database(t, p), o)
}

// EachStore runs fn as a subtest named for each provider in Providers, on a fresh store each.
func EachStore(t *testing.T, o *StoreOpts, fn func(t *testing.T, s store.Store)) {
	t.Helper()
	for _, p := range Providers {
		t.Run(p.Name(), func(t *testing.T) { fn(t, OpenStore(t, p, o)) })
	}
}

// Open opens one more store on the database at url (a second node, or a reopen after a close):
// the document store for a mongodb:// URL, else the SQL store. It is closed when the test ends.
func Open(t testing.TB, url string, o *StoreOpts) store.Store {
	t.Helper()
	if docstore.IsURL(url) {
		return openDocuments(t, url, o)
	}
	return OpenSQL(t, url, o)
}

// openDocuments opens the document store on the database at url. An option it cannot honour
// fails the test: a test that needs one runs on SQLProviders.
func openDocuments(t testing.TB, url string, o *StoreOpts) *docstore.Store {
	t.Helper()
	if o == nil {
		o = &StoreOpts{}
	}
	for _, sqlOnly := range []struct {
		name string
		set  bool
	}{{"OnSQL", o.OnSQL != nil}, {"WriteTimeout", o.WriteTimeout != 0}, {"BusyTimeout", o.BusyTimeout != 0}} {
		if sqlOnly.set {
			t.Fatalf("testfactory: the document store cannot honour StoreOpts.%s (a SQL store's option); run the test on SQLProviders", sqlOnly.name)
		}
	}
	s, err := docstore.Open(context.Background(), docstore.Config{
		URL: url, Keys: keysOf(o), Clock: o.Clock, OpenTasksPerTenant: o.OpenTasksPerTenant, TotalCap: o.TotalCap,
		ShortSearchWindow: o.ShortSearchWindow,
	})
	if err != nil {
		t.Fatalf("testfactory: open the document store: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	remember(s, url)
	return s
}

// OpenSQL opens the SQL store on the database at url, for the tests of what only the SQL store
// has (its statements, pools, dialect); it is closed when the test ends.
func OpenSQL(t testing.TB, url string, o *StoreOpts) *repository.Store {
	t.Helper()
	if o == nil {
		o = &StoreOpts{}
	}
	s, err := repository.Open(context.Background(), repository.Config{
		URL: url, Keys: keysOf(o), Clock: o.Clock, OnSQL: o.OnSQL, OpenTasksPerTenant: o.OpenTasksPerTenant, TotalCap: o.TotalCap,
		SearchProbe: o.SearchProbe, ShortSearchWindow: o.ShortSearchWindow, WriteTimeout: o.WriteTimeout, BusyTimeout: o.BusyTimeout,
	})
	if err != nil {
		t.Fatalf("testfactory: open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	remember(s, url)
	return s
}

// urls are the database URLs of the stores this package opened. They are kept after a store's
// test ends: a parent test may reopen a store its subtest opened (and closed).
var urls sync.Map // store.Store → string

func remember(s store.Store, url string) { urls.Store(s, url) }

// URL is the database URL s was opened on (by Open, OpenStore or OpenSQL), for a test that
// reopens s.
func URL(t testing.TB, s store.Store) string {
	t.Helper()
	u, ok := urls.Load(s)
	if !ok {
		t.Fatalf("testfactory: the %T was not opened by testfactory", s)
	}
	return u.(string)
}

// EachSQL runs fn as a subtest named for each SQL provider, on a fresh SQL store each.
func EachSQL(t *testing.T, o *StoreOpts, fn func(t *testing.T, s *repository.Store)) {
	t.Helper()
	for _, p := range SQLProviders {
		t.Run(p.Name(), func(t *testing.T) { fn(t, OpenSQL(t, Database(t, p), o)) })
	}
}

func keysOf(o *StoreOpts) *keyring.Keyring {
	if o.Keys != nil {
		return o.Keys
	}
	return Keys()
}

// Clock moves a store's database clock forward (StoreOpts.Clock = c.Now); the zero Clock is the
// database's own.
type Clock struct{ offset atomic.Int64 }

// Now is the store's clock: the database's time moved by what Advance added.
func (c *Clock) Now(db time.Time) time.Time { return db.Add(time.Duration(c.offset.Load())) }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }
