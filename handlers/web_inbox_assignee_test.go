package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// inboxTitles are the titles of the listed rows, sorted.
func inboxTitles(p *webPage) []string {
	var out []string
	for _, n := range p.all("row-title") {
		out = append(out, webText(n))
	}
	slices.Sort(out)
	return out
}

// TestWebInboxAssigneeFilter: the dashboard's workload numbers open the All list filtered to
// the assignee's open tasks; the list names the filter and clears it; a malformed filter is
// 422; a worker may narrow their own lists but gets no manager list.
func TestWebInboxAssigneeFilter(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Ann one", assignee: "ann"})
	f.seed(t, webTaskOpts{title: "Ann two", assignee: "ann"})
	f.seed(t, webTaskOpts{title: "Bob one", assignee: "bob"})
	f.seed(t, webTaskOpts{title: "Free one"})
	boss := f.signIn(t, "boss")

	t.Run("DashboardWorkloadLinks", func(t *testing.T) {
		dash := boss.get("/manage").wantStatus(http.StatusOK)
		var annHref string
		for _, n := range dash.all("count-workload-link") {
			if webText(n) == "2" {
				annHref = webAttr(n, "href")
			}
		}
		u, err := url.Parse(annHref)
		if err != nil || u.Path != "/inbox" || u.Query().Get("tab") != "all" || u.Query().Get("assignee") != "user:ann" ||
			!slices.Equal(u.Query()["status"], []string{"Unassigned", "Available", "Assigned"}) {
			t.Fatalf("ann's workload links to %q", annHref)
		}
		list := boss.get(annHref).wantStatus(http.StatusOK)
		if got := inboxTitles(list); !slices.Equal(got, []string{"Ann one", "Ann two"}) {
			t.Fatalf("rows %v", got)
		}
		if got := list.text("total-count"); got != "2 tasks" {
			t.Fatalf("total %q, want the dashboard's 2", got)
		}
		webWantContains(t, "chip", list.text("filter-assignee-name"), "ann")
		clear := webAttr(list.one("filter-assignee-clear"), "href")
		cu, _ := url.Parse(clear)
		if cu.Query().Has("assignee") || cu.Query().Get("tab") != "all" || len(cu.Query()["status"]) != 3 {
			t.Fatalf("the clear link %q keeps the assignee or drops the other filters", clear)
		}
		if got := inboxTitles(boss.get(clear).wantStatus(http.StatusOK)); len(got) != 4 {
			t.Fatalf("without the assignee filter: %v", got)
		}
		// The filter form keeps the assignee when other filters are applied.
		if v := webFormValues(list.one("filters")); v.Get("assignee") != "user:ann" {
			t.Fatalf("the filter form drops the assignee: %v", v)
		}
	})
	t.Run("Unassigned", func(t *testing.T) {
		list := boss.get("/inbox?tab=all&assignee=none").wantStatus(http.StatusOK)
		if got := inboxTitles(list); !slices.Equal(got, []string{"Free one"}) {
			t.Fatalf("rows %v", got)
		}
		webWantContains(t, "chip", list.text("filter-assignee-name"), "Unassigned tasks only")
	})
	t.Run("HostileIDNamedAndEncoded", func(t *testing.T) {
		id := "a/b?c#d ü"
		list := boss.get("/inbox?tab=all&assignee=" + url.QueryEscape("user:"+id)).wantStatus(http.StatusOK)
		list.one("empty-state")
		webWantContains(t, "chip", list.text("filter-assignee-name"), id+" (ID)")
		if next := webAttr(list.one("filter-assignee-clear"), "href"); strings.Contains(next, "#") {
			t.Fatalf("clear link %q", next)
		}
	})
	t.Run("ErrValidation_Malformed", func(t *testing.T) {
		for _, q := range []string{"assignee=ann", "assignee=robot:ann", "assignee=user:%00", "assignee=user:" + strings.Repeat("x", 300),
			"assignee=none&assigneeProvider=ldap", "assigneeProvider=ldap"} {
			p := boss.get("/inbox?tab=all&" + q).wantStatus(http.StatusUnprocessableEntity)
			p.one("filters-invalid")
			webWantContains(t, q, p.text("error-assignee"), "not valid")
			if href := webAttr(p.one("filter-assignee-clear"), "href"); href != "/inbox?tab=all" {
				t.Fatalf("%s: clear link %q", q, href)
			}
		}
	})
	t.Run("Workers", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		if got := inboxTitles(ann.get("/inbox?assignee=user:ann").wantStatus(http.StatusOK)); !slices.Equal(got, []string{"Ann one", "Ann two"}) {
			t.Fatalf("ann's own tasks %v", got)
		}
		if got := inboxTitles(ann.get("/inbox?assignee=user:bob").wantStatus(http.StatusOK)); len(got) != 0 {
			t.Fatalf("the filter widened ann's list to %v", got)
		}
		ann.get("/inbox?tab=all&assignee=user:bob").wantStatus(http.StatusForbidden)
	})
	t.Run("German", func(t *testing.T) {
		boss.lang = "de"
		defer func() { boss.lang = "" }()
		list := boss.get("/inbox?tab=all&assignee=user:bob").wantStatus(http.StatusOK)
		webWantContains(t, "chip", list.text("filter-assignee"), "Zugewiesen an")
		webWantContains(t, "clear", list.text("filter-assignee-clear"), "Alle Bearbeiter")
	})
}
