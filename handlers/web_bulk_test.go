package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// bulkChecks are the values of the page's row checkboxes, by task id.
func bulkChecks(p *webPage) map[string]string {
	out := map[string]string{}
	for _, n := range p.all("bulk-select") {
		v := webAttr(n, "value")
		_, id, _ := strings.Cut(v, ":")
		out[id] = v
	}
	return out
}

// bulkOutcomes is "title: outcome" per item of a result page.
func bulkOutcomes(p *webPage) []string {
	var out []string
	for _, n := range p.all("bulk-item") {
		out = append(out, webText(webWithin(n, "bulk-item-title")[0])+": "+webAttr(n, "data-outcome"))
	}
	return out
}

func TestWebBulkToolbar(t *testing.T) {
	f := newWebFixture(t)
	overdue := time.Now().Add(-time.Hour) // needs attention lists overdue tasks, not fresh unassigned ones
	task := f.seed(t, webTaskOpts{title: "Pay <supplier> & co", due: &overdue})
	boss := f.signIn(t, "boss")

	for _, tab := range []string{"all", "needs-attention"} {
		page := boss.get("/inbox?tab=" + tab).wantStatus(http.StatusOK)
		form := page.one("bulk-form")
		if webAttr(form, "method") != "post" || webAttr(form, "action") != "/tasks/bulk" || webFormValues(form).Get("csrf_token") == "" {
			t.Fatalf("%s: bulk form %s %s without CSRF", tab, webAttr(form, "method"), webAttr(form, "action"))
		}
		box := page.one("bulk-select")
		if webAttr(box, "form") != "bulk-form" || webAttr(box, "value") != "1:"+task.ID || webAttr(box, "aria-label") != "Select “Pay <supplier> & co”" {
			t.Fatalf("%s: row checkbox %v", tab, box.Attr)
		}
		if got := webFormValues(form)["page"]; !slices.Equal(got, []string{"1:" + task.ID}) {
			t.Fatalf("%s: page rows %v", tab, got)
		}
		if !webHasAttr(page.one("bulk-toggle"), "hidden") {
			t.Fatalf("%s: the script's toggle shows without the script", tab)
		}
	}
	t.Run("NotOnPersonalTabs", func(t *testing.T) {
		for _, tab := range []string{"assigned", "available", "history"} {
			if page := boss.get("/inbox?tab=" + tab); page.has("bulk-form") || page.has("bulk-select") {
				t.Fatalf("%s shows bulk actions", tab)
			}
		}
	})
	t.Run("NotForWorkers", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		if page := ann.get("/inbox?tab=available").wantStatus(http.StatusOK); page.has("bulk-form") {
			t.Fatal("a worker sees bulk actions")
		}
		ann.get("/inbox?tab=all").wantStatus(http.StatusForbidden)
	})
}

