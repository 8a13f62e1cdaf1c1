package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/handlers"
	"usertasks/models"
	"usertasks/websession"
)

// copyCookies gives a fresh browser every cookie b holds for the server: a stolen or copied
// session.
func (b *webBrowser) copyCookies(t *testing.T) *webBrowser {
	t.Helper()
	u, _ := url.Parse(b.f.srv.URL)
	thief := b.f.browser(t)
	thief.client.Jar.SetCookies(u, b.client.Jar.Cookies(u))
	return thief
}

// wantSignedOut asserts the browser has no session any more: pages send it to /login, the
// JSON API answers 401.
func wantSignedOut(t *testing.T, b *webBrowser) {
	t.Helper()
	if p := b.get("/inbox"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/login") {
		t.Fatalf("GET /inbox: %d → %q, want 303 → /login", p.status, p.location)
	}
	if p := b.api(http.MethodGet, "/api/v1/user-tasks", ""); p.status != http.StatusUnauthorized {
		t.Fatalf("GET /api/v1/user-tasks: %d, want 401; body %s", p.status, p.body)
	}
}

// wantSignedIn asserts the browser's session works for pages and the JSON API.
func wantSignedIn(t *testing.T, b *webBrowser) *webPage {
	t.Helper()
	inbox := b.get("/inbox")
	if inbox.status != http.StatusOK || !inbox.has("user-name") {
		t.Fatalf("GET /inbox: %d → %q, want the signed-in inbox", inbox.status, inbox.location)
	}
	if p := b.api(http.MethodGet, "/api/v1/user-tasks", ""); p.status != http.StatusOK {
		t.Fatalf("GET /api/v1/user-tasks: %d, want 200; body %s", p.status, p.body)
	}
	return inbox
}

func TestSessionLogoutRevokesCopiedCookie(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	b := f.signIn(t, "ann")
	copied := b.copyCookies(t)
	inbox := wantSignedIn(t, copied)

	out := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
	if out.status != http.StatusSeeOther || out.location != "/login" {
		t.Fatalf("logout: %d → %q", out.status, out.location)
	}
	wantSignedOut(t, b)
	wantSignedOut(t, copied)
}

func TestSessionSignOutEverywhere(t *testing.T) {
	users := append([]handlers.DevUser{{ID: "ann", DisplayName: "Ann in t2", Tenant: "t2", Permissions: []string{"user-tasks:*"}}}, webDevUsers...)
	f := newSessionFixture(t, sessionFixtureOpts{devUsers: users})
	laptop, phone := f.signIn(t, "ann"), f.signIn(t, "ann")
	bob := f.signIn(t, "bob")
	otherTenant := f.browser(t)
	login := otherTenant.get("/login")
	otherTenant.post("/login/dev", url.Values{"user": {"t2/ann"}, "csrf_token": {login.csrf()}}).wantStatus(http.StatusSeeOther)
	wantSignedIn(t, otherTenant)

	inbox := wantSignedIn(t, laptop)
	button := inbox.one("sign-out-everywhere")
	res := laptop.submit(inbox, "sign-out-everywhere-form", nil, button)
	if res.status != http.StatusSeeOther || res.location != "/login" {
		t.Fatalf("sign out everywhere: %d → %q\n%s", res.status, res.location, res.body)
	}
	webWantContains(t, "flash", laptop.follow(res).text("flash"), "every device")
	wantSignedOut(t, laptop)
	wantSignedOut(t, phone)
	wantSignedIn(t, bob)
	wantSignedIn(t, otherTenant) // the same user id in another tenant is another person

	t.Run("NeedsTheSessionsToken", func(t *testing.T) {
		b := f.signIn(t, "bob")
		b.post("/logout/everywhere", url.Values{}).wantStatus(http.StatusForbidden)
		b.post("/logout/everywhere", url.Values{"csrf_token": {"forged"}}).wantStatus(http.StatusForbidden)
		wantSignedIn(t, b)
	})
}

func TestSessionIdleTimeout(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	active, idle := f.signIn(t, "ann"), f.signIn(t, "bob")
	for range 3 {
		f.clock.Advance(20 * time.Minute) // under the 30 minute idle timeout each time
		wantSignedIn(t, active)
	}
	wantSignedOut(t, idle) // 60 minutes without a request
}

