package handlers_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"

	"usertasks/auth"
	"usertasks/handlers"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/websession"
)

// fakeProvider is a minimal OpenID provider: discovery, JWKS, and a token endpoint that checks
// the PKCE verifier against the challenge of the authorization request.
type fakeProvider struct {
	srv    *httptest.Server
	key    *rsa.PrivateKey
	mu     sync.Mutex
	codes  map[string]fakeGrant // code → what the authorization request carried
	claims map[string]any
	// refresh holds the refresh tokens the provider would redeem; each is good once (rotated).
	refresh map[string]bool
	// noRefresh makes the provider issue no refresh tokens.
	noRefresh bool
}

type fakeGrant struct{ challenge, nonce string }

func newFakeProvider(t *testing.T) *fakeProvider {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &fakeProvider{key: key, codes: map[string]fakeGrant{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": p.srv.URL, "authorization_endpoint": p.srv.URL + "/authorize", "token_endpoint": p.srv.URL + "/token",
			"jwks_uri": p.srv.URL + "/jwks", "id_token_signing_alg_values_supported": []string{"RS256"},
			"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
			"scopes_supported": []string{"openid", "profile", "email", "offline_access"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		pub := p.key.PublicKey
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
			"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
		}}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		p.mu.Lock()
		grant, ok := p.codes[r.PostForm.Get("code")]
		delete(p.codes, r.PostForm.Get("code"))
		if r.PostForm.Get("grant_type") == "refresh_token" {
			// A refresh: the token must be one issued and not used yet; the answer has no nonce.
			ok = p.refresh[r.PostForm.Get("refresh_token")]
			delete(p.refresh, r.PostForm.Get("refresh_token"))
			grant = fakeGrant{}
		}
		claims := p.claims
		refreshToken := ""
		if !p.noRefresh {
			refreshToken = "rt-" + models.NewID()
			p.refresh[refreshToken] = true
		}
		p.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || (r.PostForm.Get("grant_type") != "refresh_token" && base64.RawURLEncoding.EncodeToString(sum[:]) != grant.challenge) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		c := jwt.MapClaims{"iss": p.srv.URL, "aud": "web-client", "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()}
		if grant.nonce != "" {
			c["nonce"] = grant.nonce
		}
		for k, v := range claims {
			c[k] = v
		}
		tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
		tok.Header["kid"] = "k1"
		signed, _ := tok.SignedString(p.key)
		w.Header().Set("Content-Type", "application/json")
		answer := map[string]any{"access_token": "at", "token_type": "Bearer", "expires_in": 3600, "id_token": signed}
		if refreshToken != "" {
			answer["refresh_token"] = refreshToken
		}
		json.NewEncoder(w).Encode(answer)
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// authorize plays the person signing in at the provider: it reads the authorization request
// and returns the callback URL with a fresh code.
func (p *fakeProvider) authorize(t *testing.T, location string) url.Values {
	t.Helper()
	u, err := url.Parse(location)
	if err != nil || !strings.HasPrefix(location, p.srv.URL+"/authorize") {
		t.Fatalf("redirect to %q, want the provider's authorization endpoint", location)
	}
	q := u.Query()
	for _, k := range []string{"state", "nonce", "code_challenge"} {
		if q.Get(k) == "" {
			t.Fatalf("authorization request without %s: %s", k, location)
		}
	}
	if q.Get("code_challenge_method") != "S256" || q.Get("client_id") != "web-client" || !strings.Contains(q.Get("scope"), "openid") {
		t.Fatalf("authorization request %v", q)
	}
	code := "code-" + q.Get("state")[:8]
	p.mu.Lock()
	p.codes[code] = fakeGrant{challenge: q.Get("code_challenge"), nonce: q.Get("nonce")}
	p.mu.Unlock()
	return url.Values{"state": {q.Get("state")}, "code": {code}}
}

func TestLoginOIDC(t *testing.T) {
	idp := newFakeProvider(t)
	idp.claims = map[string]any{"sub": "u-42", "tenant": "acme", "name": "Olga OIDC", "groups": []string{"finance", "ops"},
		"permissions": "user-tasks:view user-tasks:claim user-tasks:supervise", "roles": []string{"user-tasks:manager"}}
	sessions := newSessionManager(t, websession.Config{Secrets: [][]byte{websession.GenerateSecret()}})
	e := echo.New()
	app := httptest.NewServer(e)
	t.Cleanup(app.Close)
	login, err := handlers.NewOIDCLogin(context.Background(), handlers.OIDCConfig{
		Issuer: idp.srv.URL, ClientID: "web-client", ClientSecret: "secret", RedirectURL: app.URL + "/login/oidc/callback",
		Mapping: auth.DefaultConfig(),
	})
	if err != nil {
		t.Fatal(err)
	}
	handlers.RegisterWeb(e, handlers.WebDeps{Tasks: tasks.New(nil, tasks.Options{}), Sessions: sessions, OIDC: login,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
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
	callback := idp.authorize(t, start.location)

	t.Run("WrongState", func(t *testing.T) {
		bad := url.Values{"state": {"forged"}, "code": callback["code"]}
		res := b.get("/login/oidc/callback?" + bad.Encode()).wantStatus(http.StatusUnauthorized)
		res.one("login-error")
	})
	// The failed attempt used up the state cookie; start again.
	start = b.get("/login/oidc?next=%2Finbox%3Ftab%3Dhistory")
	callback = idp.authorize(t, start.location)
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
		cb := idp.authorize(t, start.location)
		idp.mu.Lock()
		g := idp.codes[cb.Get("code")]
		g.nonce = "another"
		idp.codes[cb.Get("code")] = g
		idp.mu.Unlock()
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

// oidcSignIn runs one OIDC sign-in with the given claims and mapping; ok is false when the
// sign-in was refused.
func oidcSignIn(t *testing.T, idp *fakeProvider, mapping auth.Config, claims map[string]any) (models.Actor, bool) {
	t.Helper()
	idp.mu.Lock()
	idp.claims = claims
	idp.mu.Unlock()
	sessions := newSessionManager(t, websession.Config{Secrets: [][]byte{websession.GenerateSecret()}})
	e := echo.New()
	app := httptest.NewServer(e)
	defer app.Close()
	login, err := handlers.NewOIDCLogin(context.Background(), handlers.OIDCConfig{
		Issuer: idp.srv.URL, ClientID: "web-client", RedirectURL: app.URL + "/login/oidc/callback", Mapping: mapping,
	})
	if err != nil {
		t.Fatal(err)
	}
	handlers.RegisterWeb(e, handlers.WebDeps{Tasks: tasks.New(nil, tasks.Options{}), Sessions: sessions, OIDC: login,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	b := (&webFixture{srv: app}).browser(t)
	start := b.get("/login/oidc")
	res := b.get("/login/oidc/callback?" + idp.authorize(t, start.location).Encode())
	if res.status != http.StatusSeeOther {
		return models.Actor{}, false
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for _, c := range res.cookies {
		req.AddCookie(c)
	}
	a, err := sessions.RequestActor(req)
	if err != nil {
		t.Fatal(err)
	}
	return a, true
}

func TestLoginOIDCClaimMapping(t *testing.T) {
	idp := newFakeProvider(t)
	// onPurpose configures a default tenant, as USERTASKS_DEFAULT_TENANT does.
	onPurpose := auth.DefaultConfig()
	onPurpose.DefaultTenant = "default"
	nested := onPurpose
	nested.Claims.Roles = "realm_access.roles"
	nested.Claims.Groups = "grp"
	strict := auth.DefaultConfig()

	t.Run("DefaultsAndNestedClaims", func(t *testing.T) {
		a, ok := oidcSignIn(t, idp, nested, map[string]any{"sub": "u1", "grp": "solo",
			"permissions": []string{"user-tasks:*"}, "realm_access": map[string]any{"roles": []string{"user-tasks:manager"}}})
		if !ok || a.Tenant != "default" || a.Subject.Provider != "default" || len(a.Groups) != 1 || a.Groups[0].ID != "solo" || !a.Manager {
			t.Fatalf("actor %+v (ok %v)", a, ok)
		}
	})
	t.Run("ManagerNeedsSupervise", func(t *testing.T) {
		a, ok := oidcSignIn(t, idp, onPurpose, map[string]any{"sub": "u1", "permissions": []string{"user-tasks:view"}, "roles": "user-tasks:manager"})
		if !ok || a.Manager {
			t.Fatalf("manager without supervise: %+v", a)
		}
	})
	for name, claims := range map[string]map[string]any{
		"NoSubject":        {"tenant": "t1"},
		"GroupsNotStrings": {"sub": "u1", "groups": []any{1, 2}},
		"TenantNotString":  {"sub": "u1", "tenant": 7},
	} {
		t.Run(name, func(t *testing.T) {
			if _, ok := oidcSignIn(t, idp, onPurpose, claims); ok {
				t.Fatal("signed in")
			}
		})
	}
	t.Run("NoTenantWithoutDefault", func(t *testing.T) {
		if _, ok := oidcSignIn(t, idp, strict, map[string]any{"sub": "u1"}); ok {
			t.Fatal("signed in without a tenant claim")
		}
	})
}

// TestLoginOIDCRefresh: an OIDC session re-reads the identity through the refresh token at most
// every refresh interval, and ends when the provider no longer answers for it.
func TestLoginOIDCRefresh(t *testing.T) {
	idp := newFakeProvider(t)
	manager := map[string]any{"sub": "u-42", "tenant": "t1", "name": "Olga OIDC",
		"permissions": "user-tasks:* user-tasks:supervise", "roles": []string{"user-tasks:manager"}}
	idp.claims = manager
	f := newSessionFixture(t, sessionFixtureOpts{})
	var handler http.Handler
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(app.Close)
	login, err := handlers.NewOIDCLogin(context.Background(), handlers.OIDCConfig{
		Issuer: idp.srv.URL, ClientID: "web-client", RedirectURL: app.URL + "/login/oidc/callback", Mapping: auth.DefaultConfig(),
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
		if res := b.get("/login/oidc/callback?" + idp.authorize(t, start.location).Encode()); res.status != http.StatusSeeOther {
			t.Fatalf("callback: %d\n%s", res.status, res.body)
		}
		return b
	}

	t.Run("PermissionsFollowTheProvider", func(t *testing.T) {
		b := signIn(t)
		wantSignedIn(t, b).one("user-manager")
		idp.mu.Lock()
		idp.claims = map[string]any{"sub": "u-42", "tenant": "t1", "name": "Olga OIDC", "permissions": "user-tasks:*"}
		idp.mu.Unlock()
		f.clock.advance(2 * time.Minute)
		wantSignedIn(t, b).one("user-manager") // not yet re-read
		f.clock.advance(4 * time.Minute)
		if wantSignedIn(t, b).has("user-manager") {
			t.Fatal("still a manager after the provider dropped the role and the refresh interval passed")
		}
		// The provider rotates refresh tokens: the second refresh must use the new one.
		f.clock.advance(6 * time.Minute)
		wantSignedIn(t, b)
	})
	t.Run("ErrProviderRevoked", func(t *testing.T) {
		idp.mu.Lock()
		idp.claims = manager
		idp.mu.Unlock()
		b := signIn(t)
		idp.mu.Lock()
		clear(idp.refresh) // the person was disabled at the provider
		idp.mu.Unlock()
		f.clock.advance(6 * time.Minute)
		wantSignedOut(t, b)
	})
	t.Run("ErrNoRefreshToken", func(t *testing.T) {
		idp.mu.Lock()
		idp.noRefresh = true
		idp.mu.Unlock()
		b := signIn(t)
		wantSignedIn(t, b)
		f.clock.advance(6 * time.Minute)
		wantSignedOut(t, b)
	})
}
