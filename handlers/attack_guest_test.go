package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/models"
)

// TestAttackGuestEveryOtherRoute: a verified guest — with its page cookie, and with its
// session credential as `UserTaskSession` and as a bearer token — tries every route of the
// router that is not the guest's own. Pages send it to sign in, the JSON API refuses it (401),
// the public documents stay public; nothing answers with a task. Walked from the route table,
// so a route added later is tried too.
func TestAttackGuestEveryOtherRoute(t *testing.T) {
	f := newAttackFixture(t)
	inv := f.invitation(t)
	b := f.browser(t)
	verify := url.Values{"t": {inv.Token}, "code": {inv.Code}, "csrf_token": {hiddenCSRF(t, b.get("/guest?t="+url.QueryEscape(inv.Token)))}}
	if res := b.post("/guest/verify", verify); res.status != http.StatusSeeOther {
		t.Fatalf("guest verification: %d", res.status)
	}
	page := b.get("/guest/task")
	if page.status != http.StatusOK {
		t.Fatalf("guest task page: %d", page.status)
	}
	guestCSRF := hiddenCSRF(t, page)
	var credential string
	for _, c := range b.client.Jar.Cookies(mustURL(t, f.srv.URL)) {
		if strings.HasSuffix(c.Name, "ut_guest") {
			credential = c.Value
		}
	}
	if credential == "" {
		t.Fatal("no guest cookie")
	}
	// Public to anyone, guest or not; the start page signs a visitor in as a demo user in dev
	// mode (this fixture's), by design.
	public := map[string]bool{"/": true, "/healthz": true, "/readyz": true, "/api/v1/openapi.json": true, "/login": true,
		"/static/*": true, "/favicon.ico": true, "/login/oidc": true, "/login/oidc/callback": true,
		"/notifications/unsubscribe": true} // its signed token is the capability, no session
	params := map[string]string{"id": inv.TaskID, "invitationId": inv.ID, "token": "unknown"}

	tried := 0
	for _, r := range f.routes() {
		if public[r.Path] || strings.HasPrefix(r.Path, "/guest") || strings.HasPrefix(r.Path, "/api/v1/user-task-invitations/") ||
			strings.HasPrefix(r.Path, "/api/v1/user-task-sessions/") {
			continue
		}
		path := fillRoute(r.Path, params)
		tried++
		if strings.HasPrefix(r.Path, "/api/") {
			for _, scheme := range []string{"UserTaskSession ", "Bearer "} {
				req, _ := http.NewRequest(r.Method, f.srv.URL+path, strings.NewReader("{}"))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", scheme+credential)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if res.StatusCode != http.StatusUnauthorized {
					t.Errorf("%s %s with %s: %d, want 401", r.Method, path, scheme, res.StatusCode)
				}
			}
		}
		// The guest's browser, cookie and all (and the guest page's token, for posts).
		got := b.send(r.Method, path, url.Values{"csrf_token": {guestCSRF}, "expectedRevision": {"1"}})
		switch {
		case strings.HasPrefix(r.Path, "/api/") || r.Path == "/metrics": // /metrics takes its own bearer token
			if got.status != http.StatusUnauthorized && got.status != http.StatusForbidden {
				t.Errorf("%s %s with the guest cookie: %d, want 401 or 403", r.Method, path, got.status)
			}
		case r.Method == http.MethodGet:
			if got.status != http.StatusSeeOther || !strings.HasPrefix(got.location, "/login") {
				t.Errorf("%s %s with the guest cookie: %d → %q, want the sign-in page", r.Method, path, got.status, got.location)
			}
		default:
			if got.status != http.StatusSeeOther && got.status != http.StatusForbidden {
				t.Errorf("%s %s with the guest cookie: %d, want refused", r.Method, path, got.status)
			}
			if got.status == http.StatusSeeOther && !strings.HasPrefix(got.location, "/login") {
				t.Errorf("%s %s with the guest cookie: redirected to %q, want the sign-in page", r.Method, path, got.location)
			}
		}
		if strings.Contains(got.body, "Approve invoice") || strings.Contains(got.body, "looks fine") {
			t.Errorf("%s %s shows the guest its task's content outside the guest pages", r.Method, path)
		}
	}
	if tried < 40 {
		t.Fatalf("only %d routes tried", tried)
	}
	task := f.current(t, inv.TaskID)
	if !task.Status.IsOpen() || task.Revision != 2 { // 2: the verification assigned it to the guest
		t.Errorf("the guest's task is %s at revision %d", task.Status, task.Revision)
	}
	if task.Assignee == nil || task.Assignee.Provider != models.GuestProvider {
		t.Errorf("assignee = %+v, want still the guest", task.Assignee)
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
