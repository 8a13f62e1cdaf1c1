package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/models"
	"usertasks/tasks"
)

// Overdue is an open task's state: once the task is submitted or closed, no page marks it
// overdue, although the due sweep's flag stays on the stored task.
func TestClosedTasksAreNeverOverdue(t *testing.T) {
	f := newWebFixture(t)
	ann := f.signIn(t, "ann")
	past := webPtr(time.Now().Add(-2 * time.Hour))

	late, _ := claimed(t, f, ann, webTaskOpts{title: "Late but done", due: past})
	f.close(t, late.ID, models.MarkOverdue)
	open, _ := claimed(t, f, ann, webTaskOpts{title: "Late and open", due: past})
	f.close(t, open.ID, models.MarkOverdue)

	p := ann.get("/tasks/" + late.ID).wantStatus(http.StatusOK)
	if !p.has("overdue") {
		t.Fatal("an open task past its due date is not marked overdue")
	}
	ann.submit(p, "task-form", map[string][]string{"decision": {"approve"}, "amount": {"5"}}, p.one("action-approve"))
	if got := f.current(t, late.ID); got.Status != models.StatusCompleting || !got.IsOverdue {
		t.Fatalf("setup: status %s, overdue flag %v", got.Status, got.IsOverdue)
	}
	check := func(t *testing.T) {
		t.Helper()
		if p := ann.get("/tasks/" + late.ID).wantStatus(http.StatusOK); p.has("overdue") {
			t.Errorf("the task page marks a %s task overdue", f.current(t, late.ID).Status)
		}
		boss := f.signIn(t, "boss")
		for _, path := range []string{"/inbox?tab=all", "/inbox?tab=history", "/inbox"} {
			b := boss
			if path != "/inbox?tab=all" {
				b = ann
			}
			list := b.get(path).wantStatus(http.StatusOK)
			if row := rowOf(list, late.ID); row != nil && len(webWithin(row, "overdue")) != 0 {
				t.Errorf("%s marks a %s task overdue", path, f.current(t, late.ID).Status)
			}
		}
		list := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
		if row := rowOf(list, open.ID); row == nil || len(webWithin(row, "overdue")) != 1 {
			t.Error("the open task past its due date lost its overdue mark")
		}
	}
	t.Run("Completing", check)
	f.close(t, late.ID, models.Finalize)
	t.Run("Completed", check)
}

// tableHeads are the column headers of the task list, as read.
func tableHeads(p *webPage) []string {
	var heads []string
	webWalk(p.one("task-list"), func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "th" {
			heads = append(heads, webText(n))
		}
	})
	return heads
}

// cellUnder is the row's cell in the column headed head (the bulk checkbox column included).
func cellUnder(t *testing.T, p *webPage, row *html.Node, head string) *html.Node {
	t.Helper()
	i := slices.IndexFunc(tableHeads(p), func(h string) bool { return strings.HasPrefix(h, head) })
	if i < 0 {
		t.Fatalf("no column %q in %q", head, tableHeads(p))
	}
	var cells []*html.Node
	for c := row.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "td" {
			cells = append(cells, c)
		}
	}
	if i >= len(cells) {
		t.Fatalf("row has %d cells, column %q is the %d.", len(cells), head, i+1)
	}
	return cells[i]
}