func TestWebBulkFlow(t *testing.T) {
	f := newWebFixture(t)
	ctx := context.Background()
	a := f.seed(t, webTaskOpts{title: "Overdue one"})
	b := f.seed(t, webTaskOpts{title: "Overdue two"})
	c := f.seed(t, webTaskOpts{title: "Overdue three"})
	boss := f.signIn(t, "boss")
	page := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
	boss.postTimeZone("Europe/Berlin", page.csrf()).wantStatus(http.StatusNoContent)
	page = boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
	checks := bulkChecks(page)

	// Someone changes the second task after the page was shown.
	if _, err := f.svc.UpdateSchedule(ctx, testfactory.Manager("t1", "boss"), b.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: 1}, Priority: webPtr(10)}); err != nil {
		t.Fatal(err)
	}
	res := boss.submit(page, "bulk-form", url.Values{"action": {"reschedule"}, "due": {"2031-07-01T09:00"},
		"task": {checks[a.ID], checks[b.ID], checks[c.ID]}}, nil)
	if res.status != http.StatusSeeOther || !strings.HasPrefix(res.location, "/tasks/bulk/") {
		t.Fatalf("bulk post: %d → %q\n%s", res.status, res.location, res.body)
	}
	if strings.Contains(res.location, "?") || strings.Contains(res.location, "Overdue") || strings.Contains(res.location, a.ID) {
		t.Fatalf("the result travels in the URL: %s", res.location)
	}
	result := boss.follow(res).wantStatus(http.StatusOK)
	want := []string{"Overdue one: done", "Overdue two: conflict", "Overdue three: done"}
	if got := bulkOutcomes(result); !slices.Equal(got, want) {
		t.Fatalf("outcomes %v, want %v", got, want)
	}
	webWantContains(t, "summary", result.text("bulk-summary"), "2 done, 1 conflict, 0 refused")
	reload := result.one("bulk-item-reload")
	if webAttr(reload, "href") != "/tasks/"+b.ID {
		t.Fatalf("reload link %q", webAttr(reload, "href"))
	}
	webWantContains(t, "conflict reason", webText(result.all("bulk-item-reason")[0]), "changed after you selected it")
	wantDue := time.Date(2031, 7, 1, 7, 0, 0, 0, time.UTC) // typed in Berlin (CEST)
	if got := f.current(t, a.ID); got.DueAt == nil || !got.DueAt.Equal(wantDue) || got.Revision != 2 {
		t.Fatalf("first task: due %v revision %d, want %v at 2", got.DueAt, got.Revision, wantDue)
	}
	if got := f.current(t, b.ID); got.DueAt != nil || got.Revision != 2 {
		t.Fatalf("the changed task was rescheduled anyway: %v, revision %d", got.DueAt, got.Revision)
	}
	if back := webAttr(result.one("bulk-back"), "href"); back != "/inbox?tab=all" {
		t.Fatalf("back to %q", back)
	}

	t.Run("RefreshDoesNotResubmit", func(t *testing.T) {
		again := boss.get(res.location).wantStatus(http.StatusOK)
		if got := bulkOutcomes(again); !slices.Equal(got, want) {
			t.Fatalf("outcomes after refresh %v", got)
		}
		if got := f.current(t, a.ID).Revision; got != 2 {
			t.Fatalf("refresh changed the task: revision %d", got)
		}
	})
	t.Run("DoubleSubmitReplays", func(t *testing.T) {
		res := boss.submit(page, "bulk-form", url.Values{"action": {"reschedule"}, "due": {"2031-07-01T09:00"},
			"task": {checks[a.ID], checks[c.ID]}}, nil)
		if got := bulkOutcomes(boss.follow(res)); !slices.Equal(got, []string{"Overdue one: done", "Overdue three: done"}) {
			t.Fatalf("double submit: %v", got)
		}
		if got := f.current(t, a.ID).Revision; got != 2 {
			t.Fatalf("the double submit acted twice: revision %d", got)
		}
	})
	t.Run("SamePageAnotherAction", func(t *testing.T) {
		res := boss.submit(page, "bulk-form", url.Values{"action": {"priority"}, "priority": {"90"}, "task": {checks[a.ID]}}, nil)
		if got := bulkOutcomes(boss.follow(res)); !slices.Equal(got, []string{"Overdue one: conflict"}) {
			t.Fatalf("another action from the same page: %v, want a conflict (the revision moved), not an idempotency conflict", got)
		}
	})
	t.Run("ResultIsBoundToTheSession", func(t *testing.T) {
		other := f.signIn(t, "boss")
		other.get(res.location).wantStatus(http.StatusNotFound)
		for _, bad := range []string{"/tasks/bulk/" + models.NewID(), "/tasks/bulk/x%00y", "/tasks/bulk/%C3%BC%20a", "/tasks/bulk/" + strings.Repeat("a", 3000)} {
			boss.get(bad).wantStatus(http.StatusNotFound)
		}
		f.signIn(t, "ann").get(res.location).wantStatus(http.StatusForbidden)
	})
	t.Run("German", func(t *testing.T) {
		boss.lang = "de"
		defer func() { boss.lang = "" }()
		de := boss.get(res.location).wantStatus(http.StatusOK)
		webWantContains(t, "summary", de.text("bulk-summary"), "2 erledigt, 1 Konflikt, 0 abgelehnt")
		webWantContains(t, "outcome", webText(de.all("bulk-item-outcome")[1]), "Konflikt")
	})
}

