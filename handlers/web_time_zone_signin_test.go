package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// timeZoneMeta is the zone a page says it rendered its times in.
func timeZoneMeta(p *webPage) string {
	var zone string
	webWalk(p.doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "meta" && webAttr(n, "name") == "time-zone" {
			zone = webAttr(n, "content")
		}
	})
	return zone
}

// TestSignInKeepsTheBrowsersTimeZone: the sign-in form's hidden field (filled by the page's
// script) starts the session in the browser's zone; without it the browser's zone cookie does;
// a page without a session zone (a guest's, the sign-in page) renders in the cookie's zone; and
// a name that is no zone is UTC, never an error.
func TestSignInKeepsTheBrowsersTimeZone(t *testing.T) {
	f := newWebFixture(t)
	signIn := func(t *testing.T, b *webBrowser, set url.Values) *webPage {
		t.Helper()
		login := b.get("/login")
		if !login.has("dev-users") || !strings.Contains(login.body, `name="timeZone"`) {
			t.Fatal("the sign-in form has no time zone field")
		}
		form := url.Values{"user": {"t1/ann"}, "csrf_token": {login.csrf()}}
		for k, vs := range set {
			form[k] = vs
		}
		return b.follow(b.post("/login/dev", form).wantStatus(http.StatusSeeOther)).wantStatus(http.StatusOK)
	}
	withCookie := func(b *webBrowser, zone string) {
		u, _ := url.Parse(f.srv.URL)
		b.client.Jar.SetCookies(u, []*http.Cookie{{Name: "ut_tz", Value: zone, Path: "/"}})
	}

	t.Run("PostedField", func(t *testing.T) {
		if got := timeZoneMeta(signIn(t, f.browser(t), url.Values{"timeZone": {"Asia/Tokyo"}})); got != "Asia/Tokyo" {
			t.Fatalf("the first page after signing in renders in %q, want Asia/Tokyo", got)
		}
	})
	t.Run("Cookie", func(t *testing.T) {
		b := f.browser(t)
		withCookie(b, "America/New_York")
		if got := timeZoneMeta(b.get("/login")); got != "America/New_York" {
			t.Fatalf("the sign-in page renders in %q", got)
		}
		first := signIn(t, b, nil)
		if got := timeZoneMeta(first); got != "America/New_York" {
			t.Fatalf("the first page after signing in renders in %q, want the cookie's zone", got)
		}
		// The session keeps it: without the cookie the next page is still in New York.
		b.client.Jar.SetCookies(&url.URL{Scheme: "http", Host: strings.TrimPrefix(f.srv.URL, "http://")}, []*http.Cookie{{Name: "ut_tz", Value: "", Path: "/", MaxAge: -1}})
		if got := timeZoneMeta(b.get("/inbox")); got != "America/New_York" {
			t.Fatalf("the session did not keep the zone: %q", got)
		}
	})
	t.Run("HostileInput", func(t *testing.T) {
		for _, zone := range []string{"../../etc/passwd", "Local", "Europe/Nowhere", strings.Repeat("A/", 60) + "B", "<script>", "UTC\r\nX-Injected: 1"} {
			b := f.browser(t)
			withCookie(b, url.QueryEscape(zone))
			page := signIn(t, b, url.Values{"timeZone": {zone}})
			if got := timeZoneMeta(page); got != "UTC" {
				t.Fatalf("zone %q: the page renders in %q, want UTC", zone, got)
			}
			if page.header.Get("X-Injected") != "" {
				t.Fatal("the zone became a header")
			}
		}
	})
}