// A column holds what its header says: on All tasks the Due column holds due dates only, and
// a Closed column tells when, by whom and how a closed task ended (issue 26, item 8).
func TestAllTasksHasAClosedColumn(t *testing.T) {
	f := newWebFixture(t)
	ann := f.signIn(t, "ann")
	due := webPtr(time.Now().Add(72 * time.Hour))
	done, p := claimed(t, f, ann, webTaskOpts{title: "Approved one", due: due})
	ann.submit(p, "task-form", map[string][]string{"decision": {"approve"}, "amount": {"5"}}, p.one("action-approve"))
	f.close(t, done.ID, models.Finalize)
	open := f.seed(t, webTaskOpts{title: "Still open", due: due})

	for _, tc := range []struct{ lang, due, closed, closedText string }{
		{"", "Due", "Closed", "by Ann Approver · Approve"},
		{"de", "Fällig", "Geschlossen", "von Ann Approver · Approve"},
	} {
		t.Run(webFirstOr(tc.lang, "en"), func(t *testing.T) {
			boss := f.signIn(t, "boss")
			boss.lang = tc.lang
			list := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
			heads := tableHeads(list)
			if !slices.ContainsFunc(heads, func(h string) bool { return strings.HasPrefix(h, tc.due) }) ||
				!slices.ContainsFunc(heads, func(h string) bool { return strings.HasPrefix(h, tc.closed) }) {
				t.Fatalf("columns %q, want both %s and %s", heads, tc.due, tc.closed)
			}
			row := rowOf(list, done.ID)
			dueCell, closedCell := cellUnder(t, list, row, tc.due), cellUnder(t, list, row, tc.closed)
			if len(webWithin(dueCell, "due")) != 1 || len(webWithin(dueCell, "row-closed")) != 0 {
				t.Errorf("the Due column of a closed task holds %q", webText(dueCell))
			}
			if c := webWithin(closedCell, "row-closed"); len(c) != 1 || !strings.Contains(webText(c[0]), tc.closedText) {
				t.Errorf("the Closed column of a closed task holds %q, want %q", webText(closedCell), tc.closedText)
			}
			row = rowOf(list, open.ID)
			if dueCell, closedCell := cellUnder(t, list, row, tc.due), cellUnder(t, list, row, tc.closed); len(webWithin(dueCell, "due")) != 1 || strings.TrimSpace(webText(closedCell)) != "" {
				t.Errorf("an open task: Due %q, Closed %q", webText(dueCell), webText(closedCell))
			}
		})
	}
	t.Run("HistoryHasNoDueColumn", func(t *testing.T) {
		heads := tableHeads(ann.get("/inbox?tab=history").wantStatus(http.StatusOK))
		if !slices.ContainsFunc(heads, func(h string) bool { return strings.HasPrefix(h, "Closed") }) || slices.Contains(heads, "Due") {
			t.Fatalf("history columns %q", heads)
		}
	})
	t.Run("OpenTabsHaveNoClosedColumn", func(t *testing.T) {
		heads := tableHeads(ann.get("/inbox?tab=available").wantStatus(http.StatusOK))
		if slices.ContainsFunc(heads, func(h string) bool { return strings.HasPrefix(h, "Closed") }) {
			t.Fatalf("available columns %q", heads)
		}
	})
}

// History lists the latest closed first by default, and its Closed header shows that sort
// (issue 26, item 20).
func TestHistoryDefaultsToClosedTime(t *testing.T) {
	f := newWebFixture(t)
	first := f.seed(t, webTaskOpts{title: "Created first, closed last"})
	second := f.seed(t, webTaskOpts{title: "Created last, closed first"})
	for _, id := range []string{second.ID, first.ID} {
		if _, err := f.svc.Cancel(context.Background(), bossActor(), id, tasks.CancelInput{
			Common: tasks.Common{ExpectedRevision: 1, OperationID: models.NewID()}, Reason: "duplicate"}); err != nil {
			t.Fatal(err)
		}
		f.close(t, id, models.Finalize)
		time.Sleep(20 * time.Millisecond) // distinct closing times on every store's clock
	}
	boss := f.signIn(t, "boss")
	for _, lang := range []string{"", "de"} {
		t.Run(webFirstOr(lang, "en"), func(t *testing.T) {
			boss.lang = lang
			p := boss.get("/inbox?tab=history").wantStatus(http.StatusOK)
			if got, want := rowTitles(p), []string{"Created first, closed last", "Created last, closed first"}; !slices.Equal(got, want) {
				t.Fatalf("history rows %q, want the latest closed first %q", got, want)
			}
			u, sorted := sortHeader(t, p, "completed")
			if sorted != "descending" || u.Query().Get("direction") != "asc" || u.Query().Get("sort") != "completed" {
				t.Fatalf("Closed header aria-sort %q, link %s; want descending, toggling to asc", sorted, u)
			}
			if !strings.Contains(webText(p.one("sort-completed")), "↓") {
				t.Errorf("the Closed header shows no arrow: %q", webText(p.one("sort-completed")))
			}
			if !webHasAttr(webByValue(p.one("filter-sort"), "completed"), "selected") {
				t.Error("the sort select does not show the default sort")
			}
			asc := boss.get(u.String()).wantStatus(http.StatusOK)
			if got, want := rowTitles(asc), []string{"Created last, closed first", "Created first, closed last"}; !slices.Equal(got, want) {
				t.Fatalf("history rows ascending %q, want %q", got, want)
			}
		})
	}
	t.Run("OtherTabsKeepCreation", func(t *testing.T) {
		boss.lang = ""
		p := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
		if _, sorted := sortHeader(t, p, "completed"); sorted != "" {
			t.Fatalf("All tasks sorted by closing time by default (aria-sort %q)", sorted)
		}
	})
}

