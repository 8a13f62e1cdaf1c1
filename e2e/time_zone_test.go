package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// browserZone is the zone the tabs of TestTimesInTheBrowsersZone live in: far from UTC, so an
// hour shown in UTC cannot pass for it.
const browserZone = "Asia/Tokyo"

// setTimeZone makes the tab's browser live in zone, as a person's computer set to it would.
func (p *page) setTimeZone(zone string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone}); err != nil {
		p.t.Fatalf("emulate the time zone %s: %v", zone, err)
	}
}

// wantTimesIn checks every time the page shows (the <time data-ts> elements: the absolute time
// beside a relative one, or as its tooltip) against zone, and the zone the page says it
// rendered in.
func (p *page) wantTimesIn(where string, loc *time.Location) {
	p.t.Helper()
	if got := eval[string](p, `(document.querySelector('meta[name="time-zone"]') || {}).content || ""`); got != loc.String() {
		p.t.Errorf("%s: the page was rendered in %q, want %s", where, got, loc)
	}
	shown := eval[[][]string](p, `[...document.querySelectorAll("time[data-ts]")].map(e =>
		[e.getAttribute("datetime"), ((e.querySelector(".ts__abs") || {}).textContent || e.getAttribute("title") || "").trim()])`)
	if len(shown) == 0 {
		p.t.Fatalf("%s shows no times to check", where)
	}
	for _, s := range shown {
		at, err := time.Parse(time.RFC3339, s[0])
		if err != nil {
			p.t.Fatalf("%s: datetime %q: %v", where, s[0], err)
		}
		local := at.In(loc)
		if want := local.Format("15:04") + " " + local.Format("MST"); !strings.Contains(s[1], want) {
			p.t.Errorf("%s: %s shows as %q, want it in %s (%q)", where, s[0], s[1], loc, want)
		}
	}
}

// TestTimesInTheBrowsersZone: a person whose browser lives in Tokyo sees Tokyo times on the
// first page after signing in, again after signing out and in in the same tab (and so after
// anything that ends a session: a server restart, an expiry), and a guest sees them on the
// guest page.
func TestTimesInTheBrowsersZone(t *testing.T) {
	srv, b, shots := newRig(t)
	tokyo, err := time.LoadLocation(browserZone)
	if err != nil {
		t.Fatal(err)
	}

	ben := b.open(t, srv.URL, "ben", desktop, shots)
	ben.setTimeZone(browserZone)
	ben.signIn("acme", false)
	ben.wantTimesIn("the first page after signing in", tokyo)
	ben.shot("first-page-tokyo")

	ben.submit("sign out", testid("sign-out"))
	ben.waitVisible(testid("login-page"))
	ben.signIn("acme", false)
	ben.wantTimesIn("the first page after signing out and in", tokyo)
	ben.navigate("/tasks/" + ben.firstRowID())
	ben.wantTimesIn("a task page", tokyo)

	// A guest on a computer in Tokyo.
	ava := b.open(t, srv.URL, "ava", desktop, shots)
	ava.signIn("acme", false)
	ava.openTab("all")
	id := ava.rowID(travelRef)
	if id == "" {
		t.Fatalf("%s is not in ava's All tab", travelRef)
	}
	ava.navigate("/tasks/" + id)
	ava.waitVisible(testid("invitation-form"))
	ava.typeInto(testid("invitation-recipients"), guestEmail)
	ava.submit("invite a guest", testid("invitation-submit"))
	ava.waitVisible(testid("invitation"))
	link, code := ava.mailboxLetter(guestEmail, 30*time.Second)
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	guest := b.open(t, srv.URL, "guest", phone, shots)
	guest.setTimeZone(browserZone)
	guest.navigate(u.RequestURI())
	guest.waitVisible(testid("guest-verify"))
	guest.typeInto(testid("guest-code"), code)
	guest.submit("verify the code", testid("guest-continue"))
	guest.waitVisible(testid("guest-task"))
	guest.wantTimesIn("the guest page", tokyo)
	guest.shot("guest-tokyo")
	guest.checkNoErrors()
	ben.checkNoErrors()
}

// firstRowID is the task id of the first inbox row the page shows.
func (p *page) firstRowID() string {
	p.t.Helper()
	id := eval[string](p, `(document.querySelector("[data-task-row]") || {dataset: {}}).dataset.taskId || ""`)
	if id == "" {
		p.t.Fatal("the inbox shows no task")
	}
	return id
}