func TestSessionAbsoluteExpiry(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	b := f.signIn(t, "ann")
	for elapsed := time.Duration(0); elapsed < websession.DefaultLifetime-20*time.Minute; elapsed += 20 * time.Minute {
		f.clock.Advance(20 * time.Minute)
		wantSignedIn(t, b)
	}
	f.clock.Advance(20 * time.Minute) // 8 hours after sign-in, active all along
	wantSignedOut(t, b)
}

func TestSessionDevIdentityRefreshed(t *testing.T) {
	before := []handlers.DevUser{{ID: "ann", DisplayName: "Ann Approver", Tenant: "t1", Permissions: []string{"user-tasks:*"}}}
	a := newSessionFixture(t, sessionFixtureOpts{devUsers: before})
	b := a.signIn(t, "ann")
	if wantSignedIn(t, b).has("user-manager") {
		t.Fatal("ann starts as a manager")
	}

	// The demo users change (a restart with another list): ann becomes a manager.
	promoted := []handlers.DevUser{{ID: "ann", DisplayName: "Ann Approver", Tenant: "t1", Manager: true, Permissions: []string{"user-tasks:*"}}}
	restarted := newSessionFixture(t, sessionFixtureOpts{devUsers: promoted, on: a})
	b.f = restarted.webFixture
	a.clock.Advance(2 * time.Minute)
	if wantSignedIn(t, b).has("user-manager") {
		t.Fatal("the identity was re-read before the refresh interval")
	}
	a.clock.Advance(4 * time.Minute) // 6 minutes after sign-in: past the 5 minute interval
	inbox := wantSignedIn(t, b)
	inbox.one("user-manager")
	if !inbox.has("tab-all") {
		t.Fatalf("a manager's inbox without the All tab")
	}

	// ann leaves the list: her identity cannot be re-read, so the session ends.
	gone := newSessionFixture(t, sessionFixtureOpts{devUsers: webDevUsers[1:], on: a})
	b.f = gone.webFixture
	a.clock.Advance(6 * time.Minute)
	wantSignedOut(t, b)
}

func TestSessionExpiredRowsPurged(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	f.signIn(t, "ann")
	f.signIn(t, "bob")
	if n := countSessionRows(t, f); n != 2 {
		t.Fatalf("%d session rows after two sign-ins, want 2", n)
	}
	f.clock.Advance(websession.DefaultLifetime + time.Minute)
	f.signIn(t, "boss") // a sign-in sweeps expired rows
	if n := countSessionRows(t, f); n != 1 {
		t.Fatalf("%d session rows after expiry and one more sign-in, want 1", n)
	}
}

func countSessionRows(t *testing.T, f *sessionFixture) int {
	t.Helper()
	db, err := f.sqlStore(t).DB()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM user_task_web_sessions").Scan(&n); err != nil {
		t.Fatalf("count sessions: %v", err)
	}
	return n
}

// TestSessionCSRFBoundToSession: once signed in, only the session's token counts; the token of
// the anonymous ut_csrf binding (which a sibling site could plant) is refused.
func TestSessionCSRFBoundToSession(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	task := f.seed(t, webTaskOpts{})
	b := f.browser(t)
	anonToken := b.get("/login").csrf()
	b.post("/login/dev", url.Values{"user": {"t1/ann"}, "csrf_token": {anonToken}}).wantStatus(http.StatusSeeOther)
	page := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	claim := webFormValues(page.one("task-claim-form"))
	if claim.Get("csrf_token") == anonToken {
		t.Fatal("the signed-in page carries the anonymous token")
	}

	forged := url.Values{"expectedRevision": claim["expectedRevision"], "operationId": claim["operationId"], "csrf_token": {anonToken}}
	b.post("/tasks/"+task.ID+"/claim", forged).wantStatus(http.StatusForbidden)
	if p := b.api(http.MethodPost, "/api/v1/user-tasks/"+task.ID+"/claim", anonToken); p.status != http.StatusForbidden {
		t.Fatalf("API claim with the anonymous token: %d, want 403", p.status)
	}
	if got := f.current(t, task.ID).Status; got != models.StatusAvailable {
		t.Fatalf("a refused post changed the task to %s", got)
	}
	if p := b.post("/tasks/"+task.ID+"/claim", claim); p.status != http.StatusSeeOther {
		t.Fatalf("claim with the session's token: %d\n%s", p.status, p.body)
	}
}

