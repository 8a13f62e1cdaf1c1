package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// The identity provider of the OIDC browser tests is zitadel's certified OpenID provider
// (package op of github.com/zitadel/oidc/v3) on the module's example in-memory storage, in
// this process on a free loopback port. Around it sit only what a test needs: a login page,
// the app as its one client, a demo person, and a recorder that can tamper with what passes
// through, as an attacker between the browser and the provider could.

// idpClientID and idpClientSecret are the app's registration at the provider.
const (
	idpClientID     = "usertasks-web"
	idpClientSecret = "e2e-client-secret"
	idpUser         = "ben"
	idpPassword     = "correct horse battery staple"
)

// idp is the running provider.
type idp struct {
	URL string // the issuer
	srv *httptest.Server
	// appBase is the app's base URL: its login page is the client's post-logout redirect URI.
	appBase string

	mu sync.Mutex
	// seen is every request the provider answered, in order.
	seen []idpExchange
	// tamperAuthorize rewrites the query of an authorization request before the provider
	// reads it; tamperCallback rewrites the query of the provider's redirect back to the app.
	tamperAuthorize, tamperCallback func(url.Values)
	// idTokenLifetime is the lifetime of the ID tokens issued (0: the example's hour).
	idTokenLifetime time.Duration
}

// idpExchange is one request to the provider and its answer.
type idpExchange struct {
	Method, Path string
	Query        url.Values // the query, as the provider read it
	Form         url.Values // a token or revocation request's form
	BasicUser    string     // the HTTP Basic user of a token or revocation request
	Status       int
	Location     string // a redirect's target, as the browser got it
	Body         string // a token endpoint answer (its first 8 KiB)
}

// startIDP runs the provider until the test ends. appBase is the app's base URL, whose
// callback is the client's only redirect URI.
func startIDP(t *testing.T, appBase string) *idp {
	t.Helper()
	p := &idp{srv: httptest.NewUnstartedServer(nil), appBase: appBase}
	p.URL = "http://" + p.srv.Listener.Addr().String()
	users := idpUsers{idpUser: {ID: idpUser, Username: idpUser, Password: idpPassword, FirstName: "Ben", LastName: "Brooks",
		Email: "ben@acme.example", EmailVerified: true, PreferredLanguage: language.English}}
	clients := map[string]*storage.Client{
		idpClientID: storage.WebClient(idpClientID, idpClientSecret, appBase+"/login/oidc/callback"),
	}
	store := &idpStorage{Storage: storage.NewStorageWithClients(users, clients), idp: p}
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		t.Fatal(err)
	}
	provider, err := op.NewProvider(&op.Config{
		CryptoKey:             key,
		CodeMethodS256:        true,
		GrantTypeRefreshToken: true,
		SupportedUILocales:    []language.Tag{language.English},
	}, store, op.StaticIssuer(p.URL), op.WithAllowInsecure())
	if err != nil {
		t.Fatal(err)
	}
	login := &idpLogin{store: store.Storage, callback: op.AuthCallbackURL(provider)}
	mux := http.NewServeMux()
	mux.Handle("/login/username", op.NewIssuerInterceptor(provider.IssuerFromRequest).Handler(login))
	mux.Handle("/", provider)
	p.srv.Config.Handler = p.record(mux)
	p.srv.Start()
	t.Cleanup(p.srv.Close)
	return p
}

// reset forgets what was seen and ends every tampering, for the next case.
func (p *idp) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen, p.tamperAuthorize, p.tamperCallback, p.idTokenLifetime = nil, nil, nil, 0
}

// exchanges returns what was seen at path.
func (p *idp) exchanges(path string) []idpExchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []idpExchange
	for _, e := range p.seen {
		if e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

// record notes every request and answer, and applies the tampering set for the case.
func (p *idp) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		tamperAuthorize, tamperCallback := p.tamperAuthorize, p.tamperCallback
		p.mu.Unlock()
		e := idpExchange{Method: r.Method, Path: r.URL.Path}
		if r.URL.Path == "/authorize" && tamperAuthorize != nil {
			q := r.URL.Query()
			tamperAuthorize(q)
			r.URL.RawQuery = q.Encode()
		}
		e.Query = r.URL.Query()
		if r.Method == http.MethodPost && (r.URL.Path == "/oauth/token" || r.URL.Path == "/revoke") {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
			e.Form, _ = url.ParseQuery(string(body))
			e.BasicUser, _, _ = r.BasicAuth()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		rw := &idpRecorder{ResponseWriter: w, tamper: tamperCallback}
		next.ServeHTTP(rw, r)
		e.Status, e.Location = rw.status, rw.Header().Get("Location")
		if r.URL.Path == "/oauth/token" {
			e.Body = rw.body.String()
		}
		p.mu.Lock()
		p.seen = append(p.seen, e)
		p.mu.Unlock()
	})
}

