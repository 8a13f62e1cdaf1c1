package handlers_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/models"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

func TestLoginDevList(t *testing.T) {
	f := newWebFixture(t)
	p := f.browser(t).get("/login").wantStatus(http.StatusOK)
	users := p.all("dev-user")
	if len(users) != len(webDevUsers) {
		t.Fatalf("%d demo users listed, want %d", len(users), len(webDevUsers))
	}
	byID := map[string]string{}
	for _, u := range users {
		byID[webAttr(u, "data-tenant")+"/"+webAttr(u, "data-user-id")] = webText(u)
	}
	webWantContains(t, "ann", byID["t1/ann"], "Ann Approver")
	webWantContains(t, "ann's groups", byID["t1/ann"], "finance")
	webWantContains(t, "otto's tenant", byID["t2/otto"], "t2")
	if strings.Contains(byID["t1/ann"], "Manager") || !strings.Contains(byID["t1/boss"], "Manager") {
		t.Fatalf("manager badges wrong: ann %q, boss %q", byID["t1/ann"], byID["t1/boss"])
	}
	if p.has("login-oidc") {
		t.Fatal("OIDC button without OIDC configured")
	}
	if p.has("user-menu") {
		t.Fatal("an anonymous page shows the user menu")
	}
}

func TestLoginRedirectsAnonymous(t *testing.T) {
	f := newWebFixture(t)
	b := f.browser(t)
	for path, want := range map[string]string{
		"/inbox?tab=available": "/login?next=%2Finbox%3Ftab%3Davailable",
		"/tasks/abc":           "/login?next=%2Ftasks%2Fabc",
	} {
		p := b.get(path)
		if p.status != http.StatusSeeOther || p.location != want {
			t.Errorf("GET %s: %d → %q, want 303 → %q", path, p.status, p.location, want)
		}
	}
	if p := b.post("/tasks/abc/claim", url.Values{}); p.status != http.StatusSeeOther || p.location != "/login" {
		t.Errorf("anonymous POST: %d → %q, want 303 → /login", p.status, p.location)
	}
}

func TestHomeSignsInTheFirstDemoUserInDevMode(t *testing.T) {
	f := newWebFixture(t)
	b := f.browser(t)
	home := b.get("/")
	if home.status != http.StatusSeeOther || home.location != "/inbox" {
		t.Fatalf("GET /: %d → %q, want 303 → /inbox", home.status, home.location)
	}
	inbox := b.get("/inbox").wantStatus(http.StatusOK)
	if !inbox.has("user-name") {
		t.Fatalf("the inbox after / shows no signed-in user")
	}
}

func TestLoginDevSignInAndOut(t *testing.T) {
	f := newWebFixture(t)
	b := f.browser(t)
	login := b.get("/login?next=%2Finbox%3Ftab%3Dhistory")
	res := b.post("/login/dev", url.Values{"user": {"t1/boss"}, "next": {"/inbox?tab=history"}, "csrf_token": {login.csrf()}})
	if res.status != http.StatusSeeOther || res.location != "/inbox?tab=history" {
		t.Fatalf("sign-in: %d → %q, want 303 → the page asked for", res.status, res.location)
	}
	var session *http.Cookie
	for _, c := range res.cookies {
		if c.Name == "__Host-ut_session" {
			session = c
		}
	}
	switch {
	case session == nil:
		t.Fatal("no session cookie")
	case !session.HttpOnly || session.SameSite != http.SameSiteLaxMode || !session.Secure:
		t.Fatalf("session cookie flags: HttpOnly %v SameSite %v Secure %v", session.HttpOnly, session.SameSite, session.Secure)
	case session.MaxAge != int(websession.DefaultLifetime/time.Second):
		t.Fatalf("session Max-Age %d", session.MaxAge)
	case strings.Contains(session.Value, "boss"):
		t.Fatal("the session cookie is readable")
	}
	inbox := b.get("/inbox").wantStatus(http.StatusOK)
	if got := inbox.text("user-name"); got != "Bea Boss" {
		t.Fatalf("user %q", got)
	}
	if got := inbox.text("user-tenant"); !strings.Contains(got, "t1") {
		t.Fatalf("tenant %q", got)
	}
	inbox.one("user-manager")
	if p := b.get("/login"); p.status != http.StatusSeeOther || p.location != "/inbox" {
		t.Fatalf("login page while signed in: %d → %q", p.status, p.location)
	}

	t.Run("Logout", func(t *testing.T) {
		out := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
		if out.status != http.StatusSeeOther || out.location != "/login" {
			t.Fatalf("logout: %d → %q", out.status, out.location)
		}
		login := b.follow(out).wantStatus(http.StatusOK)
		webWantContains(t, "flash", login.text("flash"), "signed out")
		if p := b.get("/inbox"); p.status != http.StatusSeeOther {
			t.Fatalf("after logout /inbox answered %d", p.status)
		}
	})
	t.Run("UnknownUser", func(t *testing.T) {
		login := f.browser(t)
		page := login.get("/login")
		p := login.post("/login/dev", url.Values{"user": {"t1/nobody"}, "csrf_token": {page.csrf()}}).wantStatus(http.StatusUnprocessableEntity)
		p.one("login-error")
	})
}