// TestSessionForeignOriginRefused: a state-changing request whose Origin is another site is
// refused even without Sec-Fetch-Site (older browsers, privacy settings, proxies drop it).
func TestSessionForeignOriginRefused(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	task := f.seed(t, webTaskOpts{})
	b := f.signIn(t, "ann")
	page := b.get("/tasks/" + task.ID)
	claim := webFormValues(page.one("task-claim-form"))

	for _, origin := range []string{"https://evil.example", "null", "http://127.0.0.1.evil.example", strings.Replace(f.srv.URL, "http:", "https:", 1)} {
		b.header = http.Header{"Origin": {origin}}
		b.post("/tasks/"+task.ID+"/claim", claim).wantStatus(http.StatusForbidden)
		if p := b.api(http.MethodPost, "/api/v1/user-tasks/"+task.ID+"/claim", page.csrf()); p.status != http.StatusForbidden {
			t.Errorf("API POST with Origin %s: %d, want 403", origin, p.status)
		}
		anon := f.browser(t)
		anon.header = b.header
		token := anon.get("/login").csrf()
		anon.post("/login/dev", url.Values{"user": {"t1/ann"}, "csrf_token": {token}}).wantStatus(http.StatusForbidden)
	}
	b.header = http.Header{"Sec-Fetch-Site": {"same-site"}}
	b.post("/tasks/"+task.ID+"/claim", claim).wantStatus(http.StatusForbidden)
	if got := f.current(t, task.ID).Status; got != models.StatusAvailable {
		t.Fatalf("a refused post changed the task to %s", got)
	}

	b.header = http.Header{"Origin": {f.srv.URL}, "Sec-Fetch-Site": {"same-origin"}}
	if p := b.post("/tasks/"+task.ID+"/claim", claim); p.status != http.StatusSeeOther {
		t.Fatalf("claim from our own origin: %d\n%s", p.status, p.body)
	}
}

// TestSessionCookieNames: outside dev every cookie is __Host- prefixed (Secure, Path=/, no
// Domain), so a sibling subdomain cannot set or shadow it; dev mode on http keeps plain names.
func TestSessionCookieNames(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dev    bool
		prefix string
	}{{"Production", false, "__Host-"}, {"Dev", true, ""}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newSessionFixture(t, sessionFixtureOpts{dev: tc.dev})
			b := f.browser(t)
			login := b.get("/login")
			signIn := b.post("/login/dev", url.Values{"user": {"t1/ann"}, "csrf_token": {login.csrf()}})
			inbox := b.follow(signIn)
			out := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}})
			seen := map[string]*http.Cookie{}
			for _, p := range []*webPage{login, signIn, out} {
				for _, c := range p.cookies {
					seen[c.Name] = c
				}
			}
			for _, base := range []string{"ut_csrf", "ut_session", "ut_flash"} {
				c := seen[tc.prefix+base]
				switch {
				case c == nil:
					t.Errorf("no cookie %s%s; got %v", tc.prefix, base, seen)
				case c.Secure == tc.dev || c.Path != "/" || c.Domain != "" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode:
					t.Errorf("cookie %s: Secure %v Path %q Domain %q HttpOnly %v SameSite %v", c.Name, c.Secure, c.Path, c.Domain, c.HttpOnly, c.SameSite)
				}
				if tc.prefix != "" && seen[base] != nil {
					t.Errorf("an unprefixed %s cookie is set outside dev", base)
				}
			}
		})
	}
}

// TestSessionSignInReplacesThePrevious: signing in as someone else in the same browser (a
// shared computer) ends the first person's session, copies of its cookie included.
func TestSessionSignInReplacesThePrevious(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	b := f.browser(t)
	anonToken := b.get("/login").csrf()
	b.post("/login/dev", url.Values{"user": {"t1/ann"}, "csrf_token": {anonToken}}).wantStatus(http.StatusSeeOther)
	copied := b.copyCookies(t)
	wantSignedIn(t, copied)

	b.post("/login/dev", url.Values{"user": {"t1/bob"}, "csrf_token": {anonToken}}).wantStatus(http.StatusSeeOther)
	wantSignedOut(t, copied)
	if got := wantSignedIn(t, b).text("user-name"); got != "Bob Builder" {
		t.Fatalf("signed in as %q, want Bob Builder", got)
	}
}
