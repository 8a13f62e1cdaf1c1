package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/handlers"
	"usertasks/keyring"
	"usertasks/repository"
	"usertasks/tasks"
	"usertasks/websession"
)

// dbClock moves the store's database clock forward, so session expiry, idle timeouts and
// refresh intervals (all read from the database clock) can be crossed without waiting.
type dbClock struct{ offset atomic.Int64 }

func (c *dbClock) now(db time.Time) time.Time { return db.Add(time.Duration(c.offset.Load())) }
func (c *dbClock) advance(d time.Duration)    { c.offset.Add(int64(d)) }

// sessionFixture is the pages and the JSON API on one server, on a real SQLite file store
// whose clock the test moves.
type sessionFixture struct {
	*webFixture
	clock *dbClock
}

// sessionFixtureOpts tune a sessionFixture. A fixture made with on set serves the same
// database (and clock) as on: a second node, or the same node restarted with other settings.
type sessionFixtureOpts struct {
	devUsers []handlers.DevUser
	on       *sessionFixture
	dev      bool // dev mode: plain cookie names, no Secure flag
}

var sessionTestKeys = func() *keyring.Keyring {
	spec, _ := keyring.Generate("k")
	keys, _ := keyring.Parse(spec)
	return keys
}()

func newSessionFixture(t *testing.T, o sessionFixtureOpts) *sessionFixture {
	t.Helper()
	ctx := context.Background()
	f := &sessionFixture{webFixture: &webFixture{now: time.Now()}, clock: &dbClock{}}
	if o.on != nil {
		f.store, f.clock = o.on.store, o.on.clock
	} else {
		u := "sqlite:" + filepath.Join(t.TempDir(), "sessions.db")
		if err := repository.Migrate(ctx, u); err != nil {
			t.Fatal(err)
		}
		store, err := repository.Open(ctx, repository.Config{URL: u, Keys: sessionTestKeys, Clock: f.clock.now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		f.store = store
	}
	if o.devUsers == nil {
		o.devUsers = webDevUsers
	}
	f.svc = tasks.New(f.store, tasks.Options{})
	var err error
	f.sessions, err = newTestSessions(f.store, o.dev)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := handlers.New(handlers.Deps{Store: f.store, Logger: log, Tasks: f.svc,
		Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, DevUsers: o.devUsers, Logger: log}})
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f
}

// newTestSessions is the session configuration every node of a fixture shares.
func newTestSessions(store *repository.Store, dev bool) (*websession.Manager, error) {
	return websession.New(websession.Config{Store: store, Secrets: [][]byte{[]byte(strings.Repeat("s", 32))}, Insecure: dev,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// newSessionStore is a migrated store on a fresh SQLite file, for tests that need sessions but
// no fixture.
func newSessionStore(t *testing.T) *repository.Store {
	t.Helper()
	u := "sqlite:" + filepath.Join(t.TempDir(), "sessions.db")
	if err := repository.Migrate(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	store, err := repository.Open(context.Background(), repository.Config{URL: u, Keys: sessionTestKeys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// newSessionManager builds a session manager; without a store in cfg it gets a fresh one.
func newSessionManager(t *testing.T, cfg websession.Config) *websession.Manager {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = newSessionStore(t)
	}
	m, err := websession.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// cookie returns the browser's cookie of that name for the fixture's server, nil if none.
func (b *webBrowser) cookie(name string) *http.Cookie {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.f.srv.URL+"/", nil)
	for _, c := range b.client.Jar.Cookies(req.URL) {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// api sends a JSON API request with the browser's cookies (and header overrides).
func (b *webBrowser) api(method, path, csrf string) *webPage {
	b.t.Helper()
	req, _ := http.NewRequest(method, b.f.srv.URL+path, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	return b.do(req)
}