func TestWebBulkRefusals(t *testing.T) {
	f := newWebFixture(t)
	open := f.seed(t, webTaskOpts{title: "Open"})
	closed := f.seed(t, webTaskOpts{title: "Closed"})
	testfactory.Finalize(context.Background(), t, f.store, closed)
	boss := f.signIn(t, "boss")
	page := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
	checks := bulkChecks(page)

	t.Run("CSRF", func(t *testing.T) {
		values := webFormValues(page.one("bulk-form"))
		values.Del("csrf_token")
		values.Set("action", "retry-resolution")
		values["task"] = []string{checks[open.ID]}
		boss.post("/tasks/bulk", values).wantStatus(http.StatusForbidden)
		if got := f.current(t, open.ID).Revision; got != 1 {
			t.Fatal("a post without the CSRF token acted")
		}
	})
	t.Run("ErrForbiddenForWorkers", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		csrf := ann.get("/inbox").csrf()
		ann.post("/tasks/bulk", url.Values{"csrf_token": {csrf}, "action": {"retry-resolution"}, "task": {checks[open.ID]}}).
			wantStatus(http.StatusForbidden)
	})
	t.Run("NothingSelected", func(t *testing.T) {
		res := boss.submit(page, "bulk-form", url.Values{"action": {"cancel"}, "reason": {"Duplicate order"}}, nil).
			wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "error", res.text("bulk-error"), "Select at least one task")
		if got := webFormValues(res.one("bulk-form")); got.Get("reason") != "Duplicate order" || !webHasAttr(res.one("bulk-action-cancel"), "open") {
			t.Fatalf("the form lost its values: %v", got)
		}
	})
	t.Run("MissingFieldsOfTheAction", func(t *testing.T) {
		for action, field := range map[string]string{"assign": "assignee", "cancel": "reason", "priority": "priority", "reschedule": "due"} {
			res := boss.submit(page, "bulk-form", url.Values{"action": {action}, "task": {checks[open.ID]}}, nil).
				wantStatus(http.StatusUnprocessableEntity)
			res.one("error-" + field)
			if !slices.ContainsFunc(res.all("bulk-select"), func(n *html.Node) bool {
				return webAttr(n, "value") == checks[open.ID] && webHasAttr(n, "checked")
			}) {
				t.Fatalf("%s: the checked row is no longer checked", action)
			}
		}
		boss.submit(page, "bulk-form", url.Values{"action": {"priority"}, "priority": {"101"}, "task": {checks[open.ID]}}, nil).
			wantStatus(http.StatusUnprocessableEntity).one("error-priority")
		boss.submit(page, "bulk-form", url.Values{"action": {"delete"}, "task": {checks[open.ID]}}, nil).
			wantStatus(http.StatusUnprocessableEntity).one("error-action")
		if got := f.current(t, open.ID).Revision; got != 1 {
			t.Fatal("a refused form acted")
		}
	})
	t.Run("AllOnPageAndRefusedItems", func(t *testing.T) {
		values := webFormValues(page.one("bulk-form"))
		values.Set("all", "true")
		values.Set("action", "cancel")
		values.Set("reason", "Season is over")
		values.Add("page", "1:../x?y#z ü\u202e")
		res := boss.post("/tasks/bulk", values)
		got := bulkOutcomes(boss.follow(res).wantStatus(http.StatusOK))
		wantOutcomes := []string{"Closed: refused", "Open: done", "A task that no longer exists or that you cannot see: refused"}
		slices.Sort(got)
		slices.Sort(wantOutcomes)
		if !slices.Equal(got, wantOutcomes) {
			t.Fatalf("outcomes %v, want %v", got, wantOutcomes)
		}
		if f.current(t, open.ID).Status != models.StatusCancelling {
			t.Fatal("the open task was not cancelled")
		}
	})
	t.Run("TamperedRowValue", func(t *testing.T) {
		for _, v := range []string{"abc", "0:" + open.ID, ":" + open.ID, "1:"} {
			boss.submit(page, "bulk-form", url.Values{"action": {"retry-resolution"}, "task": {v}}, nil).wantStatus(http.StatusBadRequest)
		}
	})
	t.Run("ForeignReturnIgnored", func(t *testing.T) {
		res := boss.submit(page, "bulk-form", url.Values{"action": {"retry-resolution"}, "task": {checks[open.ID]}, "return": {"https://evil.example/inbox"}}, nil)
		if back := webAttr(boss.follow(res).one("bulk-back"), "href"); back != "/inbox?tab=all" {
			t.Fatalf("back to %q", back)
		}
	})
}
