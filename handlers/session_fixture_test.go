package handlers_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

// sessionFixture is the pages and the JSON API on one server, on a real SQLite file store
// whose clock the test moves (session expiry, idle timeouts and refresh intervals are read
// from the database clock).
type sessionFixture struct {
	*webFixture
	clock *testfactory.Clock
}

// sessionFixtureOpts tune a sessionFixture. A fixture made with on set serves the same
// database (and clock) as on: a second node, or the same node restarted with other settings.
type sessionFixtureOpts struct {
	devUsers []handlers.DevUser
	on       *sessionFixture
	dev      bool      // dev mode: plain cookie names, no Secure flag
	logs     io.Writer // the server's log lines (debug level and up); nil discards them
}

func newSessionFixture(t *testing.T, o sessionFixtureOpts) *sessionFixture {
	t.Helper()
	f := &sessionFixture{webFixture: &webFixture{now: time.Now()}, clock: &testfactory.Clock{}}
	if o.on != nil {
		f.store, f.clock = o.on.store, o.on.clock
	} else {
		f.store = testfactory.OpenStore(t, testfactory.SQLite, &testfactory.StoreOpts{Clock: f.clock.Now})
	}
	if o.devUsers == nil {
		o.devUsers = webDevUsers
	}
	f.svc = tasks.New(f.store, tasks.Options{})
	// Every node of a fixture shares the secret, so a restarted node reads the same cookies.
	f.sessions = websessiontest.NewManager(t, websession.Config{Store: f.store, Secrets: [][]byte{[]byte(strings.Repeat("s", 32))}, Insecure: o.dev})
	if o.logs == nil {
		o.logs = io.Discard
	}
	log := slog.New(slog.NewTextHandler(o.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := handlers.New(handlers.Deps{Store: f.store, Logger: log, Tasks: f.svc, Guests: invitations.NewGuests(f.store),
		Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, DevUsers: o.devUsers, Logger: log}})
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f
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
