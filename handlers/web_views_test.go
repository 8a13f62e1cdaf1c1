package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"usertasks/models"
)

// sortHeader returns the sort link's URL and the header's aria-sort of a column.
func sortHeader(t *testing.T, p *webPage, key string) (*url.URL, string) {
	t.Helper()
	th := p.one("sort-" + key)
	u, err := url.Parse(webAttr(webWithin(th, "sort-link-"+key)[0], "href"))
	if err != nil {
		t.Fatal(err)
	}
	return u, webAttr(th, "aria-sort")
}

func TestInboxSortHeaders(t *testing.T) {
	f := newWebFixture(t)
	for i, title := range []string{"Bravo", "Alpha", "Charlie"} {
		f.seed(t, webTaskOpts{title: title, priority: webPtr(10 * (i + 1))})
	}
	boss := f.signIn(t, "boss")

	t.Run("LinksKeepEveryFilter", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&q=a&status=Available&status=Assigned&priorityFrom=5&pageSize=10").wantStatus(http.StatusOK)
		u, sorted := sortHeader(t, p, "priority")
		q := u.Query()
		if u.Path != "/inbox" || q.Get("sort") != "priority" || q.Get("tab") != "all" || q.Get("q") != "a" ||
			!slices.Equal(q["status"], []string{"Available", "Assigned"}) || q.Get("priorityFrom") != "5" || q.Get("pageSize") != "10" ||
			q.Has("cursor") || q.Has("direction") || sorted != "" {
			t.Fatalf("priority link %s (aria-sort %q), want every filter kept, sort=priority, no cursor", u, sorted)
		}
		if _, s := sortHeader(t, p, "due"); s != "" {
			t.Fatalf("due header aria-sort %q on a list sorted by creation", s)
		}
		if _, s := sortHeader(t, p, "completed"); s != "" {
			t.Fatalf("closed header aria-sort %q on a list sorted by creation", s)
		}
		if p.has("sort-created") {
			t.Fatal("columns the table does not have are sortable")
		}
	})

	t.Run("CurrentSortTogglesAndIsMarked", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&sort=title").wantStatus(http.StatusOK)
		if got := rowTitles(p); !slices.Equal(got, []string{"Alpha", "Bravo", "Charlie"}) {
			t.Fatalf("rows %v, want by title", got)
		}
		u, sorted := sortHeader(t, p, "title")
		if sorted != "ascending" || u.Query().Get("direction") != "desc" {
			t.Fatalf("title header aria-sort %q, link %s; want ascending, toggling to desc", sorted, u)
		}
		webWantContains(t, "title header", webText(p.one("sort-title")), "(sorted ascending)")
		desc := boss.get(u.String()).wantStatus(http.StatusOK)
		if got := rowTitles(desc); !slices.Equal(got, []string{"Charlie", "Bravo", "Alpha"}) {
			t.Fatalf("rows %v, want by title descending", got)
		}
		if u, sorted := sortHeader(t, desc, "title"); sorted != "descending" || u.Query().Get("direction") != "asc" {
			t.Fatalf("after toggling: aria-sort %q, link %s", sorted, u)
		}
	})

	t.Run("HistorySortsTheClosedColumn", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		p := ann.get("/inbox?tab=history").wantStatus(http.StatusOK)
		if p.has("task-list") && (!p.has("sort-completed") || p.has("sort-due")) {
			t.Fatal("history's closed column is not sorted by completion")
		}
	})

	t.Run("German", func(t *testing.T) {
		boss.lang = "de"
		defer func() { boss.lang = "" }()
		p := boss.get("/inbox?tab=all&sort=priority&direction=desc").wantStatus(http.StatusOK)
		webWantContains(t, "priority header", webText(p.one("sort-priority")), "(absteigend sortiert)")
	})
}

