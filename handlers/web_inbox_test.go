package handlers_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/handlers"
	"usertasks/models"
	"usertasks/tasks"
)

// tabKeys lists the inbox tabs of a page and the current one.
func tabKeys(p *webPage) (keys []string, current string) {
	for _, n := range p.all("inbox-tabs") {
		webWalk(n, func(a *html.Node) {
			if a.Type == html.ElementNode && a.Data == "a" {
				k := strings.TrimPrefix(webAttr(a, "data-testid"), "tab-")
				keys = append(keys, k)
				if webAttr(a, "aria-current") == "page" {
					current = k
				}
			}
		})
	}
	return keys, current
}

// rowTitles lists the titles of the rows of a page.
func rowTitles(p *webPage) []string {
	var out []string
	for _, r := range p.all("task-row") {
		out = append(out, webText(webWithin(r, "row-title")[0]))
	}
	return out
}

// rowOf finds the row of a task.
func rowOf(p *webPage, id string) *html.Node {
	for _, r := range p.all("task-row") {
		if webAttr(r, "data-task-id") == id {
			return r
		}
	}
	return nil
}

func TestInboxTabs(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Mine", assignee: "ann"})
	f.seed(t, webTaskOpts{title: "For finance", due: webPtr(time.Now().Add(-time.Hour))})

	t.Run("Person", func(t *testing.T) {
		b := f.signIn(t, "ann")
		p := b.get("/inbox").wantStatus(http.StatusOK)
		keys, current := tabKeys(p)
		if !slices.Equal(keys, []string{"assigned", "available", "history"}) || current != "assigned" {
			t.Fatalf("tabs %v (current %q), want the three personal tabs with assigned current", keys, current)
		}
		if got := rowTitles(p); !slices.Equal(got, []string{"Mine"}) {
			t.Fatalf("assigned rows %v", got)
		}
		if got := p.text("total-count"); got != "1 task" {
			t.Fatalf("count %q", got)
		}
		avail := b.get("/inbox?tab=available")
		if got := rowTitles(avail); !slices.Equal(got, []string{"For finance"}) {
			t.Fatalf("available rows %v", got)
		}
		if _, cur := tabKeys(avail); cur != "available" {
			t.Fatalf("current tab %q", cur)
		}
		b.get("/inbox?tab=history").one("empty-state")
		for _, tab := range []string{"all", "needs-attention"} {
			p := b.get("/inbox?tab=" + tab).wantStatus(http.StatusForbidden)
			p.one("error-page")
		}
	})
	t.Run("Manager", func(t *testing.T) {
		b := f.signIn(t, "boss")
		p := b.get("/inbox?tab=all").wantStatus(http.StatusOK)
		keys, current := tabKeys(p)
		if !slices.Equal(keys, []string{"assigned", "available", "history", "all", "needs-attention"}) || current != "all" {
			t.Fatalf("manager tabs %v (current %q)", keys, current)
		}
		if got := rowTitles(p); len(got) != 2 {
			t.Fatalf("all rows %v", got)
		}
		if got := p.text("total-count"); got != "2 tasks" {
			t.Fatalf("the whole tenant's count %q", got)
		}
		na := b.get("/inbox?tab=needs-attention").wantStatus(http.StatusOK)
		if got := rowTitles(na); !slices.Equal(got, []string{"For finance"}) {
			t.Fatalf("needs-attention rows %v (open and overdue)", got)
		}
	})
}

