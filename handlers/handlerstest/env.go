// Package handlerstest runs the real router over real HTTP for handler tests: a migrated store
// on a SQLite file or a fresh PostgreSQL or MariaDB database, the lifecycle service, the JWT verifier,
// token minting, task seeding through models.Project, and a client that validates every
// request and response against the served OpenAPI document.
package handlerstest

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/attachments"
	"usertasks/auth"
	"usertasks/directory"
	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/metrics"
	"usertasks/migrations"
	"usertasks/repository"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// Options tune the store of an Env.
type Options struct {
	// WriteTimeout and BusyTimeout are the store's (repository.Config); zero takes its defaults.
	WriteTimeout time.Duration
	BusyTimeout  time.Duration
	// TotalCap is the store's list total cap (repository.Config); zero takes models.TotalCap.
	TotalCap int
	// ShortSearchWindow is the store's window of a 1–2 character search (repository.Config);
	// zero takes storekit.ShortSearchWindow.
	ShortSearchWindow int
	// Reconciliation, when set, serves GET /api/v1/reconciliation.
	Reconciliation handlers.ReconciliationReport
	// Directory, when set, is the service's participant directory.
	Directory directory.Directory
	// Metrics, when set, hears requests and commands and is served at /metrics to callers
	// presenting MetricsToken.
	Metrics      *metrics.Metrics
	MetricsToken string
	// Invitations configure the guest invitations API; nil issues through the dev mailbox.
	Invitations *invitations.IssuerOptions
	// Tracer, when set, traces requests, commands and store transactions (a tracing.Tracer).
	Tracer Tracer
	// AttachmentMaxSize is the attachment limit (USERTASKS_ATTACHMENT_MAX_SIZE); zero takes
	// models.DefaultAttachmentMaxSize.
	AttachmentMaxSize int64
	// Proxied connects the store through Env.Proxy, a TCP proxy the test can cut (server
	// databases only).
	Proxied bool
	// Clock, when set, moves the store's database clock (a testfactory.Clock's Now).
	Clock func(dbNow time.Time) time.Time
	// ServerReadTimeout and ServerWriteTimeout are the test server's (http.Server's, as `web
	// serve` sets them from USERTASKS_HTTP_READ_TIMEOUT and _WRITE_TIMEOUT); zero sets none.
	ServerReadTimeout, ServerWriteTimeout time.Duration
}

// Tracer is everything the tracing package's Tracer is to the router, service and store.
type Tracer interface {
	handlers.RequestTracer
	tasks.CommandTracer
	repository.TxTracer
}

// Env is one running server on the real router, store, service and verifier.
type Env struct {
	// Name is the database provider, for messages.
	Name string
	// URL is the server's base URL.
	URL string
	// DatabaseURL is the store's database.
	DatabaseURL string
	Store       *repository.Store
	// Proxy stands between the store and its database server when Options.Proxied is set.
	Proxy *testfactory.TCPProxy
	// Logs holds everything the server logged (JSON lines).
	Logs *SyncBuffer

	secret   []byte
	contract *contract
}

// SQLite starts a server on a store in a fresh SQLite file.
func SQLite(t *testing.T, o *Options) *Env {
	t.Helper()
	return start(t, migrations.SQLite, o)
}

// Postgres starts a server on a store in a fresh database of the PostgreSQL server named by
// USERTASKS_TEST_POSTGRES_URL. Without it the test is skipped, except under CI=true, where it
// fails.
func Postgres(t *testing.T, o *Options) *Env {
	t.Helper()
	return start(t, migrations.Postgres, o)
}

// MySQL starts a server on a store in a fresh database (utf8mb4, binary collation) of the
// MariaDB or MySQL server named by USERTASKS_TEST_MYSQL_URL. Without it the test is skipped,
// except under CI=true, where it fails.
func MySQL(t *testing.T, o *Options) *Env {
	t.Helper()
	return start(t, migrations.MySQL, o)
}

