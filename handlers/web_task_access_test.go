package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/tasks"
)

// accessEvents counts a task's access-explained events.
func accessEvents(t *testing.T, f *webFixture, id string) int {
	t.Helper()
	n := 0
	for _, e := range f.events(t, id) {
		if e.Type == models.EventAccessExplained {
			n++
		}
	}
	return n
}

// askAccess fills the Manage panel's "Check access" form of the task page and sends it (GET).
func askAccess(t *testing.T, b *webBrowser, taskID, typ, id string) *webPage {
	t.Helper()
	page := b.get("/tasks/" + taskID).wantStatus(http.StatusOK)
	form := page.one("manage-access")
	if m := webAttr(form, "method"); m != "get" {
		t.Fatalf("the Check access form uses %q, want get", m)
	}
	values := webFormValues(form)
	if _, ok := values["csrf_token"]; ok {
		t.Errorf("a GET form carries the CSRF token into the URL")
	}
	values.Set("type", typ)
	values.Set("id", id)
	return b.get(webAttr(form, "action") + "?" + values.Encode())
}

// verdicts reads each decision's allowed flag and its step rules from an access page.
func verdicts(t *testing.T, p *webPage) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, key := range []string{"view", "claim", "complete"} {
		d := p.one("access-" + key)
		v := webWithin(d, "access-verdict")
		if len(v) != 1 {
			t.Fatalf("%s has %d verdicts", key, len(v))
		}
		var rules []string
		webWalk(d, func(n *html.Node) {
			if r := webAttr(n, "data-rule"); n.Type == html.ElementNode && r != "" {
				rules = append(rules, r+":"+webAttr(n, "data-effect"))
			}
		})
		out[key] = webAttr(v[0], "data-allowed") + " " + strings.Join(rules, ",")
	}
	return out
}