func TestInboxFiltersKeptInLinks(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Approve invoice", priority: webPtr(80)})
	f.seed(t, webTaskOpts{title: "Approve travel", priority: webPtr(10)})
	f.seed(t, webTaskOpts{title: "Check delivery", priority: webPtr(90)})
	b := f.signIn(t, "ann")

	p := b.get("/inbox?tab=available&q=approve&priorityFrom=50&sort=priority&pageSize=10").wantStatus(http.StatusOK)
	if got := rowTitles(p); !slices.Equal(got, []string{"Approve invoice"}) {
		t.Fatalf("filtered rows %v", got)
	}
	if got := webAttr(p.one("filter-q"), "value"); got != "approve" {
		t.Fatalf("search input %q", got)
	}
	if got := webAttr(p.one("filter-priorityFrom"), "value"); got != "50" {
		t.Fatalf("priorityFrom input %q", got)
	}
	if !webHasAttr(p.one("filters-more"), "open") {
		t.Fatal("the filter panel is closed although filters are set")
	}
	for tab, want := range map[string]string{"assigned": "/inbox", "history": "/inbox?tab=history"} {
		if href := webAttr(p.one("tab-"+tab), "href"); href != want {
			t.Fatalf("tab link %q, want the tab's default %q", href, want)
		}
	}
	clear := webAttr(p.one("filters-clear"), "href")
	if u, _ := url.Parse(clear); u.Query().Get("q") != "" || u.Query().Get("tab") != "available" || u.Query().Get("sort") != "priority" {
		t.Fatalf("clear link %q", clear)
	}
	row := p.all("task-row")[0]
	ret := webFormValues(webWithin(row, "row-claim-form")[0]).Get("return")
	if u, _ := url.Parse(ret); u.Path != "/inbox" || u.Query().Get("q") != "approve" || u.Query().Get("tab") != "available" {
		t.Fatalf("row action return address %q", ret)
	}

	t.Run("TidyURL", func(t *testing.T) {
		p := b.get("/inbox?tab=available&q=approve&status=&priorityFrom=&due=&workflow=&sort=&direction=&pageSize=")
		if p.status != http.StatusSeeOther || p.location != "/inbox?q=approve&tab=available" {
			t.Fatalf("%d → %q", p.status, p.location)
		}
	})
	t.Run("InvalidFilters", func(t *testing.T) {
		p := b.get("/inbox?tab=available&priorityFrom=abc&due=someday").wantStatus(http.StatusUnprocessableEntity)
		p.one("filters-invalid")
		webWantContains(t, "priorityFrom message", p.text("error-priorityFrom"), "0 to 100")
		webWantContains(t, "due message", p.text("error-due"), "offered options")
		if got := webAttr(p.one("filter-priorityFrom"), "value"); got != "abc" {
			t.Fatalf("the invalid value is not kept: %q", got)
		}
		if webAttr(p.one("filter-priorityFrom"), "aria-invalid") != "true" {
			t.Fatal("aria-invalid missing")
		}
	})
	t.Run("StatusAndDue", func(t *testing.T) {
		p := b.get("/inbox?tab=available&status=Assigned")
		p.one("empty-state")
		p.one("empty-clear")
		if got := webText(p.one("empty-state")); !strings.Contains(got, "No tasks match") {
			t.Fatalf("filtered empty state %q", got)
		}
		if rows := rowTitles(b.get("/inbox?tab=available&due=noDueDate")); len(rows) != 3 {
			t.Fatalf("noDueDate rows %v", rows)
		}
	})
}

func TestInboxEmptyState(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "bob")
	p := b.get("/inbox").wantStatus(http.StatusOK)
	empty := webText(p.one("empty-state"))
	webWantContains(t, "empty state", empty, "Nothing is assigned to you")
	if p.has("empty-clear") || p.has("pager") || p.has("task-list") {
		t.Fatal("an unfiltered empty list offers to clear filters or pages")
	}
}

