package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// guestInvite seeds the fixture's task (Available to the group finance, actions approve and
// reject) and issues a code invitation allowed to approve only.
func (f *sessionFixture) guestInvite(t *testing.T, o *testfactory.InvitationOpts) (models.Task, testfactory.IssuedInvitation) {
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
	f := newSessionFixture(t, sessionFixtureOpts{})
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
		if ck := guestCookieOf(done); ck == nil || ck.MaxAge > 3600 {
			t.Fatalf("the guest cookie is not kept for the done page only: %+v", ck) // TestGuestPageDone
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
		again.one("guest-used") // the right code learns why (TestGuestPageReusedLink)
		if guestCookieOf(again) != nil {
			t.Fatal("a consumed invitation verified again")
		}
	})
}

func TestGuestPageSameScreenForAnyToken(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	_, inv := f.guestInvite(t, nil)
	unknown := strings.Repeat("A", len(inv.Token))
	b := f.browser(t)
	norm := func(p *webPage, token string) string {
		body := p.body
		if token != "" {
			body = strings.ReplaceAll(body, `value="`+token+`"`, `value=""`)
		}
		return body
	}
	want := norm(b.get("/guest?t="+inv.Token).wantStatus(http.StatusOK), inv.Token)
	for _, tok := range []string{unknown, "", "short", "a/b?c#d e", "ünïcödé", "\x01\x7f", strings.Repeat("x", 5000), inv.Token + "x"} {
		p := b.get("/guest?t=" + url.QueryEscape(tok)).wantStatus(http.StatusOK)
		wantGuestHeaders(t, p, "")
		if got := norm(p, tok); got != want {
			t.Errorf("token %q: the screen differs from a valid token's:\n%s\nwant\n%s", tok, got, want)
		}
	}
	if p := b.get("/guest").wantStatus(http.StatusOK); norm(p, "") != want {
		t.Error("/guest without a token differs from a valid token's screen")
	}
}

func TestGuestPageBearer(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	task, inv := f.guestInvite(t, &testfactory.InvitationOpts{Bearer: true, AllowedActions: []string{"approve", "reject"}})
	b := f.browser(t)
	// As a browser posts from a page without a referrer: Origin null, marked same-origin.
	b.header = http.Header{"Origin": {"null"}, "Sec-Fetch-Site": {"same-origin"}}
	screen := b.get("/guest?t=" + inv.Token).wantStatus(http.StatusOK)
	if screen.has("guest-code") || !screen.has("guest-continue") {
		t.Fatal("a bearer invitation asks for a code")
	}
	page := b.follow(b.submit(screen, "guest-verify-form", nil, nil)).wantStatus(http.StatusOK)
	webWantContains(t, "title", page.text("guest-title"), task.Title)
	page.one("action-approve")
	page.one("action-reject")
	done := b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-reject"))
	if done.status != http.StatusSeeOther || done.location != "/guest/done" {
		t.Fatalf("complete: %d → %q", done.status, done.location)
	}
	if got := f.current(t, task.ID); got.Outcome.ActionKey != "reject" {
		t.Fatalf("outcome %q, want reject", got.Outcome.ActionKey)
	}
}

func TestGuestPageWrongCode(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	_, inv := f.guestInvite(t, nil)
	wrong := "000000"
	if inv.Code == wrong {
		wrong = "999999"
	}
	b := f.browser(t)
	for name, try := range map[string]struct{ token, code string }{
		"WrongCode":    {inv.Token, wrong},
		"NoCode":       {inv.Token, ""},
		"HostileCode":  {inv.Token, "12345\x00"},
		"UnknownToken": {strings.Repeat("A", len(inv.Token)), inv.Code},
		"HostileToken": {"a/b?c#d e\u202e", inv.Code},
	} {
		t.Run(name, func(t *testing.T) {
			p := b.guestVerify(try.token, try.code).wantStatus(http.StatusForbidden)
			wantGuestHeaders(t, p, inv.Token)
			webWantContains(t, "message", p.text("guest-verify-error"), "the code is wrong, or the link is no longer valid")
			code := p.one("guest-code")
			if webAttr(code, "aria-invalid") != "true" || !strings.Contains(webAttr(code, "aria-describedby"), "guest-verify-error") {
				t.Fatalf("the code field is not marked: %v", code.Attr)
			}
			if guestCookieOf(p) != nil {
				t.Fatal("a refused verification set the guest cookie")
			}
		})
	}
	t.Run("FiveWrongCodes", func(t *testing.T) {
		got, _ := f.store.FindInvitationByTokenHash(context.Background(), inv.TokenHash)
		for range models.MaxCodeAttempts - got.CodeAttempts {
			b.guestVerify(inv.Token, wrong).wantStatus(http.StatusForbidden)
		}
		p := b.guestVerify(inv.Token, inv.Code).wantStatus(http.StatusForbidden)
		p.one("guest-verify-error")
		if got, _ := f.store.FindInvitationByTokenHash(context.Background(), inv.TokenHash); got.Status != models.InvitationRevoked {
			t.Fatalf("invitation %s after %d wrong codes", got.Status, models.MaxCodeAttempts)
		}
	})
}