// TestSessionCookieTampered: a changed, truncated or made-up session cookie is no session.
func TestSessionCookieTampered(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	u, _ := url.Parse(f.srv.URL)
	original := b.cookie("__Host-ut_session")
	if original == nil {
		t.Fatal("no session cookie")
	}
	for _, value := range []string{
		original.Value[:len(original.Value)-4] + "AAAA", original.Value[:40], original.Value + "A", strings.ToUpper(original.Value),
		"", "../../etc/passwd", "%00", strings.Repeat("A", 43), strings.Repeat("-_", 21) + "=", strings.Repeat("A", 4000),
	} {
		b.client.Jar.SetCookies(u, []*http.Cookie{{Name: "__Host-ut_session", Value: value, Path: "/"}})
		if p := b.get("/inbox"); p.status != http.StatusSeeOther {
			t.Errorf("session cookie %.50q: %d, want a redirect to /login", value, p.status)
		}
	}
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: "__Host-ut_session", Value: original.Value, Path: "/"}})
	b.get("/inbox").wantStatus(http.StatusOK)
}

// sessionRequest signs in through a dev login on a bare server and returns a request that
// carries the session cookie.
func sessionRequest(t *testing.T, s *websession.Manager, method string) *http.Request {
	t.Helper()
	e := newBareWeb(t, s)
	login := httptest.NewRecorder()
	e.ServeHTTP(login, httptest.NewRequest(http.MethodGet, "/login", nil))
	csrfCookie := login.Result().Cookies()[0]
	token := metaCSRF(t, login.Body.String())
	form := url.Values{"user": {"t1/ann"}, "csrf_token": {token}}
	req := httptest.NewRequest(http.MethodPost, "/login/dev", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(csrfCookie)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("dev login: %d\n%s", rec.Code, rec.Body.String())
	}
	out := httptest.NewRequest(method, "/api/v1/user-tasks", nil)
	for _, c := range rec.Result().Cookies() {
		if c.Name == s.CookieName(websession.SessionCookie) {
			out.AddCookie(c)
		}
	}
	return out
}

func TestSessionRequestActorForTheAPI(t *testing.T) {
	s := websessiontest.NewManager(t, websession.Config{Secrets: [][]byte{websession.GenerateSecret()}})
	get := sessionRequest(t, s, http.MethodGet)
	a, err := s.RequestActor(get)
	if err != nil || a.Tenant != "t1" || a.Subject.ID != "ann" || len(a.Groups) != 1 || a.Groups[0].ID != "finance" || a.Manager {
		t.Fatalf("actor %+v, %v", a, err)
	}
	if _, err := s.Read(get); err != nil {
		t.Fatalf("Read: %v", err)
	}
	post := sessionRequest(t, s, http.MethodPost)
	if _, err := s.RequestActor(post); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("POST without X-CSRF-Token: %v, want forbidden", err)
	}
	post.Header.Set("X-CSRF-Token", "wrong")
	if _, err := s.RequestActor(post); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("POST with a wrong token: %v, want forbidden", err)
	}
	if _, err := s.RequestActor(httptest.NewRequest(http.MethodGet, "/api/v1/user-tasks", nil)); !errors.Is(err, models.ErrUnauthorized) {
		t.Fatalf("no cookie: %v, want unauthenticated", err)
	}
}

