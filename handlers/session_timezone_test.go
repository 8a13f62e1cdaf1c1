package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// postTimeZone sends what static/timezone.js sends: the zone as a form field, the page's token
// in the X-CSRF-Token header.
func (b *webBrowser) postTimeZone(zone, csrf string) *webPage {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+"/session/time-zone", strings.NewReader(url.Values{"timeZone": {zone}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	return b.do(req)
}

// metaTimeZone is the page's <meta name="time-zone">.
func (p *webPage) metaTimeZone() string {
	p.t.Helper()
	zone := "(none)"
	webWalk(p.doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "meta" && webAttr(n, "name") == "time-zone" {
			zone = webAttr(n, "content")
		}
	})
	return zone
}

func TestSessionTimeZone(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	b := f.signIn(t, "ann")
	inbox := b.get("/inbox").wantStatus(http.StatusOK)
	if got := inbox.metaTimeZone(); got != "UTC" {
		t.Fatalf("time zone before the browser told one: %q, want UTC", got)
	}
	if !strings.Contains(inbox.body, "/static/timezone.js") {
		t.Fatal("the signed-in page does not load the time zone script")
	}
	token := inbox.csrf()

	b.postTimeZone("Europe/Berlin", token).wantStatus(http.StatusNoContent)
	if got := b.get("/inbox").metaTimeZone(); got != "Europe/Berlin" {
		t.Fatalf("time zone after setting Europe/Berlin: %q", got)
	}

	t.Run("ErrInvalid", func(t *testing.T) {
		for _, zone := range []string{"", "Local", "Mars/Olympus_Mons", "../../etc/passwd", "/etc/localtime", "Europe/../Europe/Berlin",
			"Europe/Berlin\x00", "Europe/Berlin ", "Europe\\Berlin", "Europa/Berlín", "Europe/Berlin?x=1", "Europe%2FBerlin",
			strings.Repeat("A", 65), strings.Repeat("Europe/", 2000) + "Berlin"} {
			if p := b.postTimeZone(zone, token); p.status != http.StatusUnprocessableEntity {
				t.Errorf("time zone %q: %d, want 422", zone, p.status)
			}
		}
		if got := b.get("/inbox").metaTimeZone(); got != "Europe/Berlin" {
			t.Fatalf("a refused zone changed the session's zone to %q", got)
		}
	})
	t.Run("ErrCSRF", func(t *testing.T) {
		b.postTimeZone("Asia/Tokyo", "").wantStatus(http.StatusForbidden)
		b.postTimeZone("Asia/Tokyo", "forged").wantStatus(http.StatusForbidden)
		b.header = http.Header{"Origin": {"https://evil.example"}}
		b.postTimeZone("Asia/Tokyo", token).wantStatus(http.StatusForbidden)
		b.header = nil
		if got := b.get("/inbox").metaTimeZone(); got != "Europe/Berlin" {
			t.Fatalf("a refused post changed the zone to %q", got)
		}
	})
	t.Run("Anonymous", func(t *testing.T) {
		anon := f.browser(t)
		token := anon.get("/login").csrf()
		if p := anon.postTimeZone("Asia/Tokyo", token); p.status != http.StatusSeeOther || p.location != "/login" {
			t.Fatalf("anonymous time zone: %d → %q, want 303 → /login", p.status, p.location)
		}
	})
	t.Run("OtherSessionsKeepTheirZone", func(t *testing.T) {
		other := f.signIn(t, "ann")
		if got := other.get("/inbox").metaTimeZone(); got != "UTC" {
			t.Fatalf("another session of the same user has zone %q, want UTC", got)
		}
	})
}
