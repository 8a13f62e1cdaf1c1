package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
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