// webByValue is the option of a select with the value.
func webByValue(sel *html.Node, value string) *html.Node {
	var out *html.Node
	webWalk(sel, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "option" && webAttr(n, "value") == value && out == nil {
			out = n
		}
	})
	if out == nil {
		return &html.Node{}
	}
	return out
}

// A tab link opens the tab as it is by default: the filters of the page shown belong to it
// (from the dashboard's Overdue number, Needs attention must not inherit due=overdue; issue
// 26, item 16).
func TestTabLinksOpenTheTabsDefault(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Late", due: webPtr(time.Now().Add(-time.Hour))})
	boss := f.signIn(t, "boss")
	want := map[string]string{"assigned": "/inbox", "available": "/inbox?tab=available", "history": "/inbox?tab=history",
		"all": "/inbox?tab=all", "needs-attention": "/inbox?tab=needs-attention"}
	for _, from := range []string{
		"/inbox?tab=all&due=overdue",
		"/inbox?tab=all&q=late&status=Available&priorityFrom=5&workflow=invoice-approval&sort=priority&direction=asc&pageSize=10",
		"/inbox?tab=history&sort=title",
	} {
		p := boss.get(from).wantStatus(http.StatusOK)
		for tab, href := range want {
			if got := webAttr(p.one("tab-"+tab), "href"); got != href {
				t.Errorf("from %s the %s tab links to %s, want %s", from, tab, got, href)
			}
		}
	}
}

// The status filter groups the workflow's transitional states under "In progress with the
// workflow" and says what Unassigned and Available mean (issue 26, item 22).
func TestStatusFilterGroupsAndExplains(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "Open one"})
	boss := f.signIn(t, "boss")
	groups := map[string][]string{
		"open":     {"Unassigned", "Available", "Assigned"},
		"workflow": {"Completing", "TimingOut", "Cancelling"},
		"closed":   {"Completed", "TimedOut", "Cancelled"},
	}
	for _, tc := range []struct{ lang, workflow, openHint string }{
		{"", "In progress with the workflow", "Available: its candidates may claim it"},
		{"de", "In Bearbeitung durch den Workflow", "Verfügbar: ihre Kandidaten können sie übernehmen"},
	} {
		t.Run(webFirstOr(tc.lang, "en"), func(t *testing.T) {
			boss.lang = tc.lang
			p := boss.get("/inbox?tab=all&status=Completing").wantStatus(http.StatusOK)
			for key, statuses := range groups {
				g := p.one("status-group-" + key)
				if webAttr(g, "role") != "group" {
					t.Errorf("group %s is no group", key)
				}
				name := webByID(p.one("filter-status"), webAttr(g, "aria-labelledby"))
				if name == nil || webText(name) == "" {
					t.Errorf("group %s has no name", key)
				}
				var got []string
				webWalk(g, func(n *html.Node) {
					if n.Data == "input" && webAttr(n, "name") == "status" {
						got = append(got, webAttr(n, "value"))
					}
				})
				if !slices.Equal(got, statuses) {
					t.Errorf("group %s holds %v, want %v", key, got, statuses)
				}
				if key == "workflow" && webText(name) != tc.workflow {
					t.Errorf("the transitional states are grouped as %q, want %q", webText(name), tc.workflow)
				}
			}
			hint := p.one("status-group-open-hint")
			webWantContains(t, "open hint", webText(hint), tc.openHint)
			if webAttr(p.one("status-group-open"), "aria-describedby") != webAttr(hint, "id") {
				t.Error("the open group is not described by its hint")
			}
			if !p.has("status-group-workflow-hint") {
				t.Error("the workflow group says nothing about its states")
			}
			if !webHasAttr(p.one("filter-status-Completing"), "checked") {
				t.Error("the chosen status is not checked")
			}
		})
	}
	t.Run("HostileStatus", func(t *testing.T) {
		boss.lang = ""
		p := boss.get("/inbox?tab=all&status=Completing&status=%3Cscript%3Ealert(1)%3C%2Fscript%3E").wantStatus(http.StatusUnprocessableEntity)
		if strings.Contains(p.body, "<script>alert(1)") {
			t.Fatal("the refused status is echoed as markup")
		}
		p.one("error-status")
	})
}