func TestInboxPaging(t *testing.T) {
	f := newWebFixture(t)
	for i := range 23 {
		f.seed(t, webTaskOpts{title: fmt.Sprintf("Task %02d", i), priority: webPtr(i)})
	}
	b := f.signIn(t, "ann")
	first := b.get("/inbox?tab=available&sort=title&direction=asc&pageSize=10").wantStatus(http.StatusOK)
	if got := rowTitles(first); len(got) != 10 || got[0] != "Task 00" || got[9] != "Task 09" {
		t.Fatalf("page 1: %v", got)
	}
	if first.has("page-prev") || first.has("page-first") {
		t.Fatal("the first page offers Previous")
	}
	if got := first.text("total-count"); got != "23 tasks" {
		t.Fatalf("total %q", got)
	}
	second := b.get(webAttr(first.one("page-next"), "href"))
	if got := rowTitles(second); len(got) != 10 || got[0] != "Task 10" {
		t.Fatalf("page 2: %v", got)
	}
	third := b.get(webAttr(second.one("page-next"), "href"))
	if got := rowTitles(third); !slices.Equal(got, []string{"Task 20", "Task 21", "Task 22"}) {
		t.Fatalf("page 3: %v", got)
	}
	if third.has("page-next") {
		t.Fatal("the last page offers Next")
	}
	back := b.get(webAttr(third.one("page-prev"), "href"))
	if !slices.Equal(rowTitles(back), rowTitles(second)) {
		t.Fatalf("Previous from page 3: %v, want page 2", rowTitles(back))
	}
	backAgain := b.get(webAttr(back.one("page-prev"), "href"))
	if !slices.Equal(rowTitles(backAgain), rowTitles(first)) || backAgain.has("page-prev") {
		t.Fatalf("Previous from page 2: %v, want page 1", rowTitles(backAgain))
	}
	if u, _ := url.Parse(webAttr(third.one("page-first"), "href")); u.Query().Get("cursor") != "" || u.Query().Get("sort") != "title" {
		t.Fatalf("first-page link %q", u)
	}
	// A shared link shows the same page.
	shared := f.signIn(t, "ann").get(webAttr(second.one("page-next"), "href"))
	if !slices.Equal(rowTitles(shared), rowTitles(third)) {
		t.Fatalf("shared link: %v", rowTitles(shared))
	}

	t.Run("UnreadableCursor", func(t *testing.T) {
		p := b.get("/inbox?tab=available&cursor=bm9wZQ").wantStatus(http.StatusBadRequest)
		p.one("cursor-invalid")
		if u, _ := url.Parse(webAttr(p.one("cursor-first"), "href")); u.Query().Get("cursor") != "" || u.Query().Get("tab") != "available" {
			t.Fatalf("first page link %q", u)
		}
		b.get("/inbox?tab=available&cursor=a%20b").wantStatus(http.StatusBadRequest)
	})
}

func TestInboxRowActions(t *testing.T) {
	f := newWebFixture(t)
	avail := f.seed(t, webTaskOpts{title: "Claim me"})
	mine := f.seed(t, webTaskOpts{title: "Mine", assignee: "ann"})
	b := f.signIn(t, "ann")

	p := b.get("/inbox?tab=available")
	row := rowOf(p, avail.ID)
	if len(webWithin(row, "row-claim")) != 1 || len(webWithin(row, "row-release")) != 0 {
		t.Fatal("an available row must offer Claim only")
	}
	if webAttr(row, "data-revision") != "1" || !webHasAttr(row, "data-task-row") {
		t.Fatal("live-update hooks missing on the row")
	}
	assigned := b.get("/inbox")
	row = rowOf(assigned, mine.ID)
	if len(webWithin(row, "row-claim")) != 0 || len(webWithin(row, "row-release")) != 1 {
		t.Fatal("an assigned row must offer Release, not Claim")
	}
	boss := f.signIn(t, "boss").get("/inbox?tab=all")
	for _, r := range boss.all("task-row") {
		if len(webWithin(r, "row-claim")) != 0 || len(webWithin(r, "row-release")) != 0 {
			t.Fatal("a manager who is no candidate is offered claim or release")
		}
	}

	t.Run("ClaimMovesRow", func(t *testing.T) {
		form := webWithin(rowOf(p, avail.ID), "row-claim-form")[0]
		res := b.post(webAttr(form, "action"), webFormValues(form))
		if res.status != http.StatusSeeOther || res.location != "/inbox?tab=available" {
			t.Fatalf("claim: %d → %q, want 303 back to the list", res.status, res.location)
		}
		after := b.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "flash", after.text("flash"), "You claimed “Claim me”")
		if rowOf(after, avail.ID) != nil {
			t.Fatal("the claimed task is still available")
		}
		if rowOf(b.get("/inbox"), avail.ID) == nil {
			t.Fatal("the claimed task is not in the assigned list")
		}
		// A double submit of the same form replays instead of failing.
		again := b.post(webAttr(form, "action"), webFormValues(form))
		if again.status != http.StatusSeeOther {
			t.Fatalf("double submit: %d\n%s", again.status, again.body)
		}
	})
	t.Run("ReleaseFromInbox", func(t *testing.T) {
		list := b.get("/inbox")
		form := webWithin(rowOf(list, mine.ID), "row-release-form")[0]
		res := b.post(webAttr(form, "action"), webFormValues(form))
		if res.status != http.StatusSeeOther || res.location != "/inbox" {
			t.Fatalf("release: %d → %q", res.status, res.location)
		}
		if rowOf(b.follow(res), mine.ID) != nil {
			t.Fatal("the released task is still assigned")
		}
	})
	t.Run("ConflictKeepsTheList", func(t *testing.T) {
		other := f.seed(t, webTaskOpts{title: "Contended"})
		list := b.get("/inbox?tab=available&q=Contended")
		form := webWithin(rowOf(list, other.ID), "row-claim-form")[0]
		values := webFormValues(form)
		// Someone else (a manager assigning it) moves the task first.
		boss := f.signIn(t, "boss")
		bossPage := boss.get("/tasks/" + other.ID)
		boss.submit(bossPage, "manage-assign", url.Values{"assignee": {"bob"}}, nil)
		res := b.post(webAttr(form, "action"), values).wantStatus(http.StatusConflict)
		webWantContains(t, "banner", res.text("banner-conflict"), "changed")
		if got := webAttr(res.one("filter-q"), "value"); got != "Contended" {
			t.Fatalf("the re-rendered list lost its filters: %q", got)
		}
		if u, _ := url.Parse(webAttr(res.one("reload"), "href")); u.Query().Get("q") != "Contended" {
			t.Fatalf("reload link %q", u)
		}
	})
}

