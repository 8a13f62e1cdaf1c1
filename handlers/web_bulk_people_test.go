package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestWebBulkAssignPeople: with a directory, the bulk bar's assignee field is the people
// picker's combobox (people.js over the participants endpoint) and an ID the directory does not
// know is refused per task with the reason translated; without one it is a plain ID field.
func TestWebBulkAssignPeople(t *testing.T) {
	f := newPeopleFixture(t)
	a := f.seed(t, webTaskOpts{title: "First"})
	b := f.seed(t, webTaskOpts{title: "Second"})
	boss := f.signIn(t, "boss")
	page := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
	field := page.one("bulk-assignee")
	if webAttr(field, "name") != "assignee" || webAttr(field, "data-people-endpoint") != "/api/v1/user-task-participants" ||
		webAttr(field, "data-people-target") != "bulk-assignee" || webAttr(field, "autocomplete") != "off" {
		t.Fatalf("bulk assignee %v", field.Attr)
	}
	if !strings.Contains(page.body, "/static/people.js") {
		t.Fatal("the page does not load people.js")
	}
	checks := bulkChecks(page)

	t.Run("ErrUnknownAssigneeRefusedPerTask", func(t *testing.T) {
		res := boss.submit(page, "bulk-form", url.Values{"action": {"assign"}, "assignee": {"nobody"}, "task": {checks[a.ID], checks[b.ID]}}, nil)
		result := boss.follow(res).wantStatus(http.StatusOK)
		if got := bulkOutcomes(result); !slices.Equal(got, []string{"First: refused", "Second: refused"}) {
			t.Fatalf("outcomes %v", got)
		}
		webWantContains(t, "reason", webText(result.all("bulk-item-reason")[0]), "The participant directory does not know this person")
		if got := f.current(t, a.ID); got.Assignee != nil || got.Revision != 1 {
			t.Fatalf("an unknown assignee was assigned: %+v", got.Assignee)
		}
		boss.lang = "de"
		defer func() { boss.lang = "" }()
		de := boss.get(res.location).wantStatus(http.StatusOK)
		webWantContains(t, "reason", webText(de.all("bulk-item-reason")[0]), "Das Personenverzeichnis kennt diese Person nicht")
	})
	t.Run("OK_KnownHostileID", func(t *testing.T) {
		page := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
		checks := bulkChecks(page)
		res := boss.submit(page, "bulk-form", url.Values{"action": {"assign"}, "assignee": {"zoë/x?y#z w"}, "task": {checks[a.ID]}}, nil)
		if got := bulkOutcomes(boss.follow(res)); !slices.Equal(got, []string{"First: done"}) {
			t.Fatalf("outcomes %v", got)
		}
		if got := f.current(t, a.ID).Assignee; got == nil || got.ID != "zoë/x?y#z w" || got.DisplayName != "Zoë Weird" {
			t.Fatalf("assignee %+v, want the directory's Zoë Weird", got)
		}
	})
	t.Run("ErrValidation_OversizedID", func(t *testing.T) {
		boss.submit(page, "bulk-form", url.Values{"action": {"assign"}, "assignee": {strings.Repeat("x", 300)}, "task": {checks[b.ID]}}, nil).
			wantStatus(http.StatusUnprocessableEntity).one("error-assignee")
	})
	t.Run("WithoutDirectoryPlainID", func(t *testing.T) {
		f := newWebFixture(t)
		f.seed(t, webTaskOpts{title: "Plain"})
		field := f.signIn(t, "boss").get("/inbox?tab=all").wantStatus(http.StatusOK).one("bulk-assignee")
		if webHasAttr(field, "data-people-endpoint") || webAttr(field, "name") != "assignee" || webAttr(field, "type") != "text" {
			t.Fatalf("bulk assignee without a directory %v", field.Attr)
		}
	})
}
