package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"usertasks/testfactory"
)

// TestAttackCSRFEveryForm walks the router's route table: every state-changing page route
// refuses a post without the CSRF token, with a made-up one and with another session's, and
// then accepts the same post with the right token (so the refusal was the token's). Signed-in
// routes are posted as a manager, the guest routes as a guest, the sign-in form anonymously. A
// page route added later is covered without being listed here. The JSON API, reached with the
// session cookie alone, refuses the same way.
func TestAttackCSRFEveryForm(t *testing.T) {
	f := newAttackFixture(t)
	task := f.task(t, "t1", nil)
	other := f.signInAs(t, "t1", "ann")
	otherToken := other.get("/inbox").csrf()
	params := map[string]string{"id": task.ID, "invitationId": "unknown"}

	posted := 0
	for _, r := range f.routes() {
		if r.Method == http.MethodGet || strings.HasPrefix(r.Path, "/api/") || oneClickRoutes[r.Path] {
			continue
		}
		path := fillRoute(r.Path, params)
		t.Run(r.Method+" "+r.Path, func(t *testing.T) {
			posted++
			b, form, good := f.csrfVictim(t, r.Path)
			for name, token := range map[string]string{"Missing": "", "MadeUp": madeUp(good), "OtherSession": otherToken} {
				vals := url.Values{}
				for k, v := range form {
					vals[k] = v
				}
				if token != "" {
					vals.Set("csrf_token", token)
				}
				if got := b.send(r.Method, path, vals); got.status != http.StatusForbidden {
					t.Errorf("%s token: %d, want 403", name, got.status)
				}
			}
			form.Set("csrf_token", good)
			if got := b.send(r.Method, path, form); got.status == http.StatusForbidden || got.status >= 500 {
				t.Errorf("with the right token: %d, want the form handled", got.status)
			}
		})
	}
	if posted < 20 {
		t.Fatalf("only %d page forms in the route table", posted)
	}
	if got := f.current(t, task.ID); got.Revision != task.Revision {
		t.Errorf("the task moved to revision %d by refused posts", got.Revision)
	}

	t.Run("APIWithTheCookieAlone", func(t *testing.T) {
		b := f.signInAs(t, "t1", "boss")
		for _, r := range f.routes() {
			if r.Method == http.MethodGet || !strings.HasPrefix(r.Path, "/api/") {
				continue
			}
			path := fillRoute(r.Path, map[string]string{"id": task.ID, "invitationId": "unknown", "token": "unknown"})
			for _, csrf := range []string{"", otherToken} {
				got := b.api(r.Method, path, csrf)
				if got.status != http.StatusUnauthorized && got.status != http.StatusForbidden {
					t.Errorf("%s %s with the session cookie, CSRF %q: %d %s", r.Method, path, csrf, got.status, got.body)
				}
			}
		}
		if got := f.current(t, task.ID); got.Revision != task.Revision {
			t.Errorf("the task moved to revision %d", got.Revision)
		}
	})
}

// csrfVictim is a browser entitled to post to the route, the form it would send (less the
// token) and its right token: an anonymous visitor for the sign-in form, a verified guest for
// the guest pages (a visitor holding the link for the verification), else a manager.
func (f *attackFixture) csrfVictim(t *testing.T, route string) (*webBrowser, url.Values, string) {
	t.Helper()
	switch {
	case route == "/login/dev":
		b := f.browser(t)
		return b, url.Values{"user": {"t1/boss"}}, b.get("/login").csrf()
	case route == "/guest/verify" || route == "/guest/complete":
		inv := f.invitation(t)
		b := f.browser(t)
		verifyToken := hiddenCSRF(t, b.get("/guest?t="+url.QueryEscape(inv.Token)))
		form := url.Values{"t": {inv.Token}, "code": {inv.Code}}
		if route == "/guest/verify" {
			return b, form, verifyToken
		}
		form.Set("csrf_token", verifyToken)
		if res := b.post("/guest/verify", form); res.status != http.StatusSeeOther {
			t.Fatalf("guest verification: %d", res.status)
		}
		return b, url.Values{"action": {"Complete"}, "confirm": {"on"}}, hiddenCSRF(t, b.get("/guest/task"))
	case strings.HasPrefix(route, "/guest"):
		t.Fatalf("a guest form this test does not know: %s", route)
	}
	b := f.signInAs(t, "t1", "boss")
	return b, url.Values{}, b.get("/inbox").csrf()
}

// oneClickRoutes take no CSRF token by design: RFC 8058's one-click unsubscribe is a mail
// client's POST without cookies, and its signed token is the capability
// (TestUnsubscribeBadTokens refuses the rest).
var oneClickRoutes = map[string]bool{"/notifications/unsubscribe": true}

// invitation is a code invitation to a new task of t1 that nobody has claimed.
func (f *attackFixture) invitation(t *testing.T) testfactory.IssuedInvitation {
	t.Helper()
	task := testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{Candidates: []string{"ann"}, Form: approvalForm, Data: approvalData})
	return testfactory.Invitation(context.Background(), t, f.store, task, nil)
}

// send posts a form with any method.
func (b *webBrowser) send(method, path string, form url.Values) *webPage {
	b.t.Helper()
	req, _ := http.NewRequest(method, b.f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// madeUp is a token of the right shape that is not good.
func madeUp(good string) string {
	if good[0] == 'A' {
		return "B" + good[1:]
	}
	return "A" + good[1:]
}

var hiddenCSRFField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// hiddenCSRF is the token of the page's first form (the guest pages have no meta tag).
// languageSwitchForm is the header's language switcher, whose token is the anonymous binding's
// on guest pages: hiddenCSRF reads the page's own form.
var languageSwitchForm = regexp.MustCompile(`(?s)<form[^>]*data-testid="lang-switch".*?</form>`)

func hiddenCSRF(t *testing.T, p *webPage) string {
	t.Helper()
	m := hiddenCSRFField.FindStringSubmatch(languageSwitchForm.ReplaceAllString(p.body, ""))
	if m == nil {
		t.Fatalf("no CSRF field; status %d", p.status)
	}
	return m[1]
}