func TestInboxDatesAndOverdue(t *testing.T) {
	f := newWebFixture(t)
	late := f.seed(t, webTaskOpts{title: "Late", due: webPtr(time.Now().Add(-50 * time.Hour))})
	soon := f.seed(t, webTaskOpts{title: "Soon", due: webPtr(time.Now().Add(73 * time.Hour))})
	p := f.signIn(t, "ann").get("/inbox?tab=available")
	lateDue := webWithin(rowOf(p, late.ID), "due")[0]
	webWantContains(t, "late due", webText(lateDue), "2 days ago")
	webWantContains(t, "late due tooltip", webAttr(timesIn(lateDue)[0], "title"), "UTC")
	overdue := webWithin(rowOf(p, late.ID), "overdue")
	if len(overdue) != 1 || webText(overdue[0]) != "Overdue" {
		t.Fatal("overdue needs its text")
	}
	var svg bool
	webWalk(overdue[0], func(n *html.Node) { svg = svg || (n.Type == html.ElementNode && n.Data == "svg") })
	if !svg {
		t.Fatal("overdue needs its icon")
	}
	soonRow := rowOf(p, soon.ID)
	webWantContains(t, "soon due", webText(webWithin(soonRow, "due")[0]), "in 3 days")
	if len(webWithin(soonRow, "overdue")) != 0 {
		t.Fatal("a future due date is marked overdue")
	}
	var datetime string
	webWalk(soonRow, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "time" && datetime == "" {
			datetime = webAttr(n, "datetime")
		}
	})
	if _, err := time.Parse(time.RFC3339, datetime); err != nil {
		t.Fatalf("time datetime %q", datetime)
	}
	status := webWithin(soonRow, "status")[0]
	if webText(status) != "Available" || webAttr(status, "data-status") != "Available" {
		t.Fatalf("status badge %q", webText(status))
	}
	webWantContains(t, "priority", webText(webWithin(soonRow, "priority")[0]), "Normal")
}

func TestInboxGerman(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Rechnung prüfen", due: webPtr(time.Now().Add(-50 * time.Hour))})
	b := f.signIn(t, "ann")
	b.lang = "de-DE,de;q=0.9,en;q=0.5"
	p := b.get("/inbox?tab=available").wantStatus(http.StatusOK)
	if p.lang() != "de" || p.header.Get("Content-Language") != "de" {
		t.Fatalf("lang %q, Content-Language %q", p.lang(), p.header.Get("Content-Language"))
	}
	if got := p.text("tab-label-available"); got != "Verfügbar" {
		t.Fatalf("tab label %q", got)
	}
	if got := p.text("tab-label-assigned"); got != "Mir zugewiesen" {
		t.Fatalf("tab label %q", got)
	}
	row := p.all("task-row")[0]
	webWantContains(t, "overdue", webText(webWithin(row, "overdue")[0]), "Überfällig")
	webWantContains(t, "due", webText(webWithin(row, "due")[0]), "vor 2 Tagen")
	webWantContains(t, "claim button", webText(webWithin(row, "row-claim")[0]), "Übernehmen")
	webWantContains(t, "sign out", p.text("sign-out"), "Abmelden")
	if got := p.text("total-count"); got != "1 Aufgabe" {
		t.Fatalf("count %q", got)
	}
	b.get("/inbox?tab=history").one("empty-state")
	webWantContains(t, "empty", webText(b.get("/inbox?tab=history").one("empty-state")), "Noch keine erledigten Aufgaben")
}