func TestSessionCSRFRefused(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{})
	b := f.signIn(t, "ann")
	page := b.get("/tasks/" + task.ID)
	claim := webFormValues(page.one("task-claim-form"))

	t.Run("NoToken", func(t *testing.T) {
		without := url.Values{"expectedRevision": claim["expectedRevision"], "operationId": claim["operationId"]}
		p := b.post("/tasks/"+task.ID+"/claim", without).wantStatus(http.StatusForbidden)
		p.one("error-page")
		if got := f.current(t, task.ID).Status; got != models.StatusAvailable {
			t.Fatalf("a refused post changed the task to %s", got)
		}
	})
	t.Run("WrongToken", func(t *testing.T) {
		wrong := url.Values{"expectedRevision": claim["expectedRevision"], "operationId": claim["operationId"], "csrf_token": {"forged"}}
		b.post("/tasks/"+task.ID+"/claim", wrong).wantStatus(http.StatusForbidden)
	})
	t.Run("AnotherSessionsToken", func(t *testing.T) {
		other := f.signIn(t, "bob")
		stolen := other.get("/inbox").csrf()
		forged := url.Values{"expectedRevision": claim["expectedRevision"], "operationId": claim["operationId"], "csrf_token": {stolen}}
		b.post("/tasks/"+task.ID+"/claim", forged).wantStatus(http.StatusForbidden)
	})
	t.Run("CrossSite", func(t *testing.T) {
		b.header = http.Header{"Sec-Fetch-Site": {"cross-site"}}
		defer func() { b.header = nil }()
		b.post("/tasks/"+task.ID+"/claim", claim).wantStatus(http.StatusForbidden)
	})
	t.Run("LoginAndLogout", func(t *testing.T) {
		anon := f.browser(t)
		anon.get("/login")
		anon.post("/login/dev", url.Values{"user": {"t1/ann"}}).wantStatus(http.StatusForbidden)
		b.post("/logout", url.Values{}).wantStatus(http.StatusForbidden)
	})
	t.Run("WithToken", func(t *testing.T) {
		if p := b.post("/tasks/"+task.ID+"/claim", claim); p.status != http.StatusSeeOther {
			t.Fatalf("claim with the token: %d\n%s", p.status, p.body)
		}
	})
}

func TestWebSecurityHeaders(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{})
	b := f.signIn(t, "ann")
	anon := f.browser(t)
	for _, path := range []string{"/login", "/inbox", "/tasks/" + task.ID, "/tasks/missing", "/static/app.css"} {
		p := b.get(path)
		if path == "/login" {
			p = anon.get(path)
		}
		h := p.header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "form-action 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") {
			t.Errorf("%s: CSP allows inline code", path)
		}
		for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"} {
			if got := h.Get(k); got != want {
				t.Errorf("%s: %s = %q, want %q", path, k, got, want)
			}
		}
		if path != "/static/app.css" && h.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", path, h.Get("Cache-Control"))
		}
	}
	inbox := b.get("/inbox")
	if strings.Contains(inbox.body, "<script>") || strings.Contains(inbox.body, " style=") || strings.Contains(inbox.body, "<style") {
		t.Fatal("a page carries inline script or style")
	}
	css := b.get("/static/app.css?v=nope")
	if css.status != http.StatusOK || !strings.HasPrefix(css.header.Get("Content-Type"), "text/css") || css.header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("css: %d %q %q", css.status, css.header.Get("Content-Type"), css.header.Get("Cache-Control"))
	}
	if p := b.get("/static/missing.js"); p.status != http.StatusNotFound {
		t.Fatalf("missing asset: %d", p.status)
	}
}

func TestSessionDevCookieNotSecure(t *testing.T) {
	s := websessiontest.NewManager(t, websession.Config{Secrets: [][]byte{websession.GenerateSecret()}, Insecure: true})
	e := newBareWeb(t, s)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/login", nil))
	if len(rec.Result().Cookies()) == 0 {
		t.Fatal("the login page set no cookie")
	}
	for _, c := range rec.Result().Cookies() {
		if c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || strings.HasPrefix(c.Name, "__Host-") {
			t.Fatalf("dev cookie %s: Secure %v HttpOnly %v SameSite %v", c.Name, c.Secure, c.HttpOnly, c.SameSite)
		}
	}
}

func TestWebStaticVersioned(t *testing.T) {
	f := newWebFixture(t)
	login := f.browser(t).get("/login")
	var css string
	webWalk(login.doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "link" && webAttr(n, "rel") == "stylesheet" {
			css = webAttr(n, "href")
		}
	})
	if !strings.HasPrefix(css, "/static/app.css?v=") {
		t.Fatalf("stylesheet %q", css)
	}
	p := f.browser(t).get(css).wantStatus(http.StatusOK)
	if got := p.header.Get("Cache-Control"); !strings.Contains(got, "immutable") {
		t.Fatalf("versioned asset Cache-Control %q", got)
	}
	js := f.browser(t).get("/static/app.js")
	if js.status != http.StatusOK || !strings.Contains(js.header.Get("Content-Type"), "javascript") {
		t.Fatalf("app.js: %d %q", js.status, js.header.Get("Content-Type"))
	}
}