func TestInboxStatusCheckboxes(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Open one"})
	f.seed(t, webTaskOpts{title: "Taken one", assignee: "ann"})
	boss := f.signIn(t, "boss")

	t.Run("SeveralStatuses", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&status=Assigned&status=Available").wantStatus(http.StatusOK)
		got := rowTitles(p)
		slices.Sort(got)
		if !slices.Equal(got, []string{"Open one", "Taken one"}) {
			t.Fatalf("rows %v", got)
		}
		for s, want := range map[string]bool{"Assigned": true, "Available": true, "Completed": false} {
			if got := webHasAttr(p.one("filter-status-"+s), "checked"); got != want {
				t.Errorf("checkbox %s checked %v, want %v", s, got, want)
			}
		}
		one := boss.get("/inbox?tab=all&status=Assigned").wantStatus(http.StatusOK)
		if got := rowTitles(one); !slices.Equal(got, []string{"Taken one"}) {
			t.Fatalf("rows %v", got)
		}
	})

	t.Run("FormSubmitsTheChecked", func(t *testing.T) {
		p := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
		v := webFormValues(p.one("filters"))
		if v.Has("status") {
			t.Fatalf("nothing checked, yet the form sends status %v", v["status"])
		}
	})

	t.Run("UnknownStatusRefused", func(t *testing.T) {
		for _, bad := range []string{"Bogus", "assigned", "Assigned,Available", "Avail%00able", "Ävailable"} {
			p := boss.get("/inbox?tab=all&status=Assigned&status=" + url.QueryEscape(bad)).wantStatus(http.StatusUnprocessableEntity)
			if !p.has("error-status") || !p.has("filters-invalid") {
				t.Fatalf("status %q: no error next to the status filter", bad)
			}
		}
	})

	t.Run("DuplicatesCollapse", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&status=Assigned&status=Assigned").wantStatus(http.StatusOK)
		u, _ := sortHeader(t, p, "title")
		if got := u.Query()["status"]; !slices.Equal(got, []string{"Assigned"}) {
			t.Fatalf("status in links %v, want it once", got)
		}
	})
}

func TestInboxWorkflowByName(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Invoice"})
	f.seed(t, webTaskOpts{title: "Hire", mutate: func(p *models.Projection) {
		p.Workflow.DefinitionID, p.Workflow.DefinitionName = "hiring/v2 ?#", "Hiring – Einstellung"
	}})
	f.seed(t, webTaskOpts{title: "Unnamed", mutate: func(p *models.Projection) {
		p.Workflow.DefinitionID = "unnamed"
		p.Workflow.DefinitionName = ""
	}})
	boss := f.signIn(t, "boss")

	options := func(p *webPage) map[string]string {
		out := map[string]string{}
		webWalk(p.one("filter-workflow"), func(n *html.Node) {
			if n.Type == html.ElementNode && n.Data == "option" {
				out[webAttr(n, "value")] = webText(n)
			}
		})
		return out
	}
	t.Run("OffersNames", func(t *testing.T) {
		p := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
		got := options(p)
		want := map[string]string{"": "Any workflow", "invoice-approval": "Invoice approval", "hiring/v2 ?#": "Hiring – Einstellung", "unnamed": "unnamed"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("options %v, want %v", got, want)
		}
		if n := p.one("filter-workflow"); n.Data != "select" {
			t.Fatalf("the workflow filter is a %s, want a select", n.Data)
		}
	})

	t.Run("FiltersByTheChosenDefinition", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&workflow=" + url.QueryEscape("hiring/v2 ?#")).wantStatus(http.StatusOK)
		if got := rowTitles(p); !slices.Equal(got, []string{"Hire"}) {
			t.Fatalf("rows %v", got)
		}
		if v := webFormValues(p.one("filters")).Get("workflow"); v != "hiring/v2 ?#" {
			t.Fatalf("selected workflow %q", v)
		}
	})

	t.Run("TheTabsOwnTasksOnly", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		p := ann.get("/inbox?tab=available").wantStatus(http.StatusOK)
		got := options(p)
		if _, ok := got["invoice-approval"]; !ok || len(got) != 4 {
			// ann is a candidate of all three through the group finance
			t.Fatalf("available options %v", got)
		}
		assigned := ann.get("/inbox").wantStatus(http.StatusOK)
		if got := options(assigned); len(got) != 1 {
			t.Fatalf("ann has no assigned task, yet the workflow choices are %v", got)
		}
	})

	t.Run("AnUnknownIDIsShownBack", func(t *testing.T) {
		p := boss.get("/inbox?tab=all&workflow=gone").wantStatus(http.StatusOK)
		if got := options(p)["gone"]; got != "gone" {
			t.Fatalf("options %v, want the filtered id kept", options(p))
		}
		if p.has("task-row") {
			t.Fatal("rows for an unknown workflow")
		}
	})
}