// failingList makes List fail with err.
type failingList struct {
	handlers.TaskService
	err error
}

func (f failingList) List(context.Context, models.Actor, models.TaskFilter) (tasks.Page, error) {
	return tasks.Page{}, f.err
}

func TestInboxErrorState(t *testing.T) {
	for name, tc := range map[string]struct {
		err    error
		status int
	}{
		"Internal": {errors.New("disk on fire"), http.StatusInternalServerError},
		"Busy":     {fmt.Errorf("write: %w", models.ErrBusy), http.StatusServiceUnavailable},
	} {
		t.Run(name, func(t *testing.T) {
			f := newWebFixtureWith(t, func(s handlers.TaskService) handlers.TaskService { return failingList{s, tc.err} })
			p := f.signIn(t, "ann").get("/inbox?tab=available&q=invoice").wantStatus(tc.status)
			state := p.one("error-state")
			if webAttr(state, "role") != "alert" {
				t.Fatal("the error state is no alert")
			}
			if strings.Contains(p.body, "disk on fire") {
				t.Fatal("the internal error leaks into the page")
			}
			if got := webAttr(p.one("filter-q"), "value"); got != "invoice" {
				t.Fatalf("filters lost: %q", got)
			}
			if u, _ := url.Parse(webAttr(p.one("error-retry"), "href")); u.Query().Get("q") != "invoice" || u.Query().Get("tab") != "available" {
				t.Fatalf("retry link %q", u)
			}
			if tc.status == http.StatusServiceUnavailable && p.header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
		})
	}
}

// tabCounts reads the number on every inbox tab that shows one.
func tabCounts(t *testing.T, p *webPage) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, key := range []string{"assigned", "available", "history", "all", "needs-attention"} {
		if n := p.all("tab-count-" + key); len(n) == 1 {
			out[key] = webText(n[0])
		}
	}
	return out
}

func TestInboxTabCounts(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Mine", assignee: "ann"})
	f.seed(t, webTaskOpts{title: "For finance", due: webPtr(time.Now().Add(-time.Hour))})
	f.seed(t, webTaskOpts{title: "Also for finance", due: webPtr(time.Now().Add(-time.Hour))})

	// The current tab carries the list's total, whichever tab it is.
	for _, tc := range []struct {
		user, query string
		want        map[string]string
	}{
		{"ann", "/inbox", map[string]string{"assigned": "1"}},
		{"ann", "/inbox?tab=available", map[string]string{"available": "2"}},
		{"ann", "/inbox?tab=history", map[string]string{"history": "0"}},
		{"boss", "/inbox?tab=all", map[string]string{"all": "3"}},
		{"boss", "/inbox?tab=needs-attention", map[string]string{"needs-attention": "2"}},
		{"boss", "/inbox?tab=all&q=also", map[string]string{"all": "1"}},
	} {
		p := f.signIn(t, tc.user).get(tc.query).wantStatus(http.StatusOK)
		if got := tabCounts(t, p); !maps.Equal(got, tc.want) {
			t.Errorf("%s %s: tab counts %v, want %v", tc.user, tc.query, got, tc.want)
		}
	}
	if got := f.signIn(t, "boss").get("/inbox?tab=all").text("total-count"); got != "3 tasks" {
		t.Errorf("the All tab's total %q", got)
	}
	if got := tabCounts(t, f.signIn(t, "ann").get("/inbox?priorityFrom=abc").wantStatus(http.StatusUnprocessableEntity)); len(got) != 0 {
		t.Errorf("counted with invalid filters: %v", got)
	}
}
