package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/tasks"
)

// TestManagerFormsChoosePeopleByName: with a directory, Check access and the health review's
// assign fix find people by name through the picker; no form asks a manager for a raw id.
func TestManagerFormsChoosePeopleByName(t *testing.T) {
	dir := directory.Static{Tenants: map[string]directory.StaticTenant{"t1": {
		Users: []directory.StaticUser{{ID: "ann", DisplayName: "Ann Approver", Groups: []string{"finance"}}, {ID: "u-4711", DisplayName: "Bob Builder"}},
	}}}
	f := newWebFixtureService(t, tasks.Options{Directory: dir}, nil)
	boss := f.signIn(t, "boss")

	t.Run("CheckAccess", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		page := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		form := page.one("manage-access")
		values := webFormValues(form)
		if _, typed := values["id"]; typed {
			t.Fatal("Check access asks for a raw id although a directory can be searched")
		}
		values.Set("people", "Bob")
		found := boss.get(webAttr(form, "action") + "?" + values.Encode()).wantStatus(http.StatusOK)
		choices := found.all("access-choice")
		if len(choices) != 1 || webText(choices[0]) != "Bob Builder" {
			t.Fatalf("choices %d, first %q", len(choices), webText(choices[0]))
		}
		if found.has("access-result") {
			t.Fatal("a search alone explained access")
		}
		choice := url.Values{"people": {"Bob"}, "participant": {"user:u-4711"}}
		res := boss.get(webAttr(found.one("access-page-form"), "action") + "?" + choice.Encode()).wantStatus(http.StatusOK)
		res.one("access-result")
		if got := verdicts(t, res)["view"]; !strings.HasPrefix(got, "false ") {
			t.Errorf("view %q for a non-candidate", got)
		}
	})

	t.Run("HealthReviewAssignFix", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{title: "Nobody", mutate: func(p *models.Projection) { p.CandidateGroups, p.ExcludedUsers = nil, nil }})
		page := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		fix := page.one("health-fix-assign")
		if webAttr(fix, "method") != "get" {
			t.Fatalf("the assign fix is a %q form with a raw id field", webAttr(fix, "method"))
		}
		if _, typed := webFormValues(fix)["assignee"]; typed {
			t.Fatal("the assign fix asks for a raw id")
		}
		res := boss.get(webAttr(fix, "action")[:strings.Index(webAttr(fix, "action"), "#")] + "?people=Ann").wantStatus(http.StatusOK)
		if got := webText(res.one("people-choices")); !strings.Contains(got, "Ann Approver") {
			t.Fatalf("the search did not offer Ann by name: %q", got)
		}
	})

	t.Run("PickedSuggestionIsChosen", func(t *testing.T) {
		// people.js sends the chosen suggestion's name as the search and its id as pick.
		task := f.seed(t, webTaskOpts{})
		res := boss.get("/tasks/" + task.ID + "?people=Bob+Builder&pick=u-4711").wantStatus(http.StatusOK)
		if got := webFormValues(res.one("manage-assign")).Get("assignee"); got != "u-4711" {
			t.Fatalf("the picked person is not the chosen assignee: %q", got)
		}
		if webByID(res.doc, "assign-assignee") != nil {
			t.Fatal("a second field for the id is shown next to the choices")
		}
	})

	t.Run("HostileSearch", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		res := boss.get("/tasks/" + task.ID + "/access?people=" + url.QueryEscape("<script>alert(1)</script>")).wantStatus(http.StatusOK)
		if strings.Contains(res.body, "<script>alert(1)</script>") {
			t.Fatal("the search is not escaped")
		}
		res.one("access-people-none")
	})
}