// idpRecorder keeps a response's status and the start of its body, and rewrites the query of
// a redirect back to the app's callback when a tampering is set.
type idpRecorder struct {
	http.ResponseWriter
	tamper func(url.Values)
	status int
	body   bytes.Buffer
}

func (r *idpRecorder) WriteHeader(status int) {
	if r.status != 0 {
		return
	}
	r.status = status
	if loc := r.Header().Get("Location"); r.tamper != nil && strings.Contains(loc, "/login/oidc/callback") {
		if u, err := url.Parse(loc); err == nil {
			q := u.Query()
			r.tamper(q)
			u.RawQuery = q.Encode()
			r.Header().Set("Location", u.String())
		}
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *idpRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	if r.body.Len() < 8192 {
		r.body.Write(b[:min(len(b), 8192-r.body.Len())])
	}
	return r.ResponseWriter.Write(b)
}

// idpStorage is the example storage with the two things the app needs of its provider: the
// tenant claim, and the profile (name) in the ID token, where the app reads it. It can also
// issue ID tokens that are already expired.
type idpStorage struct {
	*storage.Storage
	idp *idp
}

func (s *idpStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil {
		return nil, err
	}
	s.idp.mu.Lock()
	defer s.idp.mu.Unlock()
	return idpClient{Client: c, lifetime: s.idp.idTokenLifetime, postLogout: s.idp.appBase + "/login"}, nil
}

func (s *idpStorage) SetUserinfoFromRequest(ctx context.Context, info *oidc.UserInfo, req op.IDTokenRequest, scopes []string) error {
	if err := s.Storage.SetUserinfoFromRequest(ctx, info, req, scopes); err != nil {
		return err
	}
	appendBenClaims(info)
	return nil
}

func (s *idpStorage) SetUserinfoFromToken(ctx context.Context, info *oidc.UserInfo, tokenID, subject, origin string) error {
	if err := s.Storage.SetUserinfoFromToken(ctx, info, tokenID, subject, origin); err != nil {
		return err
	}
	appendBenClaims(info)
	return nil
}

// appendBenClaims adds the claims the app maps to an actor besides subject and name, as the
// demo's Ben Brooks has them: tenant, groups and the worker's permissions.
func appendBenClaims(info *oidc.UserInfo) {
	info.AppendClaims("tenant", "acme")
	info.AppendClaims("groups", []string{"finance"})
	info.AppendClaims("permissions", []string{"user-tasks:view", "user-tasks:claim", "user-tasks:complete", "user-tasks/participants:view"})
}

// idpClient is a registered client whose ID tokens carry the profile claims and, when set,
// another lifetime (negative: expired on issue), with the app's login page as its one
// post-logout redirect URI.
type idpClient struct {
	op.Client
	lifetime   time.Duration
	postLogout string
}

func (c idpClient) PostLogoutRedirectURIs() []string { return []string{c.postLogout} }

func (c idpClient) IDTokenUserinfoClaimsAssertion() bool { return true }

func (c idpClient) IDTokenLifetime() time.Duration {
	if c.lifetime != 0 {
		return c.lifetime
	}
	return c.Client.IDTokenLifetime()
}

// idpUsers is the provider's directory (the example storage's UserStore).
type idpUsers map[string]*storage.User

func (u idpUsers) GetUserByID(id string) *storage.User { return u[id] }

func (u idpUsers) GetUserByUsername(name string) *storage.User {
	for _, user := range u {
		if user.Username == name {
			return user
		}
	}
	return nil
}

func (idpUsers) ExampleClientID() string { return "service" }

// idpLogin is the provider's login page: user name and password for the pending
// authorization request, then back to the provider, which redirects to the app.
type idpLogin struct {
	store    *storage.Storage
	callback func(context.Context, string) string
}

var idpLoginPage = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to the identity provider</title></head>
<body><main><h1>Identity provider</h1>
{{if .Error}}<p role="alert" id="idp-error">{{.Error}}</p>{{end}}
<form method="post" action="/login/username">
<input type="hidden" name="id" value="{{.ID}}">
<p><label for="username">User name</label> <input id="username" name="username" autocomplete="username"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password"></p>
<p><button type="submit" id="idp-submit">Sign in</button></p>
</form></main></body></html>`))

func (l *idpLogin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data := struct{ ID, Error string }{ID: r.FormValue("authRequestID")}
	if r.Method == http.MethodPost {
		data.ID = r.FormValue("id")
		err := l.store.CheckUsernamePassword(r.FormValue("username"), r.FormValue("password"), data.ID)
		if err == nil {
			http.Redirect(w, r, l.callback(r.Context(), data.ID), http.StatusFound)
			return
		}
		data.Error = "Wrong user name or password."
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := idpLoginPage.Execute(w, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// freeLoopbackAddr is a loopback address with a port free right now, for a server whose own
// URL must be known before it starts (the app's callback is registered at the provider).
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// s256 is the PKCE S256 challenge of a verifier.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
