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
)

// fieldInput returns the control of a form field (input, textarea or select) by its id.
func fieldInput(t *testing.T, p *webPage, key string) *html.Node {
	t.Helper()
	n := webByID(p.doc, "f-"+key)
	if n == nil {
		t.Fatalf("no control for field %q", key)
	}
	return n
}

// labelFor returns the text of the label pointing at id.
func labelFor(p *webPage, id string) string {
	var out string
	webWalk(p.doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "label" && webAttr(n, "for") == id {
			out = webText(n)
		}
	})
	return out
}

// claimed seeds a task and has ann claim it on its page; it returns the task page.
func claimed(t *testing.T, f *webFixture, b *webBrowser, o webTaskOpts) (models.Task, *webPage) {
	t.Helper()
	task := f.seed(t, o)
	p := b.get("/tasks/" + task.ID)
	return task, b.follow(b.submit(p, "task-claim-form", nil, nil)).wantStatus(http.StatusOK)
}

func TestTaskPageHeader(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{assignee: "ann", priority: webPtr(85), due: webPtr(time.Now().Add(-3 * time.Hour))})
	p := f.signIn(t, "ann").get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	if got := p.text("task-title"); got != "Approve invoice" {
		t.Fatalf("title %q", got)
	}
	webWantContains(t, "type", p.text("task-type"), "Approval")
	header := p.one("task-header")
	status := webWithin(header, "status")[0]
	if webText(status) != "Assigned" {
		t.Fatalf("status %q", webText(status))
	}
	prio := webWithin(header, "priority")[0]
	if got := webText(prio); got != "Priority: High" || webAttr(prio, "title") != "Priority 85 of 100" {
		t.Fatalf("priority %q (title %q), want the word with the number in the tooltip", got, webAttr(prio, "title"))
	}
	due := webText(webWithin(header, "due")[0])
	webWantContains(t, "due", due, "Due")
	webWantContains(t, "due", due, "3 hours ago")
	if got := webText(webWithin(header, "overdue")[0]); got != "Overdue" {
		t.Fatalf("overdue %q", got)
	}
	page := p.one("task-page")
	if webAttr(page, "data-task-id") != task.ID || webAttr(page, "data-revision") != "1" || !webHasAttr(page, "data-task-page") {
		t.Fatal("live-update hooks missing on the task page")
	}
	if got := p.text("task-assignee"); got != "You" {
		t.Fatalf("assignee %q", got)
	}
	p.one("task-release-form")
	if p.has("task-claim-form") || p.has("banner-readonly") || p.has("banner-accepted") || p.has("banner-conflict") {
		t.Fatal("unexpected action or banner for the assignee")
	}
}

func TestTaskPageCandidateIsReadOnly(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{})
	p := f.signIn(t, "ann").get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	webWantContains(t, "read-only banner", p.text("banner-readonly"), "Claim it to work on it")
	p.one("task-claim")
	p.one("protected-hidden")
	for _, hidden := range []string{"task-tabs", "instructions", "task-form-section", "manage-panel", "task-release-form"} {
		if p.has(hidden) {
			t.Errorf("a candidate sees %s", hidden)
		}
	}
	if strings.Contains(p.body, "DE89370400440532013000") || strings.Contains(p.body, "supplier list") {
		t.Fatal("protected content leaks to a candidate")
	}
	// Sections that are not disclosed are not reachable by URL either.
	h := f.signIn(t, "ann").get("/tasks/" + task.ID + "?tab=history").wantStatus(http.StatusOK)
	if h.has("section-history") || !h.has("section-task") {
		t.Fatal("an undisclosed section rendered")
	}
}