func TestGuestPageCSRF(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	task, inv := f.guestInvite(t, nil)
	b := f.browser(t)
	screen := b.get("/guest?t=" + inv.Token).wantStatus(http.StatusOK)
	for name, set := range map[string]url.Values{
		"Missing": {"csrf_token": {""}, "code": {inv.Code}},
		"Wrong":   {"csrf_token": {"forged"}, "code": {inv.Code}},
	} {
		t.Run("Verify"+name, func(t *testing.T) {
			p := b.submit(screen, "guest-verify-form", set, nil).wantStatus(http.StatusForbidden)
			p.one("guest-refused")
			if guestCookieOf(p) != nil {
				t.Fatal("verified without a CSRF token")
			}
		})
	}
	t.Run("VerifyNullOriginCrossSite", func(t *testing.T) {
		b.header = http.Header{"Origin": {"null"}, "Sec-Fetch-Site": {"cross-site"}}
		defer func() { b.header = nil }()
		b.submit(screen, "guest-verify-form", url.Values{"code": {inv.Code}}, nil).wantStatus(http.StatusForbidden)
	})
	t.Run("VerifyCrossSite", func(t *testing.T) {
		b.header = http.Header{"Sec-Fetch-Site": {"cross-site"}}
		defer func() { b.header = nil }()
		b.submit(screen, "guest-verify-form", url.Values{"code": {inv.Code}}, nil).wantStatus(http.StatusForbidden)
	})
	if got, _ := f.store.FindInvitationByTokenHash(context.Background(), inv.TokenHash); got.Status == models.InvitationVerified || got.CodeAttempts != 0 {
		t.Fatalf("refused posts reached the invitation: %s, %d attempts", got.Status, got.CodeAttempts)
	}

	page := b.guestOpen(inv)
	anonymous := guestFormToken(screen, "guest-verify-form")
	for name, set := range map[string]url.Values{
		"Missing":        {"csrf_token": {""}, "confirm": {"final"}},
		"Wrong":          {"csrf_token": {"forged"}, "confirm": {"final"}},
		"AnonymousToken": {"csrf_token": {anonymous}, "confirm": {"final"}},
	} {
		t.Run("Complete"+name, func(t *testing.T) {
			b.submit(page, "guest-form", set, page.one("action-approve")).wantStatus(http.StatusForbidden).one("guest-refused")
		})
	}
	if got := f.current(t, task.ID).Status; got != models.StatusAssigned {
		t.Fatalf("status %s after refused posts", got)
	}
	// The session survived the refusals.
	b.get("/guest/task").wantStatus(http.StatusOK)
}