func start(t testing.TB, d migrations.Dialect, o *Options) *Env {
	t.Helper()
	if o == nil {
		o = &Options{}
	}
	ctx := context.Background()
	name, dbURL := testfactory.Provider(d).Name(), testfactory.Database(t, testfactory.Provider(d))
	storeURL := dbURL
	var proxy *testfactory.TCPProxy
	if o.Proxied {
		proxy, storeURL = testfactory.ProxyDatabase(t, dbURL)
	}
	store := testfactory.OpenSQL(t, storeURL, &testfactory.StoreOpts{WriteTimeout: o.WriteTimeout, BusyTimeout: o.BusyTimeout, TotalCap: o.TotalCap,
		ShortSearchWindow: o.ShortSearchWindow, Clock: o.Clock})

	secret := make([]byte, 32)
	rand.Read(secret)
	verifier, err := auth.NewVerifier(ctx, auth.Config{HS256Secret: secret})
	if err != nil {
		t.Fatalf("verifier: %v", err)
	}
	t.Cleanup(verifier.Close)

	logs := &SyncBuffer{}
	svcOpts := tasks.Options{Directory: o.Directory, Tracer: o.Tracer}
	if o.Tracer != nil {
		store.TraceWith(o.Tracer)
	}
	var metricsDeps *handlers.MetricsDeps
	if o.Metrics != nil {
		svcOpts.Commands = o.Metrics
		metricsDeps = &handlers.MetricsDeps{Requests: o.Metrics, Handler: o.Metrics.Handler(), Token: o.MetricsToken}
	}
	issuing := invitations.IssuerOptions{Dispatcher: "dev-mailbox"}
	if o.Invitations != nil {
		issuing = *o.Invitations
	}
	router := handlers.New(handlers.Deps{
		Store:  store,
		Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Tasks:  tasks.New(store, svcOpts),
		Inbox:  tasks.NewInbox(store),
		Auth:   verifier,
		// The guest invitations API (managers issue, list and revoke).
		Invitations: invitations.NewIssuer(store, issuing),
		// The runtime protocol, without a directory or form providers (RuntimeUser may call it).
		Runtime: &handlers.RuntimeDeps{Projector: workflow.NewProjector(store, nil), Finalizer: workflow.NewFinalizer(store)},

		Reconciliation: o.Reconciliation,
		Metrics:        metricsDeps,
		Guests:         invitations.NewGuests(store),
		Tracer:         o.Tracer,
		// In-app notifications and the recording of who calls (issue 28).
		Notifications: store,
		// Files on tasks (issue 29).
		Attachments: attachments.New(store, tasks.New(store, svcOpts), attachments.Options{MaxSize: o.AttachmentMaxSize}),
		// Default deadline policies (issue 30 item 4).
		DeadlinePolicies: tasks.NewDeadlinePolicies(store),
	})
	srv := httptest.NewUnstartedServer(router)
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = o.ServerReadTimeout, o.ServerWriteTimeout
	srv.Start()
	t.Cleanup(srv.Close)

	e := &Env{Name: name, URL: srv.URL, DatabaseURL: dbURL, Store: store, Proxy: proxy, Logs: logs, secret: secret}
	e.contract = loadContract(t, srv.URL)
	return e
}

// Count runs a counting query written with ? placeholders on the store's database.
func (e *Env) Count(t testing.TB, query string, args ...any) int {
	t.Helper()
	db, err := e.Store.DB()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(e.rebind(query), args...).Scan(&n); err != nil {
		t.Fatalf("count %q: %v", query, err)
	}
	return n
}

// Exec runs a statement written with ? placeholders on the store's database (tampering cases).
func (e *Env) Exec(t testing.TB, query string, args ...any) {
	t.Helper()
	db, err := e.Store.DB()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(e.rebind(query), args...); err != nil {
		t.Fatalf("exec %q: %v", query, err)
	}
}

func (e *Env) rebind(q string) string {
	if e.Store.Dialect() != migrations.Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SyncBuffer is a bytes.Buffer safe for the server's concurrent writes.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