func TestTaskPageFormWidgets(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	_, p := claimed(t, f, b, webTaskOpts{})
	webWantContains(t, "flash", p.text("flash"), "You claimed")

	keys, current := []string{}, ""
	webWalk(p.one("task-tabs"), func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			keys = append(keys, webAttr(n, "data-testid"))
			if webAttr(n, "aria-current") == "page" {
				current = webAttr(n, "data-testid")
			}
		}
	})
	if !slices.Equal(keys, []string{"tab-task", "tab-workflow", "tab-history"}) || current != "tab-task" {
		t.Fatalf("sections %v (current %q)", keys, current)
	}

	for key, want := range map[string]struct{ tag, typ string }{
		"amount": {"input", "number"}, "count": {"input", "number"}, "comment": {"textarea", ""},
		"title": {"input", "text"}, "paidOn": {"input", "date"}, "remindAt": {"input", "datetime-local"},
		"currency": {"select", ""}, "urgent": {"input", "checkbox"}, "contact": {"input", "email"},
		"link": {"input", "url"}, "iban": {"input", "text"},
	} {
		n := fieldInput(t, p, key)
		if n.Data != want.tag || (want.typ != "" && webAttr(n, "type") != want.typ) {
			t.Errorf("%s: <%s type=%q>, want <%s type=%q>", key, n.Data, webAttr(n, "type"), want.tag, want.typ)
		}
		if labelFor(p, "f-"+key) == "" {
			t.Errorf("%s has no label", key)
		}
		if webAttr(n, "name") != key {
			t.Errorf("%s: name %q", key, webAttr(n, "name"))
		}
	}
	radios := 0
	webWalk(p.one("field-decision"), func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "input" && webAttr(n, "type") == "radio" {
			radios++
			if labelFor(p, webAttr(n, "id")) == "" {
				t.Errorf("radio %s has no label", webAttr(n, "id"))
			}
		}
	})
	if radios != 2 {
		t.Fatalf("%d radios, want 2", radios)
	}
	var legend string
	webWalk(p.one("field-decision"), func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "legend" {
			legend = webText(n)
		}
	})
	webWantContains(t, "radio legend", legend, "Decision")
	webWantContains(t, "required mark", legend, "required")
	if got := labelFor(p, "f-amount"); !strings.Contains(got, "*") || !strings.Contains(got, "(required)") {
		t.Fatalf("amount label %q lacks the required mark", got)
	}
	amount := fieldInput(t, p, "amount")
	if webAttr(amount, "value") != "1200" || !webHasAttr(amount, "required") || webAttr(amount, "min") != "0" || webAttr(amount, "aria-describedby") != "f-amount-help" {
		t.Fatalf("amount: value %q, required %v, min %q, describedby %q", webAttr(amount, "value"), webHasAttr(amount, "required"), webAttr(amount, "min"), webAttr(amount, "aria-describedby"))
	}
	if count := fieldInput(t, p, "count"); webAttr(count, "step") != "1" || webAttr(count, "max") != "9" {
		t.Fatalf("count step %q max %q", webAttr(count, "step"), webAttr(count, "max"))
	}
	var selected string
	webWalk(fieldInput(t, p, "currency"), func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "option" && webHasAttr(n, "selected") {
			selected = webAttr(n, "value")
		}
	})
	if selected != "EUR" {
		t.Fatalf("currency selected %q", selected)
	}
	if webText(webByID(p.doc, "f-amount-help")) != "In euros" {
		t.Fatal("help text missing")
	}
	// The masked field shows •••• and a Reveal button; its value is not in the page.
	webWantContains(t, "masked", p.text("masked-iban"), "••••")
	if webAttr(fieldInput(t, p, "iban"), "value") != "" || strings.Contains(p.body, "DE89370400440532013000") {
		t.Fatal("the masked value is in the page")
	}
	reveal := p.one("reveal-iban")
	if webAttr(reveal, "formaction") == "" || webAttr(reveal, "value") != "iban" {
		t.Fatal("reveal button")
	}
	approve, reject := p.one("action-approve"), p.one("action-reject")
	if webAttr(approve, "name") != "action" || webAttr(approve, "value") != "approve" || webText(reject) != "Reject" {
		t.Fatal("one submit button per action, name=action value=key")
	}
	form := webFormValues(p.one("task-form"))
	if form.Get("expectedRevision") != "2" || form.Get("operationId") == "" || form.Get("csrf_token") == "" {
		t.Fatalf("hidden fields %v", form)
	}
	// Instructions: rendered Markdown with the raw HTML escaped, links with rel=noopener.
	instr := p.one("instructions")
	var link *html.Node
	var strong, script bool
	webWalk(instr, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "a":
			link = n
		case "strong":
			strong = true
		case "script":
			script = true
		}
	})
	if script || strings.Contains(p.body, "<script>alert") {
		t.Fatal("instructions let a script through")
	}
	webWantContains(t, "escaped html", webText(instr), "<script>alert(1)</script>")
	if !strong || link == nil || webAttr(link, "href") != "https://example.com/suppliers" || !strings.Contains(webAttr(link, "rel"), "noopener") {
		t.Fatal("markdown emphasis or safe link missing")
	}
}