func TestGuestPageRateLimit(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	_, inv := f.guestInvite(t, nil)
	b := f.browser(t)
	screen := b.get("/guest?t=" + inv.Token).wantStatus(http.StatusOK)
	// The JSON invitation endpoints and the page share one budget per remote address.
	for i := range 4 {
		res, err := http.Post(f.srv.URL+"/api/v1/user-task-invitations/"+url.PathEscape("bad-token-"+string(rune('a'+i)))+"/verify",
			"application/json", strings.NewReader(`{"code":"123456"}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Fatalf("API attempt %d: %d", i+1, res.StatusCode)
		}
	}
	for i := range 6 {
		b.submit(screen, "guest-verify-form", url.Values{"code": {"12345" + string(rune('0'+i))}}, nil)
	}
	p := b.submit(screen, "guest-verify-form", url.Values{"code": {inv.Code}}, nil).wantStatus(http.StatusTooManyRequests)
	p.one("guest-rate-limited")
	wantGuestHeaders(t, p, inv.Token)
	if p.header.Get("Retry-After") == "" || guestCookieOf(p) != nil {
		t.Fatalf("429 without Retry-After, or with a session")
	}
	if got, _ := f.store.FindInvitationByTokenHash(context.Background(), inv.TokenHash); got.Status == models.InvitationVerified {
		t.Fatal("the 11th attempt verified")
	}
}

func TestGuestPageDeadSession(t *testing.T) {
	ctx := context.Background()
	boss := testfactory.Manager("t1", "boss")
	for name, kill := range map[string]func(t *testing.T, f *sessionFixture, task models.Task){
		"Reassigned": func(t *testing.T, f *sessionFixture, task models.Task) {
			cur := f.current(t, task.ID)
			if _, err := f.svc.Assign(ctx, boss, task.ID, tasks.AssignInput{Common: tasks.Common{ExpectedRevision: cur.Revision},
				Assignee: testfactory.User("t1", "bob")}); err != nil {
				t.Fatal(err)
			}
		},
		"Revoked": func(t *testing.T, f *sessionFixture, task models.Task) {
			invs, err := f.store.Invitations(ctx, "t1", task.ID)
			if err != nil || len(invs) != 1 {
				t.Fatalf("invitations %v, %v", invs, err)
			}
			if _, err := invitations.NewIssuer(f.store, invitations.IssuerOptions{}).Revoke(ctx, boss, task.ID, invs[0].ID); err != nil {
				t.Fatal(err)
			}
		},
		"Closed": func(t *testing.T, f *sessionFixture, task models.Task) {
			cur := f.current(t, task.ID)
			if _, err := f.svc.Cancel(ctx, boss, task.ID, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: cur.Revision, OperationID: "op-cancel"},
				Reason: "no longer needed"}); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newSessionFixture(t, sessionFixtureOpts{})
			task, inv := f.guestInvite(t, nil)
			b := f.browser(t)
			page := b.guestOpen(inv)
			cookie := b.guestCookieHeader()
			kill(t, f, task)
			// The page and the form still open in the browser, each with the live cookie.
			for _, replay := range []func(*webBrowser) *webPage{
				func(b *webBrowser) *webPage { return b.get("/guest/task") },
				func(b *webBrowser) *webPage {
					return b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-approve"))
				},
			} {
				fresh := f.browser(t)
				fresh.header = http.Header{"Cookie": {cookie}}
				wantGuestInvalid(t, replay(fresh))
			}
		})
	}
}

// guestCookieHeader is the browser's guest cookie as a Cookie header.
func (b *webBrowser) guestCookieHeader() string {
	b.t.Helper()
	u, _ := url.Parse(b.f.srv.URL + "/guest/task")
	for _, c := range b.client.Jar.Cookies(u) {
		if strings.HasSuffix(c.Name, "ut_guest") {
			return c.Name + "=" + c.Value
		}
	}
	b.t.Fatal("no guest cookie in the browser")
	return ""
}

// guestFormToken is the CSRF token a guest form posts (guest pages have no csrf-token meta:
// no script posts from them).
func guestFormToken(p *webPage, formTestID string) string {
	return webFormValues(p.one(formTestID)).Get("csrf_token")
}

func TestGuestPageExpired(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	_, inv := f.guestInvite(t, nil)
	b := f.browser(t)
	b.guestOpen(inv)
	f.clock.Advance(4*time.Hour + time.Minute) // the guest session lives 4 hours at most
	wantGuestInvalid(t, b.get("/guest/task"))
}

func TestGuestCookieOpensNothingElse(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	task, inv := f.guestInvite(t, nil)
	b := f.browser(t)
	b.guestOpen(inv)
	// (Not "/": in dev mode it signs an anonymous visitor in as the first demo user.)
	for _, path := range []string{"/inbox", "/inbox?tab=all", "/tasks/" + task.ID, "/tasks/" + task.ID + "?tab=history"} {
		p := b.get(path)
		if p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/login") {
			t.Errorf("%s with the guest cookie: %d → %q, want the sign-in page", path, p.status, p.location)
		}
	}
	for _, r := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/user-tasks"},
		{http.MethodGet, "/api/v1/user-tasks/" + task.ID},
		{http.MethodGet, "/api/v1/user-tasks/" + task.ID + "/events"},
		{http.MethodPost, "/api/v1/user-tasks/" + task.ID + "/complete"},
		{http.MethodPost, "/api/v1/user-tasks/" + task.ID + "/release"},
		{http.MethodGet, "/api/v1/user-task-sessions/current"},
		{http.MethodPost, "/api/v1/user-task-sessions/current/complete"},
	} {
		p := b.api(r.method, r.path, "")
		if p.status != http.StatusUnauthorized && p.status != http.StatusForbidden {
			t.Errorf("%s %s with the guest cookie: %d", r.method, r.path, p.status)
		}
	}
	post := b.post("/tasks/"+task.ID+"/complete", url.Values{"action": {"approve"}, "expectedRevision": {"2"}})
	if post.status != http.StatusSeeOther || !strings.HasPrefix(post.location, "/login") {
		t.Errorf("POST /tasks/{id}/complete with the guest cookie: %d → %q", post.status, post.location)
	}
	if got := f.current(t, task.ID).Status; got != models.StatusAssigned {
		t.Fatalf("status %s", got)
	}
}

func TestGuestPageDevCookie(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{dev: true})
	_, inv := f.guestInvite(t, nil)
	res := f.browser(t).guestVerify(inv.Token, inv.Code)
	ck := guestCookieOf(res)
	if res.status != http.StatusSeeOther || ck == nil || ck.Name != "ut_guest" || ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode {
		t.Fatalf("dev mode: %d, cookie %+v", res.status, ck)
	}
}

func TestGuestPageGerman(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	_, inv := f.guestInvite(t, nil)
	b := f.browser(t)
	b.lang = "de-DE,de;q=0.9,en;q=0.5"
	screen := b.get("/guest?t=" + inv.Token).wantStatus(http.StatusOK)
	if screen.lang() != "de" || screen.header.Get("Content-Language") != "de" {
		t.Fatalf("lang %q", screen.lang())
	}
	webWantContains(t, "screen", screen.text("guest-verify"), "Ihre Aufgabe öffnen")
	page := b.follow(b.submit(screen, "guest-verify-form", url.Values{"code": {inv.Code}}, nil)).wantStatus(http.StatusOK)
	webWantContains(t, "note", page.text("guest-note"), "Sie wurden eingeladen")
	p := b.submit(page, "guest-form", nil, page.one("action-approve")).wantStatus(http.StatusUnprocessableEntity)
	webWantContains(t, "confirmation", p.text("error-confirm"), "Bestätigen Sie")
	done := b.follow(b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-approve")))
	webWantContains(t, "done", done.text("guest-done"), "Vielen Dank")
	invalid := b.get("/guest/task")
	webWantContains(t, "generic", invalid.text("guest-invalid"), "Dieser Link ist nicht mehr gültig")
}

// TestGuestPageLogsNoSecret walks the guest pages with every kind of refusal and checks that no
// log line holds the token, the code or the session credential.
func TestGuestPageLogsNoSecret(t *testing.T) {
	var logs strings.Builder
	f := newSessionFixture(t, sessionFixtureOpts{logs: &logs})
	_, inv := f.guestInvite(t, nil)
	b := f.browser(t)
	wrong := "000000"
	if inv.Code == wrong {
		wrong = "999999"
	}
	b.guestVerify(inv.Token, wrong).wantStatus(http.StatusForbidden)
	page := b.guestOpen(inv)
	credential := b.guestCookieHeader()
	b.submit(page, "guest-form", url.Values{"csrf_token": {"forged"}}, page.one("action-approve")).wantStatus(http.StatusForbidden)
	b.submit(page, "guest-form", nil, page.one("action-approve")).wantStatus(http.StatusUnprocessableEntity)
	b.follow(b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-approve"))).wantStatus(http.StatusOK)
	wantGuestInvalid(t, b.get("/guest/task"))
	if !strings.Contains(logs.String(), "/guest/verify") {
		t.Fatal("nothing was logged; the check would prove nothing")
	}
	_, value, _ := strings.Cut(credential, "=")
	for name, secret := range map[string]string{"token": inv.Token, "credential": value} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds the %s", name)
		}
	}
	if regexp.MustCompile(`(^|\D)` + inv.Code + `(\D|$)`).MatchString(logs.String()) {
		t.Error("the log holds the code")
	}
}

// TestGuestPageReusedLink: a link used already (its task opened in another browser, or
// completed) says so to whoever presents its right code; a wrong code gets the answer any wrong
// code gets, so someone without the code learns nothing (issue 26, item 6).
func TestGuestPageReusedLink(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	_, inv := f.guestInvite(t, nil)
	wrong := "000000"
	if inv.Code == wrong {
		wrong = "999999"
	}
	_, live := f.guestInvite(t, nil) // a second, unused invitation: what any wrong code gets
	before := f.browser(t).guestVerify(live.Token, wrong).wantStatus(http.StatusForbidden)

	wantUsed := func(t *testing.T, p *webPage) {
		t.Helper()
		p.wantStatus(http.StatusForbidden)
		p.one("guest-used")
		webWantContains(t, "message", p.body, "This link has been used")
		if p.has("guest-verify-error") || strings.Contains(p.body, "the code is wrong") {
			t.Error("the right code is called wrong")
		}
		if guestCookieOf(p) != nil && guestCookieOf(p).MaxAge >= 0 {
			t.Error("a used link opened a session")
		}
		wantNoSiteChrome(t, p)
	}
	wantWrong := func(t *testing.T, p *webPage) {
		t.Helper()
		p.wantStatus(before.status)
		if p.has("guest-used") || strings.Contains(p.body, "has been used") {
			t.Error("a wrong code learns that the link was used")
		}
		if got, want := p.text("guest-verify-error"), before.text("guest-verify-error"); got != want {
			t.Errorf("wrong code message %q, want %q (an unused link's)", got, want)
		}
	}

	b := f.browser(t)
	page := b.guestOpen(inv)
	t.Run("Verified", func(t *testing.T) { // opened in one browser, the link again in another
		wantUsed(t, f.browser(t).guestVerify(inv.Token, inv.Code))
		wantWrong(t, f.browser(t).guestVerify(inv.Token, wrong))
		b.get("/guest/task").wantStatus(http.StatusOK) // the first browser keeps its session
	})
	done := b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-approve"))
	if done.status != http.StatusSeeOther {
		t.Fatalf("complete: %d", done.status)
	}
	t.Run("Consumed", func(t *testing.T) {
		wantUsed(t, f.browser(t).guestVerify(inv.Token, inv.Code))
		for _, code := range []string{wrong, "", "12345\x00", "<b>1</b>"} {
			wantWrong(t, f.browser(t).guestVerify(inv.Token, code))
		}
	})
	t.Run("German", func(t *testing.T) {
		g := f.browser(t)
		g.header = http.Header{"Accept-Language": {"de"}}
		p := g.guestVerify(inv.Token, inv.Code).wantStatus(http.StatusForbidden)
		webWantContains(t, "message", p.body, "Dieser Link wurde bereits verwendet")
	})
	if got, _ := f.store.FindInvitationByTokenHash(context.Background(), inv.TokenHash); got.CodeAttempts != 0 || got.Status != models.InvitationConsumed {
		t.Fatalf("invitation %s with %d attempts", got.Status, got.CodeAttempts)
	}
}

// TestGuestPageDone: the done page names the task and the answer given and says the window may
// be closed; a browser without that guest's finished session sees the one generic page, which
// names nothing (issue 26, item 21).
func TestGuestPageDone(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	task, inv := f.guestInvite(t, &testfactory.InvitationOpts{AllowedActions: []string{"approve", "reject"}})
	_, other := f.guestInvite(t, nil)
	b := f.browser(t)
	page := b.guestOpen(inv)
	early := f.browser(t) // the session, not done yet: nothing to show
	early.header = http.Header{"Cookie": {b.guestCookieHeader()}}
	wantGuestInvalid(t, early.get("/guest/done"))
	done := b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-reject"))
	if done.status != http.StatusSeeOther || done.location != "/guest/done" {
		t.Fatalf("complete: %d → %q", done.status, done.location)
	}
	if ck := guestCookieOf(done); ck == nil || ck.MaxAge <= 0 || ck.MaxAge > 3600 {
		t.Fatalf("the guest cookie after completion %+v, want it kept at most an hour for the done page", ck)
	}
	wantDone := func(t *testing.T, p *webPage, title, answer, closing string) {
		t.Helper()
		p.wantStatus(http.StatusOK)
		p.one("guest-done")
		webWantContains(t, "task", p.text("guest-done-task"), title)
		webWantContains(t, "answer", p.text("guest-done-answer"), answer)
		webWantContains(t, "closing", p.text("guest-done"), closing)
		wantNoSiteChrome(t, p)
	}
	thanks := b.follow(done)
	wantDone(t, thanks, task.Title, "Reject", "You may close this window")
	t.Run("Reload", func(t *testing.T) { wantDone(t, b.get("/guest/done"), task.Title, "Reject", "close this window") })
	t.Run("German", func(t *testing.T) {
		b.lang = "de"
		defer func() { b.lang = "" }()
		wantDone(t, b.get("/guest/done"), task.Title, "Reject", "Sie können dieses Fenster schließen")
	})

	nothing := func(t *testing.T, p *webPage) {
		t.Helper()
		wantGuestInvalid(t, p)
		for _, leak := range []string{task.Title, "Reject", "guest-done"} {
			if strings.Contains(p.body, leak) {
				t.Errorf("the page shows %q", leak)
			}
		}
	}
	t.Run("NoSession", func(t *testing.T) { nothing(t, f.browser(t).get("/guest/done")) })
	t.Run("ForgedCookie", func(t *testing.T) {
		fresh := f.browser(t)
		fresh.header = http.Header{"Cookie": {"__Host-ut_guest=" + strings.Repeat("A", 43)}}
		nothing(t, fresh.get("/guest/done"))
	})
	t.Run("AnotherGuestsLiveSession", func(t *testing.T) {
		g := f.browser(t)
		g.guestOpen(other)
		nothing(t, g.get("/guest/done"))
	})
	t.Run("AfterAnHour", func(t *testing.T) {
		cookie := b.guestCookieHeader()
		f.clock.Advance(time.Hour + time.Minute)
		fresh := f.browser(t)
		fresh.header = http.Header{"Cookie": {cookie}}
		nothing(t, fresh.get("/guest/done"))
	})
}

// TestGuestCompletionNamesRecipient: a task a guest completed names the invitation's recipient,
// as the manager entered it, in its outcome and History, marked as a guest, not "by Guest"
// (issue 26, item 15).
func TestGuestCompletionNamesRecipient(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	recipient := "Tereza <b>Travel</b> & Co"
	task, inv := f.guestInvite(t, &testfactory.InvitationOpts{AllowedActions: []string{"approve"}, Recipient: recipient})
	b := f.browser(t)
	page := b.guestOpen(inv)
	if done := b.submit(page, "guest-form", url.Values{"confirm": {"final"}}, page.one("action-approve")); done.status != http.StatusSeeOther {
		t.Fatalf("complete: %d", done.status)
	}
	boss := f.signIn(t, "boss")
	want := recipient + " (guest)"
	t.Run("Outcome", func(t *testing.T) {
		p := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		if got := p.text("task-outcome"); !strings.Contains(got, want) || strings.Contains(got, "by Guest") {
			t.Fatalf("outcome %q, want it to name %q", got, want)
		}
		if strings.Contains(p.body, "<b>Travel</b>") {
			t.Fatal("the recipient is not escaped")
		}
	})
	t.Run("History", func(t *testing.T) {
		p := boss.get("/tasks/" + task.ID + "?tab=history").wantStatus(http.StatusOK)
		var named []string
		for _, e := range p.all("event") {
			if txt := webText(e); strings.Contains(txt, want) {
				named = append(named, webAttr(e, "data-event-type"))
			}
		}
		if !slices.Contains(named, string(models.EventCompletionRequested)) || !slices.Contains(named, string(models.EventInvitationVerified)) {
			t.Fatalf("events naming the recipient: %v; history:\n%s", named, p.text("history"))
		}
		if strings.Contains(p.text("history"), "by Guest") {
			t.Fatal("the history still says Guest")
		}
	})
	t.Run("NotToOthers", func(t *testing.T) {
		for _, who := range []string{"ann", "bob", "otto"} {
			p := f.signIn(t, who).get("/tasks/" + task.ID)
			if strings.Contains(p.body, "Tereza") {
				t.Errorf("%s (%d) sees the recipient", who, p.status)
			}
		}
	})
	t.Run("German", func(t *testing.T) {
		boss.lang = "de"
		defer func() { boss.lang = "" }()
		p := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		webWantContains(t, "outcome", p.text("task-outcome"), recipient+" (Gast)")
	})
}