// savedViewIDs lists the views of the inbox's select by label.
func savedViewIDs(p *webPage) map[string]string {
	out := map[string]string{}
	for _, sel := range p.all("view-select") {
		webWalk(sel, func(n *html.Node) {
			if n.Type == html.ElementNode && n.Data == "option" {
				out[webText(n)] = webAttr(n, "value")
			}
		})
	}
	return out
}

// saveViewAs posts the inbox page's save form with a name and extra values.
func saveViewAs(b *webBrowser, p *webPage, name string, set url.Values) *webPage {
	b.t.Helper()
	if set == nil {
		set = url.Values{}
	}
	set.Set("name", name)
	return b.submit(p, "view-save-form", set, nil)
}

func TestSavedViews(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Open one"})
	f.seed(t, webTaskOpts{title: "Taken one", assignee: "ann"})

	ann := f.signIn(t, "ann")
	inbox := ann.get("/inbox?tab=available&status=Available&sort=title&direction=desc&q=one").wantStatus(http.StatusOK)
	saved := saveViewAs(ann, inbox, "  Verfügbar ✓  ", nil).wantStatus(http.StatusSeeOther)
	wantQuery := "direction=desc&q=one&sort=title&status=Available&tab=available"
	if saved.location != "/inbox?"+wantQuery {
		t.Fatalf("saved → %q, want the normalized view", saved.location)
	}
	after := ann.follow(saved).wantStatus(http.StatusOK)
	webWantContains(t, "flash", after.body, "Saved the view “Verfügbar ✓”.")
	annView := savedViewIDs(after)["Verfügbar ✓ (shown)"]
	if annView == "" {
		t.Fatalf("the saved view is not the shown one in the menu: %v", savedViewIDs(after))
	}

	t.Run("Open", func(t *testing.T) {
		p := ann.get("/inbox?view=" + url.QueryEscape(annView)).wantStatus(http.StatusSeeOther)
		if p.location != "/inbox?"+wantQuery {
			t.Fatalf("open → %q", p.location)
		}
		// The menu's form opens it too, without script.
		inbox := ann.get("/inbox").wantStatus(http.StatusOK)
		if savedViewIDs(inbox)["Verfügbar ✓"] != annView || webAttr(inbox.one("view-open-form"), "method") != "get" {
			t.Fatalf("open form: %v", savedViewIDs(inbox))
		}
		if v := webFormValues(inbox.one("view-open-form")); v.Get("view") != "" {
			t.Fatalf("a view is marked shown on a page no view shows: %v", v)
		}
	})

	t.Run("NeverStoresACursor", func(t *testing.T) {
		p := ann.get("/inbox?tab=history&pageSize=10").wantStatus(http.StatusOK)
		res := saveViewAs(ann, p, "Paged", url.Values{"query": {"tab=history&pageSize=10&cursor=abc&prev=x.y&junk=1&status=Completed"}}).wantStatus(http.StatusSeeOther)
		if res.location != "/inbox?pageSize=10&status=Completed&tab=history" {
			t.Fatalf("saved → %q, want no cursor, stack or unknown parameter", res.location)
		}
	})

	t.Run("RefusesBadNames", func(t *testing.T) {
		for name, want := range map[string]string{
			"":                      "Enter a name.",
			"   ":                   "Enter a name.",
			"ver\u0007fügbar":       "Use one line of text without control characters.",
			"\u202eevil":            "Use one line of text without control characters.",
			strings.Repeat("x", 81): "Use at most 80 characters.",
			"verfügbar ✓":           "You already have a view of that name.",
			"VERFÜGBAR ✓":           "You already have a view of that name.",
		} {
			p := ann.get("/inbox?tab=available").wantStatus(http.StatusOK)
			res := saveViewAs(ann, p, name, nil).wantStatus(http.StatusUnprocessableEntity)
			if got := res.text("error-view-name"); got != want {
				t.Errorf("name %q: message %q, want %q", name, got, want)
			}
			if !webHasAttr(res.one("view-save"), "open") || webAttr(res.one("view-name"), "aria-invalid") != "true" {
				t.Errorf("name %q: the refused form is not open and marked", name)
			}
			if res.has("task-list") != true {
				t.Errorf("name %q: the inbox is not shown again", name)
			}
		}
	})

	t.Run("RefusesAnInvalidQuery", func(t *testing.T) {
		p := ann.get("/inbox").wantStatus(http.StatusOK)
		for i, q := range []string{"status=Bogus", "sort=nope", "priorityFrom=500", "%zz", "tab=history&q=" + strings.Repeat("x", 3000)} {
			res := saveViewAs(ann, p, fmt.Sprint("Bad ", i), url.Values{"query": {q}}).wantStatus(http.StatusUnprocessableEntity)
			webWantContains(t, "form error", res.text("error-view-form"), "its filters are not valid")
		}
	})

	t.Run("CSRF", func(t *testing.T) {
		p := ann.get("/inbox").wantStatus(http.StatusOK)
		saveViewAs(ann, p, "No token", url.Values{"csrf_token": {"forged"}}).wantStatus(http.StatusForbidden)
		ann.post("/inbox/views/"+annView+"/delete", url.Values{}).wantStatus(http.StatusForbidden)
		ann.post("/inbox/views/"+annView+"/rename", url.Values{"name": {"x"}}).wantStatus(http.StatusForbidden)
	})

	t.Run("OnlyManagersShare", func(t *testing.T) {
		p := ann.get("/inbox").wantStatus(http.StatusOK)
		if p.has("view-shared") {
			t.Fatal("a person is offered to share")
		}
		saveViewAs(ann, p, "Sneaky", url.Values{"shared": {"true"}}).wantStatus(http.StatusForbidden)
		saveViewAs(ann, p, "Everything", url.Values{"query": {"tab=all"}}).wantStatus(http.StatusForbidden)
	})

	boss := f.signIn(t, "boss")
	bossInbox := boss.get("/inbox?tab=all&status=Assigned").wantStatus(http.StatusOK)
	saveViewAs(boss, bossInbox, "Team: taken", url.Values{"shared": {"true"}}).wantStatus(http.StatusSeeOther)
	sharedID := savedViewIDs(boss.get("/inbox"))["Team: taken · shared"]
	if sharedID == "" {
		t.Fatalf("the shared view is not in the manager's menu: %v", savedViewIDs(boss.get("/inbox")))
	}

	t.Run("OthersViewsAreNotFound", func(t *testing.T) {
		bob := f.signIn(t, "bob")
		otto := f.signIn(t, "otto") // another tenant
		for _, c := range []struct {
			who string
			b   *webBrowser
			id  string
		}{
			{"PrivateToAnotherPerson", bob, annView},
			{"PrivateToAManager", boss, annView},
			{"SharedToAPerson", ann, sharedID},
			{"CrossTenant", otto, sharedID},
		} {
			c.b.get("/inbox?view=" + url.QueryEscape(c.id)).wantStatus(http.StatusNotFound)
			page := c.b.get("/inbox/views").wantStatus(http.StatusOK)
			csrf := page.csrf()
			c.b.post("/inbox/views/"+url.PathEscape(c.id)+"/rename", url.Values{"csrf_token": {csrf}, "name": {"Mine now"}}).wantStatus(http.StatusNotFound)
			if c.who != "PrivateToAManager" || c.id != sharedID {
				c.b.post("/inbox/views/"+url.PathEscape(c.id)+"/delete", url.Values{"csrf_token": {csrf}}).wantStatus(http.StatusNotFound)
			}
			if slices.ContainsFunc(page.all("view-row"), func(n *html.Node) bool { return webAttr(n, "data-view-id") == c.id }) {
				t.Errorf("%s: the manage page lists the view", c.who)
			}
		}
		// A manager may not rename someone else's shared view either (the owner renames).
		if _, ok := savedViewIDs(bob.get("/inbox"))["Team: taken · shared"]; ok {
			t.Fatal("a person's menu lists a view shared with the managers")
		}
	})

	t.Run("HostileIDs", func(t *testing.T) {
		page := ann.get("/inbox/views").wantStatus(http.StatusOK)
		csrf := page.csrf()
		for _, id := range []string{"x y", "ü", "a?b", "a#b", "..", strings.Repeat("7", 300), "%00", "\u202e"} {
			ann.get("/inbox?view=" + url.QueryEscape(id)).wantStatus(http.StatusNotFound)
			ann.post("/inbox/views/"+url.PathEscape(id)+"/delete", url.Values{"csrf_token": {csrf}}).wantStatus(http.StatusNotFound)
		}
		ann.get("/inbox?view=").wantStatus(http.StatusSeeOther) // an empty parameter is tidied away
	})

	t.Run("ManagePage", func(t *testing.T) {
		p := boss.get("/inbox/views").wantStatus(http.StatusOK)
		rows := p.all("view-row")
		if len(rows) != 1 || webText(webWithin(rows[0], "view-sharing")[0]) != "Shared with managers" || webText(webWithin(rows[0], "view-owner")[0]) != "You" {
			t.Fatalf("boss's views: %s", webText(p.one("views-list")))
		}
		a := ann.get("/inbox/views").wantStatus(http.StatusOK)
		if got := webText(a.one("views-list")); !strings.Contains(got, "Verfügbar ✓") || !strings.Contains(got, "Private") || strings.Contains(got, "Team") {
			t.Fatalf("ann's views: %s", got)
		}
	})

	t.Run("RenameAndDelete", func(t *testing.T) {
		renameForm := func(p *webPage) *html.Node {
			for _, r := range p.all("view-row") {
				if webAttr(r, "data-view-id") == annView {
					return webWithin(r, "view-rename-form")[0]
				}
			}
			t.Fatal("no rename form for the view")
			return nil
		}
		page := ann.get("/inbox/views").wantStatus(http.StatusOK)
		form := renameForm(page)
		values := webFormValues(form)
		values.Set("name", "paged")
		res := ann.post(webAttr(form, "action"), values).wantStatus(http.StatusUnprocessableEntity)
		if got := res.text("error-view-rename"); got != "You already have a view of that name." {
			t.Fatalf("rename to a taken name: %q", got)
		}
		if got := webAttr(webWithin(renameForm(res), "view-rename-name")[0], "value"); got != "paged" {
			t.Fatalf("the refused name is not shown back: %q", got)
		}
		page = ann.get("/inbox/views").wantStatus(http.StatusOK)
		form = renameForm(page)
		values = webFormValues(form)
		values.Set("name", "Available to me")
		done := ann.post(webAttr(form, "action"), values).wantStatus(http.StatusSeeOther)
		if done.location != "/inbox/views" {
			t.Fatalf("rename → %q", done.location)
		}
		webWantContains(t, "flash", ann.follow(done).body, "Renamed the view to “Available to me”.")

		// A manager deletes a view shared with the managers; the owner deletes their own.
		del := ann.post("/inbox/views/"+annView+"/delete", url.Values{"csrf_token": {page.csrf()}}).wantStatus(http.StatusSeeOther)
		webWantContains(t, "flash", ann.follow(del).body, "Deleted the view “Available to me”.")
		ann.get("/inbox?view=" + annView).wantStatus(http.StatusNotFound)
		bp := boss.get("/inbox/views")
		boss.post("/inbox/views/"+sharedID+"/delete", url.Values{"csrf_token": {bp.csrf()}}).wantStatus(http.StatusSeeOther)
		if boss.get("/inbox/views").has("view-row") {
			t.Fatal("the shared view is still listed")
		}
	})

	t.Run("AtMost50", func(t *testing.T) {
		bob := f.signIn(t, "bob")
		a := models.Actor{Tenant: "t1", Subject: models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "bob"}}
		for i := range models.MaxSavedViews {
			if _, err := f.store.CreateSavedView(context.Background(), models.SavedView{Tenant: "t1", Owner: a.Subject, Name: fmt.Sprintf("View %d", i), Query: "tab=assigned"}); err != nil {
				t.Fatal(err)
			}
		}
		p := bob.get("/inbox").wantStatus(http.StatusOK)
		webWantContains(t, "limit note", p.text("view-limit"), "50 saved views")
		res := saveViewAs(bob, p, "One more", nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "form error", res.text("error-view-form"), "You have 50 saved views")
	})

	t.Run("German", func(t *testing.T) {
		ann.lang = "de"
		defer func() { ann.lang = "" }()
		p := ann.get("/inbox").wantStatus(http.StatusOK)
		webWantContains(t, "saved views", webText(p.one("saved-views")), "Diese Ansicht speichern")
		res := saveViewAs(ann, p, "", nil).wantStatus(http.StatusUnprocessableEntity)
		if got := res.text("error-view-name"); got != "Geben Sie einen Namen ein." {
			t.Fatalf("German message %q", got)
		}
	})
}