func TestTaskPageValidationKeepsValues(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	task, p := claimed(t, f, b, webTaskOpts{})
	res := b.follow(b.submit(p, "task-form", url.Values{"amount": {"abc"}, "count": {"12"}, "comment": {"typed by hand"}, "decision": nil},
		p.one("action-approve"))).wantStatus(http.StatusOK)
	res.one("form-error")
	if webAttr(res.one("form-error"), "role") != "alert" {
		t.Fatal("the form error is no alert")
	}
	if got := res.text("error-amount"); got != "Amount must be a number." {
		t.Fatalf("amount message %q", got)
	}
	webWantContains(t, "count message", res.text("error-count"), "at most 9")
	webWantContains(t, "decision message", res.text("error-decision"), "required")
	amount := fieldInput(t, res, "amount")
	if webAttr(amount, "value") != "abc" || webAttr(amount, "type") != "text" || webAttr(amount, "aria-invalid") != "true" {
		t.Fatalf("amount kept as %q type %q aria-invalid %q", webAttr(amount, "value"), webAttr(amount, "type"), webAttr(amount, "aria-invalid"))
	}
	if !strings.Contains(webAttr(amount, "aria-describedby"), "f-amount-error") {
		t.Fatal("the message is not tied to the field")
	}
	if got := webAttr(fieldInput(t, res, "count"), "value"); got != "12" {
		t.Fatalf("count kept as %q", got)
	}
	if got := webText(fieldInput(t, res, "comment")); got != "typed by hand" {
		t.Fatalf("comment kept as %q", got)
	}
	if got := webFormValues(res.one("task-form")).Get("expectedRevision"); got != "2" {
		t.Fatalf("revision %q", got)
	}
	if f.current(t, task.ID).Status != models.StatusAssigned {
		t.Fatal("a refused form changed the task")
	}
}

func TestTaskPageConflict(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	task, p := claimed(t, f, b, webTaskOpts{})
	// A manager changes the priority while ann is filling in the form.
	prio := 99
	cur := f.current(t, task.ID)
	if _, err := f.svc.UpdateSchedule(context.Background(), bossActor(), task.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: cur.Revision}, Priority: &prio}); err != nil {
		t.Fatal(err)
	}
	res := b.follow(b.submit(p, "task-form", url.Values{"comment": {"my notes"}}, p.one("action-approve"))).wantStatus(http.StatusOK)
	webWantContains(t, "banner", res.text("banner-conflict"), "changed since you opened it")
	if webAttr(res.one("banner-conflict"), "role") != "alert" {
		t.Fatal("conflict banner is no alert")
	}
	if got := webAttr(res.one("reload"), "href"); got != "/tasks/"+task.ID {
		t.Fatalf("reload link %q", got)
	}
	if got := webText(fieldInput(t, res, "comment")); got != "my notes" {
		t.Fatalf("input in progress lost: %q", got)
	}
	webWantContains(t, "fresh header", webAttr(webWithin(res.one("task-header"), "priority")[0], "title"), "99")
	if f.current(t, task.ID).Status != models.StatusAssigned {
		t.Fatal("a stale form completed the task")
	}
}

func TestTaskPageAcceptedAfterComplete(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	task, p := claimed(t, f, b, webTaskOpts{})
	values := url.Values{"decision": {"reject"}, "comment": {"wrong amount"}, "urgent": {"true"}, "remindAt": {"2026-05-01T09:30"}}
	res := b.submit(p, "task-form", values, p.one("action-reject"))
	if res.status != http.StatusSeeOther || res.location != "/tasks/"+task.ID {
		t.Fatalf("complete: %d → %q\n%s", res.status, res.location, res.body)
	}
	done := b.follow(res).wantStatus(http.StatusOK)
	if got := done.text("banner-accepted"); got != "Submitted — the workflow is continuing." {
		t.Fatalf("accepted banner %q", got)
	}
	if got := webText(webWithin(done.one("task-header"), "status")[0]); got != "Completing" {
		t.Fatalf("status %q", got)
	}
	if done.has("task-form") || done.has("banner-readonly") || done.has("flash") {
		t.Fatal("a submitted task still offers the form, or shows a second message")
	}
	values2 := done.one("form-values")
	webWantContains(t, "submitted values", webText(values2), "wrong amount")
	webWantContains(t, "submitted datetime", done.text("shown-remindAt"), "1 May 2026, 09:30 UTC")
	if got := done.text("shown-urgent"); got != "Yes" {
		t.Fatalf("urgent shown as %q", got)
	}
	webWantContains(t, "outcome", done.text("task-outcome"), "Reject")
	stored := f.current(t, task.ID)
	if stored.Status != models.StatusCompleting || stored.Outcome.ActionKey != "reject" {
		t.Fatalf("stored %s / %s", stored.Status, stored.Outcome.ActionKey)
	}
	// The same form posted again replays the operation instead of failing.
	again := b.submit(p, "task-form", values, p.one("action-reject"))
	if again.status != http.StatusSeeOther {
		t.Fatalf("double submit: %d\n%s", again.status, again.body)
	}
}

