package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/testfactory"
)

// guestInvite seeds the fixture's task (Available to the group finance, actions approve and
// reject) and issues a code invitation allowed to approve only.
func (f *webFixture) guestInvite(t *testing.T, o *testfactory.InvitationOpts) (models.Task, testfactory.IssuedInvitation) {
	t.Helper()
	task := f.seed(t, webTaskOpts{})
	if o == nil {
		o = &testfactory.InvitationOpts{AllowedActions: []string{"approve"}}
	}
	return task, testfactory.Invitation(context.Background(), t, f.store, task, o)
}

// guestVerify opens the link and posts the code; it returns the verification's answer.
func (b *webBrowser) guestVerify(token, code string) *webPage {
	b.t.Helper()
	screen := b.get("/guest?t=" + url.QueryEscape(token)).wantStatus(http.StatusOK)
	return b.submit(screen, "guest-verify-form", url.Values{"code": {code}}, nil)
}

// guestOpen verifies and opens the task page.
func (b *webBrowser) guestOpen(inv testfactory.IssuedInvitation) *webPage {
	b.t.Helper()
	res := b.guestVerify(inv.Token, inv.Code)
	if res.status != http.StatusSeeOther || res.location != "/guest/task" {
		b.t.Fatalf("verification: %d → %q; body:\n%s", res.status, res.location, res.body)
	}
	return b.follow(res).wantStatus(http.StatusOK)
}

// guestCookieOf is the guest cookie a response set.
func guestCookieOf(p *webPage) *http.Cookie {
	for _, c := range p.cookies {
		if strings.HasSuffix(c.Name, "ut_guest") {
			return c
		}
	}
	return nil
}

// wantGuestHeaders checks what every guest answer carries.
func wantGuestHeaders(t *testing.T, p *webPage, token string) {
	t.Helper()
	if got := p.header.Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy %q, want no-referrer", got)
	}
	if got := p.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", got)
	}
	if token != "" && strings.Contains(p.location, token) {
		t.Errorf("Location %q holds the token", p.location)
	}
}

// wantGuestInvalid checks the one generic failure page.
func wantGuestInvalid(t *testing.T, p *webPage) {
	t.Helper()
	p.wantStatus(http.StatusForbidden)
	p.one("guest-invalid")
	webWantContains(t, "generic page", p.body, "This link is no longer valid")
	if ck := guestCookieOf(p); ck == nil || ck.MaxAge >= 0 {
		t.Errorf("the generic page does not clear the guest cookie: %+v", ck)
	}
}

// wantNoSiteChrome checks that a guest page links nowhere and names nothing of the workflow,
// the history or other participants.
func wantNoSiteChrome(t *testing.T, p *webPage) {
	t.Helper()
	for _, leak := range []string{"/inbox", "/login", "/logout", "/tasks/", "invoice-approval", "Invoice approval", "INV-2026-001",
		"finance", "Ann Approver", "Bea Boss", "eve", "History", "Workflow", "site-nav", "csrf-token"} {
		if strings.Contains(p.body, leak) {
			t.Errorf("the guest page contains %q", leak)
		}
	}
}