func TestAccessPage(t *testing.T) {
	dir := directory.Static{Tenants: map[string]directory.StaticTenant{"t1": {
		Users: []directory.StaticUser{{ID: "ann", DisplayName: "Ann Approver", Groups: []string{"finance"}}, {ID: "bob"}},
	}}}
	f := newWebFixtureService(t, tasks.Options{Directory: dir}, nil)
	task := f.seed(t, webTaskOpts{})
	boss := f.signIn(t, "boss")

	t.Run("OK", func(t *testing.T) {
		page := askAccess(t, boss, task.ID, "user", "ann").wantStatus(http.StatusOK)
		got := verdicts(t, page)
		// Another person's permissions are assumed: said once among the premises, in words.
		if want := "true tenant:allow,candidate-group:allow,status:allow"; got["claim"] != want {
			t.Errorf("claim %q, want %q", got["claim"], want)
		}
		premises := page.text("access-premises")
		if n := strings.Count(premises, "assumed"); n != 1 {
			t.Errorf("%d assumed-permission sentences among the premises, want 1: %q", n, premises)
		}
		webWantContains(t, "premises", premises, "“viewing tasks”, “claiming tasks”")
		if strings.Contains(page.text("access-result"), "user-tasks:") {
			t.Errorf("a permission code is shown as text: %q", page.text("access-result"))
		}
		var detail string
		webWalk(page.one("access-premises"), func(n *html.Node) {
			if webAttr(n, "data-rule") == string(models.RulePermissionAssumed) {
				detail = webAttr(n, "title")
			}
		})
		webWantContains(t, "the codes in the tooltip", detail, models.PermClaim)
		if !strings.HasPrefix(got["complete"], "false ") {
			t.Errorf("complete %q, want denied", got["complete"])
		}
		webWantContains(t, "premises", page.text("access-premises"), "The directory lists them in these candidate groups: finance.")
		webWantContains(t, "claim", page.text("access-claim"), "Is a member of the candidate group finance")
		webWantContains(t, "verdict", page.text("access-complete"), "Denied")
		webWantContains(t, "status", page.text("access-complete"), "The status is Available; this needs Assigned.")
		// A GET changes nothing: a link on another site, followed by a signed-in manager (a
		// top-level navigation keeps SameSite=Lax cookies), must not write to the task's history.
		// The JSON API's explanation, under a bearer token, is the audited one.
		if n := accessEvents(t, f, task.ID); n != 0 {
			t.Errorf("%d access-explained events, want none from a GET", n)
		}
		if got := webFormValues(page.one("access-page-form")).Get("id"); got != "ann" {
			t.Errorf("the form lost the id: %q", got)
		}
	})
	t.Run("ExcludedInGerman", func(t *testing.T) {
		boss.lang = "de"
		defer func() { boss.lang = "" }()
		page := askAccess(t, boss, task.ID, "user", "eve").wantStatus(http.StatusOK)
		if got := verdicts(t, page)["view"]; !strings.HasPrefix(got, "false ") || !strings.Contains(got, "excluded:deny") {
			t.Errorf("view %q", got)
		}
		text := page.text("access-view")
		webWantContains(t, "view", text, "Verweigert")
		webWantContains(t, "view", text, "Ist ausgeschlossen")
		webWantContains(t, "heading", page.text("access-result"), "Zugriff von")
	})
	t.Run("Group", func(t *testing.T) {
		page := askAccess(t, boss, task.ID, "group", "finance").wantStatus(http.StatusOK)
		if got := verdicts(t, page)["claim"]; !strings.HasPrefix(got, "true ") {
			t.Errorf("claim %q", got)
		}
		if got := webFormValues(page.one("access-page-form")).Get("type"); got != "group" {
			t.Fatalf("the form lost the participant's type: %q", got)
		}
	})
	t.Run("HostileIDs", func(t *testing.T) {
		for _, id := range []string{"a/b?c#d", "x y", "Jürgen 日本", "<script>alert(1)</script>", "user:nested"} {
			page := askAccess(t, boss, task.ID, "user", id).wantStatus(http.StatusOK)
			webWantContains(t, "result", page.text("access-result"), id)
			if strings.Contains(page.body, "<script>alert(1)</script>") {
				t.Fatalf("the id was not escaped")
			}
		}
	})
	t.Run("EmptyFormRecordsNothing", func(t *testing.T) {
		before := accessEvents(t, f, task.ID)
		page := boss.get("/tasks/" + task.ID + "/access").wantStatus(http.StatusOK)
		if page.has("access-result") || !page.has("access-page-form") {
			t.Fatalf("the empty page shows a result or no form")
		}
		if accessEvents(t, f, task.ID) != before {
			t.Errorf("opening the form was recorded")
		}
	})
	t.Run("CrossSiteGETRecordsNothing", func(t *testing.T) {
		before := accessEvents(t, f, task.ID)
		boss.header = http.Header{"Sec-Fetch-Site": {"cross-site"}, "Sec-Fetch-Mode": {"navigate"}}
		defer func() { boss.header = nil }()
		boss.get("/tasks/" + task.ID + "/access?type=user&id=ann").wantStatus(http.StatusOK).one("access-result")
		if n := accessEvents(t, f, task.ID); n != before {
			t.Errorf("a cross-site GET wrote %d access-explained events", n-before)
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		before := accessEvents(t, f, task.ID)
		for _, q := range []string{"type=user&id=", "type=robot&id=ann", "type=user&id=a%01b", "type=user&id=" + strings.Repeat("x", 300)} {
			page := boss.get("/tasks/" + task.ID + "/access?" + q).wantStatus(http.StatusUnprocessableEntity)
			if page.has("access-result") {
				t.Errorf("%s: a refused participant shows a result", q)
			}
			webWantContains(t, q, page.text("error-id"), "Enter a user or group id")
			if got := webAttr(webByID(page.doc, "access-page-id"), "aria-invalid"); got != "true" {
				t.Errorf("%s: the id field is not marked invalid", q)
			}
		}
		if accessEvents(t, f, task.ID) != before {
			t.Errorf("refused checks were recorded")
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		if ann.get("/tasks/" + task.ID).wantStatus(http.StatusOK).has("manage-access") {
			t.Errorf("a non-manager sees Check access")
		}
		for _, path := range []string{"/tasks/" + task.ID + "/access?type=user&id=ann", "/tasks/" + task.ID + "/access", "/tasks/missing/access?type=user&id=ann"} {
			ann.get(path).wantStatus(http.StatusForbidden).one("error-page")
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, id := range []string{"missing", "a%20b", "%E6%97%A5", "a%3Fb", "a%23b"} {
			boss.get("/tasks/" + id + "/access?type=user&id=ann").wantStatus(http.StatusNotFound).one("error-page")
		}
		otto := f.signIn(t, "otto") // another tenant, no manager either
		otto.get("/tasks/" + task.ID + "/access?" + url.Values{"type": {"user"}, "id": {"ann"}}.Encode()).wantStatus(http.StatusForbidden)
	})
	t.Run("SignedOut", func(t *testing.T) {
		res := f.browser(t).get("/tasks/" + task.ID + "/access?type=user&id=ann")
		if res.status != http.StatusSeeOther || !strings.HasPrefix(res.location, "/login") {
			t.Fatalf("signed out: %d → %q", res.status, res.location)
		}
	})
}