func TestTaskPageNoForm(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	task, p := claimed(t, f, b, webTaskOpts{noForm: true})
	p.one("no-form")
	res := b.submit(p, "task-form", nil, p.one("action-approve"))
	if res.status != http.StatusSeeOther {
		t.Fatalf("complete without a form: %d\n%s", res.status, res.body)
	}
	if f.current(t, task.ID).Outcome.ActionKey != "approve" {
		t.Fatal("action not recorded")
	}
}

func TestTaskPageReveal(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	task, p := claimed(t, f, b, webTaskOpts{})

	t.Run("FromTheEditableForm", func(t *testing.T) {
		posted := b.submit(p, "task-form", url.Values{"comment": {"half written"}}, p.one("reveal-iban")).wantStatus(http.StatusSeeOther)
		if want := "/tasks/" + task.ID + "#f-iban"; posted.location != want {
			t.Fatalf("reveal redirects to %q, want %q", posted.location, want)
		}
		if strings.Contains(posted.location+posted.body, "DE89370400440532013000") {
			t.Fatal("the redirect carries the revealed value")
		}
		res := b.follow(posted).wantStatus(http.StatusOK)
		if got := webAttr(fieldInput(t, res, "iban"), "value"); got != "DE89370400440532013000" {
			t.Fatalf("revealed value %q", got)
		}
		if got := webText(fieldInput(t, res, "comment")); got != "half written" {
			t.Fatalf("input in progress lost on reveal: %q", got)
		}
		if res.has("masked-iban") {
			t.Fatal("the revealed field is still masked")
		}
		// A refresh is a plain GET: the value is masked again and nothing is revealed twice.
		before := len(f.events(t, task.ID))
		again := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		if strings.Contains(again.body, "DE89370400440532013000") || !again.has("masked-iban") {
			t.Fatal("a refresh after the reveal shows the value again")
		}
		if after := len(f.events(t, task.ID)); after != before {
			t.Fatalf("a refresh wrote %d events", after-before)
		}
	})
	t.Run("ReadOnlyForTheManager", func(t *testing.T) {
		boss := f.signIn(t, "boss")
		page := boss.get("/tasks/" + task.ID)
		page.one("masked-iban")
		form := page.one("reveal-iban").Parent
		res := boss.follow(boss.post(webAttr(form, "action"), webFormValues(form)).wantStatus(http.StatusSeeOther))
		if got := res.text("shown-iban"); got != "DE89370400440532013000" {
			t.Fatalf("revealed %q", got)
		}
		res.one("revealed-iban")
		hist := boss.get("/tasks/" + task.ID + "?tab=history")
		var types []string
		for _, e := range hist.all("event") {
			types = append(types, webAttr(e, "data-event-type"))
		}
		if !slices.Contains(types, string(models.EventFieldRevealed)) {
			t.Fatalf("history %v lacks the reveal", types)
		}
		if strings.Contains(hist.body, "DE89370400440532013000") {
			t.Fatal("the history shows the revealed value")
		}
	})
	t.Run("NotAMaskedField", func(t *testing.T) {
		res := b.post("/tasks/"+task.ID+"/reveal", url.Values{"reveal": {"comment"}, "csrf_token": {p.csrf()}}).wantStatus(http.StatusUnprocessableEntity)
		res.one("banner-error")
	})
}

func bossActor() models.Actor {
	return models.Actor{Tenant: "t1", Subject: models.ParticipantRef{Tenant: "t1", Provider: "default", Type: models.UserParticipant, ID: "boss"},
		Permissions: []string{"user-tasks:*"}, Manager: true}
}

