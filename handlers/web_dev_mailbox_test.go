package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/tasks"
)

// mailboxFixture is the web fixture serving the dev mailbox page, as cmd/web wires it in dev
// mode.
func mailboxFixture(t *testing.T, box handlers.DevMailbox) *webFixture {
	t.Helper()
	f := newWebFixture(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := handlers.New(handlers.Deps{Store: f.store, Logger: log,
		Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, DevUsers: webDevUsers, Logger: log,
			Dashboard: tasks.NewDashboard(f.store, 0), Inbox: tasks.NewInbox(f.store), DevMailbox: box}})
	f.srv.Close()
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f
}

// TestWebDevMailbox covers /dev/mailbox: dev mode only, managers only, the signed-in tenant's
// messages newest first with a clickable link and the code, hostile values escaped, English and
// German.
func TestWebDevMailbox(t *testing.T) {
	box := invitations.NewDevMailbox(0)
	send := func(tenant, recipient, token, code string) {
		m := invitations.Message{Tenant: tenant, TaskID: "task-1", InvitationID: "inv-" + token, Recipient: recipient,
			Link: invitations.Link("http://127.0.0.1:8080/base", token), Code: code, ExpiresAt: time.Now().Add(48 * time.Hour)}
		if err := box.Dispatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	send("t1", "first@example.org", "tok-first", "111111")
	send("t2", "other-tenant@example.org", "tok-other", "222222")
	send("t1", `<script>alert("x")</script>@example.org`, "tok a/b?c#d ü", "")
	f := mailboxFixture(t, box)

	t.Run("OK", func(t *testing.T) {
		p := f.signIn(t, "boss").get("/dev/mailbox").wantStatus(http.StatusOK)
		p.one("dev-mailbox-note")
		rows := p.all("dev-mail")
		if len(rows) != 2 {
			t.Fatalf("%d rows, want t1's 2", len(rows))
		}
		links := p.all("dev-mail-link")
		if got := webAttr(links[0], "href"); got != "http://127.0.0.1:8080/base/guest?t=tok+a%2Fb%3Fc%23d+%C3%BC" {
			t.Fatalf("newest link %q", got)
		}
		if got := webAttr(links[1], "href"); got != "http://127.0.0.1:8080/base/guest?t=tok-first" {
			t.Fatalf("older link %q", got)
		}
		codes := p.all("dev-mail-code")
		if webText(codes[1]) != "111111" || strings.Contains(webText(codes[0]), "1") {
			t.Fatalf("codes %q %q", webText(codes[0]), webText(codes[1]))
		}
		if strings.Contains(p.body, "<script>alert") || strings.Contains(p.body, "other-tenant") || strings.Contains(p.body, "222222") {
			t.Fatalf("the page is unescaped or shows another tenant's mail")
		}
		if p.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("cache-control %q", p.header.Get("Cache-Control"))
		}
	})
	t.Run("German", func(t *testing.T) {
		b := f.signIn(t, "boss")
		b.lang = "de"
		p := b.get("/dev/mailbox").wantStatus(http.StatusOK)
		if p.lang() != "de" || !strings.Contains(p.text("dev-mailbox-note"), "Entwicklungswerkzeug") {
			t.Fatalf("lang %q, note %q", p.lang(), p.text("dev-mailbox-note"))
		}
	})
	t.Run("Empty", func(t *testing.T) {
		box := invitations.NewDevMailbox(0)
		f := mailboxFixture(t, box)
		p := f.signIn(t, "boss").get("/dev/mailbox").wantStatus(http.StatusOK)
		p.one("dev-mailbox-empty")
	})
	t.Run("ErrForbiddenForNonManagers", func(t *testing.T) {
		// Any signed-in person could otherwise read every guest's link and code in the tenant.
		for _, who := range []string{"ann", "bob", "eve"} {
			p := f.signIn(t, who).get("/dev/mailbox").wantStatus(http.StatusForbidden)
			if strings.Contains(p.body, "tok-first") || strings.Contains(p.body, "111111") {
				t.Fatalf("%s was refused but saw a code", who)
			}
		}
	})
	t.Run("SignedOutIsSentToLogin", func(t *testing.T) {
		if p := f.browser(t).get("/dev/mailbox"); p.status == http.StatusOK || strings.Contains(p.body, "tok-first") {
			t.Fatalf("an anonymous visitor got the mailbox: %d", p.status)
		}
	})
	t.Run("ErrNotFoundOutsideDevMode", func(t *testing.T) {
		f := newWebFixture(t) // no mailbox: what cmd/web builds outside dev mode
		f.signIn(t, "ann").get("/dev/mailbox").wantStatus(http.StatusNotFound)
	})
}

// TestWebDevMailboxReadable: a code never wraps (it broke as "95121/2"), and expiries are
// rounded to the nearest unit and said as approximations: a 3-day link expires "in about 3
// days", not "in 2 days" (issue 26, item 24).
func TestWebDevMailboxReadable(t *testing.T) {
	box := invitations.NewDevMailbox(0)
	for _, m := range []struct {
		recipient string
		life      time.Duration
	}{{"three-days@example.org", 72 * time.Hour}, {"two-hours@example.org", time.Hour + 57*time.Minute}} {
		if err := box.Dispatch(context.Background(), invitations.Message{Tenant: "t1", TaskID: "task-1", InvitationID: "inv-" + m.recipient,
			Recipient: m.recipient, Link: invitations.Link("http://127.0.0.1:8080", "tok"), Code: "951212", ExpiresAt: time.Now().Add(m.life)}); err != nil {
			t.Fatal(err)
		}
	}
	f := mailboxFixture(t, box)
	b := f.signIn(t, "boss") // a manager: the page may be theirs only
	for lang, want := range map[string][]string{"en": {"in about 2 hours", "in about 3 days"}, "de": {"in etwa 2 Stunden", "in etwa 3 Tagen"}} {
		t.Run(lang, func(t *testing.T) {
			b.lang = lang
			p := b.get("/dev/mailbox").wantStatus(http.StatusOK)
			expires := p.all("dev-mail-expires")
			if len(expires) != 2 {
				t.Fatalf("%d expiry cells", len(expires))
			}
			for i, w := range want { // newest first
				webWantContains(t, "expiry", webText(expires[i]), w)
			}
			for _, cell := range p.all("dev-mail-code") {
				code := webWithinTag(cell, "code")
				if len(code) != 1 || webText(code[0]) != "951212" || !strings.Contains(webAttr(code[0], "class"), "dev-mail__code") {
					t.Fatalf("the code is not one unbreakable code element: %q", webText(cell))
				}
			}
		})
	}
	t.Run("CodeDoesNotWrap", func(t *testing.T) {
		css := b.get(staticHref(t, b.get("/dev/mailbox"), "app.css")).wantStatus(http.StatusOK).body
		rule := regexp.MustCompile(`\.dev-mail__code\s*\{[^}]*\}`).FindString(css)
		if !strings.Contains(rule, "white-space: nowrap") || !strings.Contains(rule, "overflow-wrap: normal") {
			t.Fatalf("the code's rule %q lets it wrap", rule)
		}
	})
}

// staticHref is the versioned href of the page's stylesheet named name.
func staticHref(t *testing.T, p *webPage, name string) string {
	t.Helper()
	m := regexp.MustCompile(`href="(/static/` + regexp.QuoteMeta(name) + `[^"]*)"`).FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("the page links no %s", name)
	}
	return strings.ReplaceAll(m[1], "&amp;", "&")
}
