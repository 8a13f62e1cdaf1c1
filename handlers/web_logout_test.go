package handlers_test

import (
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"usertasks/auth"
	"usertasks/handlers"
	"usertasks/handlers/handlerstest"
	"usertasks/oidclogin"
	"usertasks/oidclogin/oidctest"
)

// oidcLogoutFixture is the pages with the OIDC login (and the dev login) against a fake
// provider, on a session fixture's store and clock.
type oidcLogoutFixture struct {
	*sessionFixture
	idp  *oidctest.Provider
	logs *handlerstest.SyncBuffer
}

// newOIDCLogoutFixture discovers idp (arrange its sign-out endpoints first) with the given
// post-logout redirect URL.
func newOIDCLogoutFixture(t *testing.T, idp *oidctest.Provider, postLogout string) *oidcLogoutFixture {
	t.Helper()
	idp.SetClaims(map[string]any{"sub": "u-42", "tenant": "t1", "name": "Olga OIDC", "permissions": "user-tasks:*"})
	f := &oidcLogoutFixture{sessionFixture: newSessionFixture(t, sessionFixtureOpts{}), idp: idp, logs: &handlerstest.SyncBuffer{}}
	var handler http.Handler
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(app.Close)
	login, err := oidclogin.New(context.Background(), oidclogin.Config{
		Issuer: idp.URL(), ClientID: "web-client", ClientSecret: "s3cret:&=", RedirectURL: app.URL + "/login/oidc/callback",
		PostLogoutRedirectURL: postLogout, Mapping: auth.DefaultConfig(),
	})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(f.logs, nil))
	handler = handlers.New(handlers.Deps{Store: f.store, Logger: log, Tasks: f.svc,
		Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, OIDC: login, DevUsers: webDevUsers, Logger: log}})
	f.srv = app
	return f
}

// signInOIDC signs a new browser in through the provider.
func (f *oidcLogoutFixture) signInOIDC(t *testing.T) (*webBrowser, *webPage) {
	t.Helper()
	b := f.browser(t)
	start := b.get("/login/oidc")
	if res := b.get("/login/oidc/callback?" + f.idp.Authorize(t, start.location).Encode()); res.status != http.StatusSeeOther {
		t.Fatalf("callback: %d\n%s", res.status, res.body)
	}
	return b, wantSignedIn(t, b)
}

// wantEndSession checks a sign-out's answer: 303 to the provider's end-session endpoint (its
// own parameter kept) with the ID token of the sign-in as the hint, the post-logout redirect
// URL and a state; it returns the query.
func wantEndSession(t *testing.T, f *oidcLogoutFixture, res *webPage, postLogout string) url.Values {
	t.Helper()
	if res.status != http.StatusSeeOther || !strings.HasPrefix(res.location, f.idp.URL()+"/end_session?") {
		t.Fatalf("sign-out: %d → %q, want 303 to the provider's end-session endpoint", res.status, res.location)
	}
	if cc := res.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q on the redirect holding the ID token, want no-store", cc)
	}
	u, err := url.Parse(res.location)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("tenant") != "acme" {
		t.Errorf("the endpoint's own parameter was dropped: %s", res.location)
	}
	parts := strings.Split(q.Get("id_token_hint"), ".")
	if len(parts) != 3 {
		t.Fatalf("id_token_hint %q is not a JWT", q.Get("id_token_hint"))
	}
	if payload, _ := base64.RawURLEncoding.DecodeString(parts[1]); !strings.Contains(string(payload), `"sub":"u-42"`) {
		t.Errorf("id_token_hint names %s, want the signed-in u-42", payload)
	}
	if q.Get("post_logout_redirect_uri") != postLogout || len(q.Get("state")) != 43 || q.Has("client_id") {
		t.Errorf("end-session query %v: want post_logout_redirect_uri %q, a 43-character state, no client_id beside the hint", q, postLogout)
	}
	return q
}

// wantRevoked checks that the provider was asked to revoke exactly n refresh tokens, with the
// client's credentials in HTTP Basic, and no longer redeems them; it returns them.
func wantRevoked(t *testing.T, idp *oidctest.Provider, n int) []string {
	t.Helper()
	revs := idp.Revocations()
	if len(revs) != n {
		t.Fatalf("%d revocations, want %d: %+v", len(revs), n, revs)
	}
	var tokens []string
	for _, r := range revs {
		token := r.Form.Get("token")
		if !strings.HasPrefix(token, "rt-") || r.Form.Get("token_type_hint") != "refresh_token" || idp.Redeemable(token) {
			t.Errorf("revocation %v: want a refresh token the provider issued, hinted refresh_token, and refused from now on", r.Form)
		}
		if !r.BasicAuth || r.User != "web-client" || r.Password != url.QueryEscape("s3cret:&=") || r.Form.Has("client_secret") {
			t.Errorf("revocation authenticated as %q/%q (basic %v), form %v: want the client in HTTP Basic only", r.User, r.Password, r.BasicAuth, r.Form)
		}
		tokens = append(tokens, token)
	}
	return tokens
}