func TestTaskPageManagePanel(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{})
	if f.signIn(t, "ann").get("/tasks/" + task.ID).has("manage-panel") {
		t.Fatal("a candidate sees the manage panel")
	}
	b := f.signIn(t, "boss")
	p := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	panel := p.one("manage-panel")
	for _, form := range []string{"manage-assign", "manage-schedule", "manage-retry", "manage-cancel"} {
		if len(webWithin(panel, form)) != 1 {
			t.Fatalf("manage panel lacks %s", form)
		}
	}
	webWantContains(t, "read-only", p.text("banner-readonly"), "Only its assignee can complete it")
	p.one("tab-workflow")
	p.one("tab-history")
	if got := webAttr(webByID(p.doc, "schedule-priority"), "value"); got != "50" {
		t.Fatalf("priority prefill %q", got)
	}

	t.Run("AssignValidation", func(t *testing.T) {
		res := b.submit(p, "manage-assign", url.Values{"assignee": {" "}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "assignee message", res.text("error-assignee"), "Enter a user ID")
		res = b.submit(p, "manage-assign", url.Values{"assignee": {"eve"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "excluded", res.text("error-assignee"), "excluded")
		if got := webAttr(webByID(res.doc, "assign-assignee"), "value"); got != "eve" {
			t.Fatalf("assignee kept as %q", got)
		}
	})
	t.Run("ScheduleValidation", func(t *testing.T) {
		res := b.submit(p, "manage-schedule", url.Values{"priority": {"150"}, "due": {"soon"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "priority", res.text("error-priority"), "0 to 100")
		webWantContains(t, "due", res.text("error-due"), "date and time")
		if got := webAttr(webByID(res.doc, "schedule-priority"), "value"); got != "150" {
			t.Fatalf("priority kept as %q", got)
		}
	})
	t.Run("CancelNeedsReason", func(t *testing.T) {
		res := b.submit(p, "manage-cancel", url.Values{"reason": {""}}, nil).wantStatus(http.StatusUnprocessableEntity)
		if got := res.text("error-reason"); got != "Enter a reason." {
			t.Fatalf("reason message %q", got)
		}
		if webAttr(webByID(res.doc, "cancel-reason"), "aria-invalid") != "true" {
			t.Fatal("aria-invalid missing on the reason")
		}
	})
	t.Run("ScheduleThenAssign", func(t *testing.T) {
		res := b.submit(p, "manage-schedule", url.Values{"priority": {"90"}, "due": {"2030-01-02T08:15"}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("schedule: %d\n%s", res.status, res.body)
		}
		after := b.follow(res)
		webWantContains(t, "flash", after.text("flash"), "saved")
		prio := webWithin(after.one("task-header"), "priority")[0]
		webWantContains(t, "priority", webText(prio), "High")
		webWantContains(t, "priority tooltip", webAttr(prio, "title"), "90")
		webWantContains(t, "due", webText(webWithin(after.one("task-header"), "due")[0]), "2 Jan 2030, 08:15 UTC")
		// The panel rendered before the schedule change now conflicts.
		stale := b.submit(p, "manage-assign", url.Values{"assignee": {"bob"}}, nil).wantStatus(http.StatusConflict)
		stale.one("banner-conflict")
		res = b.submit(after, "manage-assign", url.Values{"assignee": {"bob"}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("assign: %d\n%s", res.status, res.body)
		}
		// No directory names bob: the page shows his id, marked as one.
		if got := b.follow(res).text("task-assignee"); got != "bob (ID)" {
			t.Fatalf("assignee %q", got)
		}
	})
	t.Run("Cancel", func(t *testing.T) {
		page := b.get("/tasks/" + task.ID)
		res := b.submit(page, "manage-cancel", url.Values{"reason": {"duplicate request"}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("cancel: %d\n%s", res.status, res.body)
		}
		after := b.follow(res)
		webWantContains(t, "cancelling", after.text("banner-accepted"), "Cancellation requested")
		if after.has("manage-cancel") || after.has("manage-assign") {
			t.Fatal("a cancelling task still offers cancel or assign")
		}
		hist := b.get("/tasks/" + task.ID + "?tab=history")
		webWantContains(t, "history", webText(hist.one("history")), "duplicate request")
	})
}

func TestTaskPageSections(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	task, _ := claimed(t, f, b, webTaskOpts{})
	wf := b.get("/tasks/" + task.ID + "?tab=workflow").wantStatus(http.StatusOK)
	if got := wf.text("workflow-definition"); got != "invoice-approval" {
		t.Fatalf("workflow definition %q", got)
	}
	if webAttr(wf.one("tab-workflow"), "aria-current") != "page" || wf.has("task-form") {
		t.Fatal("workflow section not current, or the form renders outside the task section")
	}
	hist := b.get("/tasks/" + task.ID + "?tab=history").wantStatus(http.StatusOK)
	var types []string
	for _, e := range hist.all("event") {
		types = append(types, webAttr(e, "data-event-type"))
	}
	if !slices.Equal(types, []string{"created", "claimed"}) {
		t.Fatalf("history %v", types)
	}
	webWantContains(t, "actor", webText(hist.all("event")[1]), "Ann Approver")
}

func TestTaskPageNotFound(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{})
	missing := f.signIn(t, "ann").get("/tasks/" + models.NewID()).wantStatus(http.StatusNotFound)
	excluded := f.signIn(t, "eve").get("/tasks/" + task.ID).wantStatus(http.StatusNotFound)
	otherTenant := f.signIn(t, "otto").get("/tasks/" + task.ID).wantStatus(http.StatusNotFound)
	if missing.text("error-page") != excluded.text("error-page") || missing.text("error-page") != otherTenant.text("error-page") {
		t.Fatal("an invisible task is distinguishable from a missing one")
	}
	webWantContains(t, "message", missing.text("error-page"), "does not exist, or you cannot see it")
	// Posting to an invisible task is the same 404.
	eve := f.signIn(t, "eve")
	token := eve.get("/inbox").csrf()
	eve.post("/tasks/"+task.ID+"/claim", url.Values{"expectedRevision": {"1"}, "operationId": {"x"}, "csrf_token": {token}}).wantStatus(http.StatusNotFound)
	eve.post("/tasks/"+task.ID+"/claim", url.Values{"expectedRevision": {"x"}, "csrf_token": {token}}).wantStatus(http.StatusBadRequest)
}

func TestTaskPageGerman(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	b.lang = "de"
	task, p := claimed(t, f, b, webTaskOpts{due: webPtr(time.Now().Add(-3 * time.Hour))})
	if p.lang() != "de" {
		t.Fatalf("lang %q", p.lang())
	}
	header := p.one("task-header")
	if got := webText(webWithin(header, "status")[0]); got != "Zugewiesen" {
		t.Fatalf("status %q", got)
	}
	webWantContains(t, "overdue", webText(webWithin(header, "overdue")[0]), "Überfällig")
	webWantContains(t, "due", webText(webWithin(header, "due")[0]), "Fällig")
	if got := p.text("tab-history"); got != "Verlauf" {
		t.Fatalf("history tab %q", got)
	}
	webWantContains(t, "flash", p.text("flash"), "übernommen")
	res := b.follow(b.submit(p, "task-form", url.Values{"amount": {"abc"}}, p.one("action-approve"))).wantStatus(http.StatusOK)
	if got := res.text("error-amount"); got != "Amount muss eine Zahl sein." {
		t.Fatalf("German field message %q", got)
	}
	webWantContains(t, "form error", res.text("form-error"), "Das Formular enthält Fehler")
	done := b.follow(b.submit(res, "task-form", url.Values{"amount": {"5"}}, res.one("action-approve")))
	if got := done.text("banner-accepted"); got != "Übermittelt — der Workflow läuft weiter." {
		t.Fatalf("accepted banner %q", got)
	}
	_ = task
}

func TestTaskPageHealthForManagers(t *testing.T) {
	f := newWebFixture(t)
	blocked := f.seed(t, webTaskOpts{title: "Broken form", mutate: func(p *models.Projection) {
		p.Form = &models.PinnedForm{Requested: &models.FormRef{Provider: "files", Key: "missing"}}
	}})
	boss := f.signIn(t, "boss")
	list := boss.get("/inbox?tab=needs-attention")
	row := rowOf(list, blocked.ID)
	if row == nil {
		t.Fatal("a blocked task is not in needs-attention")
	}
	health := webWithin(row, "health")
	if len(health) != 1 || !strings.Contains(webText(health[0]), "Blocked") || webAttr(health[0], "data-health-code") != models.HealthFormResolutionFailed {
		t.Fatalf("health badge %v", health)
	}
	page := boss.get("/tasks/" + blocked.ID).wantStatus(http.StatusOK)
	webWantContains(t, "health banner", page.text("banner-health"), "then retry the resolution")
	page.one("health-fix-retry")
	page.one("manage-retry")
	if p := f.signIn(t, "ann").get("/tasks/" + blocked.ID); p.status != http.StatusNotFound {
		t.Fatalf("blocking health must hide the task from candidates: %d", p.status)
	}
	if rowOf(f.signIn(t, "ann").get("/inbox?tab=available"), blocked.ID) != nil {
		t.Fatal("a blocked task is listed for a candidate")
	}
}