func TestGuestPageFlow(t *testing.T) {
	f := newWebFixture(t)
	task, inv := f.guestInvite(t, nil)
	b := f.browser(t)

	screen := b.get("/guest?t=" + inv.Token).wantStatus(http.StatusOK)
	wantGuestHeaders(t, screen, "")
	screen.one("guest-code")
	if strings.Contains(screen.body, task.Title) || strings.Contains(screen.body, task.Summary) {
		t.Fatal("the verification screen tells about the task")
	}
	if got := webAttr(screen.one("guest-verify-form"), "action"); got != "/guest/verify" {
		t.Fatalf("the form posts to %q", got)
	}

	res := b.submit(screen, "guest-verify-form", url.Values{"code": {inv.Code}}, nil)
	if res.status != http.StatusSeeOther || res.location != "/guest/task" {
		t.Fatalf("verification: %d → %q", res.status, res.location)
	}
	wantGuestHeaders(t, res, inv.Token)
	t.Run("CookieFlags", func(t *testing.T) {
		ck := guestCookieOf(res)
		if ck == nil {
			t.Fatal("no guest cookie")
		}
		if ck.Name != "__Host-ut_guest" || !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Domain != "" {
			t.Fatalf("cookie %+v", ck)
		}
		if ck.MaxAge <= 0 || ck.MaxAge > 4*3600 {
			t.Fatalf("cookie max-age %d, want the session's lifetime", ck.MaxAge)
		}
		if ck.Value == inv.Token || strings.Contains(ck.Value, inv.Code) {
			t.Fatal("the cookie holds the token or code")
		}
	})

	page := b.follow(res).wantStatus(http.StatusOK)
	wantGuestHeaders(t, page, "")
	t.Run("TaskPage", func(t *testing.T) {
		webWantContains(t, "title", page.text("guest-title"), task.Title)
		webWantContains(t, "instructions", page.text("instructions"), "Check the IBAN")
		if page.has("action-reject") || !page.has("action-approve") {
			t.Fatal("the page offers other actions than the invitation's")
		}
		for _, id := range []string{"field-decision", "field-amount", "field-comment", "guest-confirm"} {
			page.one(id)
		}
		if page.has("reveal-iban") {
			t.Fatal("a guest may reveal a masked field")
		}
		if strings.Contains(page.body, "<script>alert") {
			t.Fatal("instructions rendered unsafely")
		}
		if got := webAttr(page.one("guest-form"), "action"); got != "/guest/complete" {
			t.Fatalf("the form posts to %q", got)
		}
		wantNoSiteChrome(t, page)
	})

	t.Run("ConfirmationMissing", func(t *testing.T) {
		p := b.submit(page, "guest-form", url.Values{"comment": {"kept ünïcode <b>"}}, page.one("action-approve"))
		p.wantStatus(http.StatusUnprocessableEntity)
		p.one("error-confirm")
		p.one("form-error")
		box := p.one("guest-confirm")
		if webAttr(box, "aria-invalid") != "true" || !strings.Contains(webAttr(box, "aria-describedby"), "guest-confirm-error") {
			t.Fatalf("the box is not marked: %v", box.Attr)
		}
		if got := webText(webByID(p.doc, "f-comment")); got != "kept ünïcode <b>" {
			t.Fatalf("comment %q not kept", got)
		}
		if got := f.current(t, task.ID).Status; got != models.StatusAssigned {
			t.Fatalf("status %s after an unconfirmed post", got)
		}
	})

	t.Run("RefusedForm", func(t *testing.T) {
		p := b.submit(page, "guest-form", url.Values{"amount": {"-5"}, "comment": {"still here"}, "confirm": {"final"}}, page.one("action-approve"))
		p.wantStatus(http.StatusUnprocessableEntity)
		p.one("error-amount")
		in := webByID(p.doc, "f-amount")
		if webAttr(in, "value") != "-5" || webAttr(in, "aria-invalid") != "true" || !strings.Contains(webAttr(in, "aria-describedby"), "f-amount-error") {
			t.Fatalf("amount input %v", in.Attr)
		}
		if !webHasAttr(p.one("guest-confirm"), "checked") {
			t.Fatal("the confirmation was not kept")
		}
	})

	t.Run("ActionNotAllowed", func(t *testing.T) {
		for _, forged := range []string{"reject", "", "Timeout", "../approve", "approve\x00", strings.Repeat("a", 5000)} {
			p := b.submit(page, "guest-form", url.Values{"confirm": {"final"}, "action": {forged}}, nil)
			p.wantStatus(http.StatusUnprocessableEntity)
			p.one("form-error")
		}
		if got := f.current(t, task.ID).Status; got != models.StatusAssigned {
			t.Fatalf("status %s after a refused action", got)
		}
	})

	t.Run("Complete", func(t *testing.T) {
		done := b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-approve"))
		if done.status != http.StatusSeeOther || done.location != "/guest/done" {
			t.Fatalf("complete: %d → %q; body:\n%s", done.status, done.location, done.body)
		}
		wantGuestHeaders(t, done, inv.Token)
		if ck := guestCookieOf(done); ck == nil || ck.MaxAge >= 0 {
			t.Fatalf("the guest cookie is not cleared: %+v", ck)
		}
		got := f.current(t, task.ID)
		if got.Status != models.StatusCompleting || got.Outcome.ActionKey != "approve" {
			t.Fatalf("task %s with action %q", got.Status, got.Outcome.ActionKey)
		}
		thanks := b.follow(done).wantStatus(http.StatusOK)
		thanks.one("guest-done")
		wantNoSiteChrome(t, thanks)
		inv2, err := f.store.FindInvitationByTokenHash(context.Background(), inv.TokenHash)
		if err != nil || inv2.Status != models.InvitationConsumed {
			t.Fatalf("invitation %s, %v; want consumed", inv2.Status, err)
		}
	})

	t.Run("AfterCompletion", func(t *testing.T) {
		wantGuestInvalid(t, b.get("/guest/task"))
		wantGuestInvalid(t, f.browser(t).get("/guest/task")) // no cookie at all
		again := b.guestVerify(inv.Token, inv.Code).wantStatus(http.StatusForbidden)
		again.one("guest-verify-error")
		if guestCookieOf(again) != nil {
			t.Fatal("a consumed invitation verified again")
		}
	})
}
