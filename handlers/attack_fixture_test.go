package handlers_test

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/auth"
	"usertasks/docstore"
	"usertasks/handlers"
	"usertasks/handlers/handlerstest"
	"usertasks/invitations"
	"usertasks/keyring"
	"usertasks/live"
	"usertasks/metrics"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
	"usertasks/workflow"
)

// attackFixture is everything `web serve` registers — pages, JSON API, runtime protocol, guest
// API and pages, invitations, saved views, the live stream — on one server over a real SQLite
// file (or another provider's store), with the router at hand so the attack tests walk its real route table (a route added
// later is attacked without anyone listing it).
type attackFixture struct {
	*webFixture
	echo   *echo.Echo
	secret []byte
	logs   *handlerstest.SyncBuffer
	// dbURL is the store's database; metricsToken reads /metrics on the server.
	dbURL        string
	metricsToken string
	keySpec      string // the store's encryption keyring, kid:base64key
}

// attackSessionSecret signs the fixture's web sessions.
var attackSessionSecret = strings.Repeat("s", 32)

// attackDevUsers are the people of the pages: managers and a worker in t1, a manager in t2.
var attackDevUsers = []handlers.DevUser{
	{ID: "ann", DisplayName: "Ann Approver", Tenant: "t1", Groups: []string{"finance"}, Permissions: []string{"user-tasks:*"}},
	{ID: "boss", DisplayName: "Bea Boss", Tenant: "t1", Manager: true, Permissions: []string{"user-tasks:*"}},
	{ID: "boss", DisplayName: "Bert Boss", Tenant: "t2", Manager: true, Permissions: []string{"user-tasks:*"}},
}

func newAttackFixture(t *testing.T) *attackFixture {
	t.Helper()
	return newAttackFixtureOn(t, testfactory.SQLite)
}

// newAttackFixtureOn is the fixture on a fresh database of provider p (the document store's
// relay running beside the server as in `web serve`): the attacks where the store matters run
// on every provider (a SQL server's is skipped when its URL is unset, and fails under CI=true).
func newAttackFixtureOn(t *testing.T, p testfactory.Provider) *attackFixture {
	t.Helper()
	keySpec, err := keyring.Generate("attack")
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse(keySpec)
	if err != nil {
		t.Fatal(err)
	}
	dbURL := testfactory.Database(t, p)
	store := testfactory.Open(t, dbURL, &testfactory.StoreOpts{Keys: keys})
	var relay func(ctx context.Context, log *slog.Logger) // what runs beside the server, as in `web serve`
	if ds, ok := store.(*docstore.Store); ok {
		relay = func(ctx context.Context, log *slog.Logger) { ds.RunRelay(ctx, time.Second, log) }
	}
	ctx, cancel := context.WithCancel(context.Background())
	broker := live.NewBroker(store, live.Options{})
	store.NotifyChanges(broker)
	ran := make(chan struct{})
	go func() { _ = broker.Run(ctx); close(ran) }()

	f := &attackFixture{webFixture: &webFixture{store: store, svc: tasks.New(store, tasks.Options{}), now: time.Now()},
		secret: make([]byte, 32), logs: &handlerstest.SyncBuffer{}, dbURL: dbURL, metricsToken: rand.Text(), keySpec: keySpec}
	rand.Read(f.secret)
	m := metrics.New()
	verifier, err := auth.NewVerifier(ctx, auth.Config{HS256Secret: f.secret})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(verifier.Close)
	unsubscribeTokens, err := notify.NewUnsubscribeTokens(keys)
	if err != nil {
		t.Fatal(err)
	}
	f.sessions, err = websession.New(websession.Config{Store: store, Secrets: [][]byte{[]byte(attackSessionSecret)}})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewJSONHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	issuer := invitations.NewIssuer(store, invitations.IssuerOptions{Dispatcher: "dev-mailbox"})
	inbox := tasks.NewInbox(store)
	f.echo = handlers.New(handlers.Deps{
		Store: store, Logger: log, Tasks: f.svc, Auth: verifier, Inbox: inbox, Invitations: issuer,
		Runtime: &handlers.RuntimeDeps{Projector: workflow.NewProjector(store, nil), Finalizer: workflow.NewFinalizer(store)},
		Live:    broker, Watchers: f.svc, Guests: invitations.NewGuests(store), Notifications: store,
		Metrics: &handlers.MetricsDeps{Requests: m, Handler: m.Handler(), Token: f.metricsToken},
		Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, DevUsers: attackDevUsers, Logger: log,
			Dashboard: tasks.NewDashboard(store, 0), Inbox: inbox, Invitations: issuer, Unsubscribe: notify.NewUnsubscriber(unsubscribeTokens, store)},
	})
	relayed := make(chan struct{})
	if relay != nil {
		go func() { relay(ctx, log); close(relayed) }()
	} else {
		close(relayed)
	}
	f.srv = httptest.NewServer(f.echo)
	t.Cleanup(func() {
		cancel() // ends the broker, which ends every stream, so the server can close
		<-ran
		<-relayed
		f.srv.Close()
	})
	return f
}

// token mints a valid bearer token for u.
func (f *attackFixture) token(t *testing.T, u handlerstest.User) string {
	t.Helper()
	return handlerstest.TokenWithSecret(t, f.secret, u)
}

// signInAs signs a new browser in through the dev login as tenant/id.
func (f *attackFixture) signInAs(t *testing.T, tenant, id string) *webBrowser {
	t.Helper()
	b := f.browser(t)
	login := b.get("/login")
	res := b.post("/login/dev", url.Values{"user": {tenant + "/" + id}, "csrf_token": {login.csrf()}})
	if res.status != http.StatusSeeOther {
		t.Fatalf("dev login as %s/%s: %d", tenant, id, res.status)
	}
	return b
}

// task seeds a task of tenant with a form, data, candidates and an invitation definition.
func (f *attackFixture) task(t *testing.T, tenant string, mutate func(*models.Projection)) models.Task {
	t.Helper()
	return testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{
		Tenant: tenant, Title: "Approve invoice", Groups: []string{"finance"}, Assignee: "ann",
		Form: approvalForm, Data: approvalData, CancellationEnabled: true, Projection: mutate,
	})
}

// attackRoutes is the router's route table without echo's catch-alls, sorted as registered.
func (f *attackFixture) routes() []*echo.Route {
	var out []*echo.Route
	for _, r := range f.echo.Routes() {
		if r.Method == echo.RouteNotFound || strings.HasSuffix(r.Name, "glob..func1") {
			continue
		}
		out = append(out, r)
	}
	return out
}

// fill replaces the route's parameters: :id by id, :invitationId by inv, :token by token, and
// the static wildcard by a file name.
func fillRoute(path string, params map[string]string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		switch {
		case strings.HasPrefix(p, ":"):
			v, ok := params[p[1:]]
			if !ok {
				v = "unknown"
			}
			parts[i] = url.PathEscape(v)
		case p == "*":
			parts[i] = "app.css"
		}
	}
	return strings.Join(parts, "/")
}