func TestLogoutOIDC(t *testing.T) {
	idp := oidctest.NewProvider(t)
	const postLogout = "https://tasks.example/login?from=idp&x=%3Cscript%3E%22%20%26y%3D1&name=J%C3%BCrgen%20O%27Hara"
	f := newOIDCLogoutFixture(t, idp, postLogout)

	t.Run("RevokedAndEndedAtTheProvider", func(t *testing.T) {
		b, inbox := f.signInOIDC(t)
		if csp := inbox.header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' "+idp.URL()+";") {
			t.Errorf("CSP %q: the sign-out form may not lead to the provider", csp)
		}
		copied := b.copyCookies(t)
		res := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
		q := wantEndSession(t, f, res, postLogout)
		wantRevoked(t, idp, 1)
		wantSignedOut(t, b)
		wantSignedOut(t, copied)

		// The provider ends its session and sends the browser back with the state.
		atProvider := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		r, err := atProvider.Get(res.location)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if got := idp.EndSessions(); len(got) != 1 || got[0].Get("id_token_hint") != q.Get("id_token_hint") {
			t.Fatalf("the provider's end-session endpoint saw %v", got)
		}
		back, _ := url.Parse(r.Header.Get("Location"))
		if back == nil || !strings.HasPrefix(back.String(), "https://tasks.example/login?") || back.Query().Get("state") != q.Get("state") ||
			back.Query().Get("name") != "Jürgen O'Hara" || back.Query().Get("x") != `<script>" &y=1` {
			t.Errorf("the provider sent the browser back to %q, want the post-logout URL with the state", r.Header.Get("Location"))
		}
		webWantContains(t, "flash", b.get("/login").text("flash"), "signed out")
	})
	t.Run("HostileRedirectValuesStayInTheirParameter", func(t *testing.T) {
		b, inbox := f.signInOIDC(t)
		res := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
		for _, raw := range []string{"<", ">", `"`, " ", "'", "\n"} {
			if strings.Contains(res.location, raw) {
				t.Errorf("Location %q holds %q unescaped", res.location, raw)
			}
		}
		u, _ := url.Parse(res.location)
		if q := u.Query(); len(q) != 4 || q.Has("x") || q.Has("y") || q.Has("from") || q.Has("name") {
			t.Errorf("the post-logout URL's parameters leaked into the end-session query: %v", q)
		}
	})
	t.Run("SignOutEverywhere", func(t *testing.T) {
		before := len(idp.Revocations())
		laptop, inbox := f.signInOIDC(t)
		phone, _ := f.signInOIDC(t)
		res := laptop.submit(inbox, "sign-out-everywhere-form", nil, inbox.one("sign-out-everywhere"))
		wantEndSession(t, f, res, postLogout)
		revs := idp.Revocations()[before:]
		if len(revs) != 2 || revs[0].Form.Get("token") == revs[1].Form.Get("token") {
			t.Fatalf("revocations %+v, want the laptop's and the phone's refresh tokens", revs)
		}
		for _, r := range revs {
			if idp.Redeemable(r.Form.Get("token")) {
				t.Errorf("refresh token still redeemable after sign out everywhere")
			}
		}
		wantSignedOut(t, laptop)
		wantSignedOut(t, phone)
	})
	t.Run("RevocationFailureDoesNotStopTheSignOut", func(t *testing.T) {
		idp.FailRevocations(http.StatusBadRequest)
		defer idp.FailRevocations(0)
		before := len(idp.Revocations())
		b, inbox := f.signInOIDC(t)
		res := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
		wantEndSession(t, f, res, postLogout)
		revs := idp.Revocations()[before:]
		if len(revs) != 1 {
			t.Fatalf("%d revocations, want 1", len(revs))
		}
		wantSignedOut(t, b)
		logs := f.logs.String()
		webWantContains(t, "log", logs, "revoking refresh tokens at the identity provider failed")
		token := revs[0].Form.Get("token")
		if strings.Contains(logs, token) || strings.Contains(logs, url.QueryEscape(token)) {
			t.Errorf("the log holds the refresh token:\n%s", logs)
		}
	})
	t.Run("DevSessionEndsHere", func(t *testing.T) {
		before := len(idp.Revocations())
		b := f.signIn(t, "ann")
		inbox := wantSignedIn(t, b)
		res := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
		if res.status != http.StatusSeeOther || res.location != "/login" {
			t.Fatalf("dev sign-out: %d → %q, want 303 → /login", res.status, res.location)
		}
		if len(idp.Revocations()) != before {
			t.Error("a dev session's sign-out reached the provider")
		}
	})
	t.Run("ErrCSRF", func(t *testing.T) {
		before := len(idp.Revocations())
		b, _ := f.signInOIDC(t)
		if res := b.post("/logout", url.Values{"csrf_token": {"forged"}}); res.status != http.StatusForbidden {
			t.Fatalf("sign-out with a forged token: %d, want 403", res.status)
		}
		if res := b.post("/logout", nil); res.status != http.StatusForbidden {
			t.Fatalf("sign-out without a token: %d, want 403", res.status)
		}
		wantSignedIn(t, b)
		if len(idp.Revocations()) != before {
			t.Error("a refused sign-out revoked the refresh token")
		}
	})
	t.Run("GETDoesNotSignOut", func(t *testing.T) {
		b, _ := f.signInOIDC(t)
		for _, path := range []string{"/logout", "/logout/everywhere"} {
			if res := b.get(path); res.status != http.StatusMethodNotAllowed {
				t.Errorf("GET %s: %d, want 405", path, res.status)
			}
		}
		wantSignedIn(t, b)
	})
}

func TestLogoutOIDCProviderWithoutLogout(t *testing.T) {
	idp := oidctest.NewProvider(t)
	idp.WithoutLogout()
	f := newOIDCLogoutFixture(t, idp, "https://tasks.example/login")
	b, inbox := f.signInOIDC(t)
	if csp := inbox.header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self';") {
		t.Errorf("CSP %q: forms may lead elsewhere though the provider has no end-session endpoint", csp)
	}
	res := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
	if res.status != http.StatusSeeOther || res.location != "/login" {
		t.Fatalf("sign-out: %d → %q, want 303 → /login", res.status, res.location)
	}
	if len(idp.Revocations()) != 0 || len(idp.EndSessions()) != 0 {
		t.Error("the provider was asked though it advertises no sign-out endpoints")
	}
	wantSignedOut(t, b)
}
