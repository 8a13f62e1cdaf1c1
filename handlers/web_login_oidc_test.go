package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/auth"
	"usertasks/handlers"
	"usertasks/oidclogin"
	"usertasks/oidclogin/oidctest"
	"usertasks/tasks"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

func TestLoginOIDC(t *testing.T) {
	idp := oidctest.NewProvider(t)
	idp.SetClaims(map[string]any{"sub": "u-42", "tenant": "acme", "name": "Olga OIDC", "groups": []string{"finance", "ops"},
		"permissions": "user-tasks:view user-tasks:claim user-tasks:supervise", "roles": []string{"user-tasks:manager"}})
	sessions := websessiontest.NewManager(t, websession.Config{Secrets: [][]byte{websession.GenerateSecret()}})
	// The redirect URL names the server, so it listens before its router is built.
	app := httptest.NewUnstartedServer(nil)
	appURL := "http://" + app.Listener.Addr().String()
	login, err := oidclogin.New(context.Background(), oidclogin.Config{
		Issuer: idp.URL(), ClientID: "web-client", ClientSecret: "secret", RedirectURL: appURL + "/login/oidc/callback",
		Mapping: auth.DefaultConfig(),
	})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	app.Config.Handler = handlers.New(handlers.Deps{Logger: log,
		Web: &handlers.WebDeps{Tasks: tasks.New(nil, tasks.Options{}), Sessions: sessions, OIDC: login, Logger: log}})
	app.Start()
	t.Cleanup(app.Close)
	f := &webFixture{srv: app, sessions: sessions}
	b := f.browser(t)

	page := b.get("/login?next=%2Finbox%3Ftab%3Dhistory").wantStatus(http.StatusOK)
	if page.has("dev-users") {
		t.Fatal("dev users listed without dev mode")
	}
	start := b.get(webAttr(page.one("login-oidc"), "href"))
	if start.status != http.StatusFound {
		t.Fatalf("start: %d", start.status)
	}
	callback := idp.Authorize(t, start.location)

	t.Run("WrongState", func(t *testing.T) {
		bad := url.Values{"state": {"forged"}, "code": callback["code"]}
		res := b.get("/login/oidc/callback?" + bad.Encode()).wantStatus(http.StatusUnauthorized)
		res.one("login-error")
	})
	// The failed attempt used up the state cookie; start again.
	start = b.get("/login/oidc?next=%2Finbox%3Ftab%3Dhistory")
	callback = idp.Authorize(t, start.location)
	res := b.get("/login/oidc/callback?" + callback.Encode())
	if res.status != http.StatusSeeOther || res.location != "/inbox?tab=history" {
		t.Fatalf("callback: %d → %q\n%s", res.status, res.location, res.body)
	}
	req := httptest.NewRequest(http.MethodGet, "/api/v1/user-tasks", nil)
	for _, c := range res.cookies {
		req.AddCookie(c)
	}
	a, err := sessions.RequestActor(req)
	if err != nil {
		t.Fatal(err)
	}
	if a.Tenant != "acme" || a.Subject.ID != "u-42" || a.DisplayName != "Olga OIDC" || len(a.Groups) != 2 || !a.Manager || len(a.Permissions) != 3 {
		t.Fatalf("mapped actor %+v", a)
	}
	t.Run("Replay", func(t *testing.T) {
		// The state cookie is gone after use: the same callback cannot sign in again.
		again := f.browser(t).get("/login/oidc/callback?" + callback.Encode())
		again.wantStatus(http.StatusUnauthorized)
	})
	t.Run("NonceMismatch", func(t *testing.T) {
		other := f.browser(t)
		start := other.get("/login/oidc")
		cb := idp.Authorize(t, start.location)
		idp.ForgeNonce(cb.Get("code"), "another")
		other.get("/login/oidc/callback?" + cb.Encode()).wantStatus(http.StatusUnauthorized)
	})
	t.Run("ProviderError", func(t *testing.T) {
		other := f.browser(t)
		start := other.get("/login/oidc")
		u, _ := url.Parse(start.location)
		q := url.Values{"state": {u.Query().Get("state")}, "error": {"access_denied"}}
		other.get("/login/oidc/callback?" + q.Encode()).wantStatus(http.StatusUnauthorized).one("login-error")
	})
}

// TestLoginOIDCRefresh: an OIDC session re-reads the identity through the refresh token at most
// every refresh interval, and ends when the provider no longer answers for it.
func TestLoginOIDCRefresh(t *testing.T) {
	idp := oidctest.NewProvider(t)
	manager := map[string]any{"sub": "u-42", "tenant": "t1", "name": "Olga OIDC",
		"permissions": "user-tasks:* user-tasks:supervise", "roles": []string{"user-tasks:manager"}}
	idp.SetClaims(manager)
	f := newSessionFixture(t, sessionFixtureOpts{})
	var handler http.Handler
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(app.Close)
	login, err := oidclogin.New(context.Background(), oidclogin.Config{
		Issuer: idp.URL(), ClientID: "web-client", RedirectURL: app.URL + "/login/oidc/callback", Mapping: auth.DefaultConfig(),
	})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	handler = handlers.New(handlers.Deps{Store: f.store, Logger: log, Tasks: f.svc,
		Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, OIDC: login, Logger: log}})
	f.srv = app

	signIn := func(t *testing.T) *webBrowser {
		t.Helper()
		b := f.browser(t)
		start := b.get("/login/oidc")
		if u, _ := url.Parse(start.location); !strings.Contains(u.Query().Get("scope"), "offline_access") {
			t.Fatalf("the authorization request does not ask for offline_access: %s", start.location)
		}
		if res := b.get("/login/oidc/callback?" + idp.Authorize(t, start.location).Encode()); res.status != http.StatusSeeOther {
			t.Fatalf("callback: %d\n%s", res.status, res.body)
		}
		return b
	}

	t.Run("PermissionsFollowTheProvider", func(t *testing.T) {
		b := signIn(t)
		wantSignedIn(t, b).one("user-manager")
		idp.SetClaims(map[string]any{"sub": "u-42", "tenant": "t1", "name": "Olga OIDC", "permissions": "user-tasks:*"})
		f.clock.Advance(2 * time.Minute)
		wantSignedIn(t, b).one("user-manager") // not yet re-read
		f.clock.Advance(4 * time.Minute)
		if wantSignedIn(t, b).has("user-manager") {
			t.Fatal("still a manager after the provider dropped the role and the refresh interval passed")
		}
		// The provider rotates refresh tokens: the second refresh must use the new one.
		f.clock.Advance(6 * time.Minute)
		wantSignedIn(t, b)
	})
	t.Run("ErrProviderRevoked", func(t *testing.T) {
		idp.SetClaims(manager)
		b := signIn(t)
		idp.RevokeRefreshTokens() // the person was disabled at the provider
		f.clock.Advance(6 * time.Minute)
		wantSignedOut(t, b)
	})
	t.Run("ErrNoRefreshToken", func(t *testing.T) {
		idp.StopIssuingRefreshTokens()
		b := signIn(t)
		wantSignedIn(t, b)
		f.clock.Advance(6 * time.Minute)
		wantSignedOut(t, b)
	})
}
