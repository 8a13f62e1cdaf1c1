package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Issue 30's browser test on the `web` binary itself: the runtime projects a task with a start
// deadline, the binary's own due sweep fires it, its delivery worker shows the escalation, and
// the manager sees it in the bell, on the task page (Deadlines, History, candidates), in Needs
// attention and on the dashboard.

// deadlineSweep is the due sweep's interval in this test: short, so a deadline 2 s after
// creation fires about then (the default sweeps once a minute).
const deadlineSweep = "500ms"

// deadlineServer is `web serve` in dev mode with a fast due sweep and delivery worker, and the
// runtime's token secret.
func deadlineServer(t *testing.T) *server {
	t.Helper()
	return startServerEnv(t,
		"USERTASKS_DUE_SWEEP_INTERVAL="+deadlineSweep,
		"USERTASKS_NOTIFY_INTERVAL=1s",
		// The shortest due-soon window: no seed task turns due soon while the test runs.
		"USERTASKS_DUE_SOON=1m",
		"USERTASKS_JWT_HS256_SECRET="+string(notifyFlowSecret),
	)
}

// deadlineTexts are what the pages say of the escalation, per language (views/i18n
// catalog_deadlines.go).
var deadlineTexts = map[string]struct {
	fired, history, dashHead string
	actions                  []string
}{
	"en": {fired: "Fired", history: "Deadline 1 (start) passed: reassigned, priority changed, notified, flagged",
		dashHead: "Escalations, last 7 days, per workflow",
		actions:  []string{"Reassign to 1 group", "Set the priority to 90", "Notify the managers", "Flag the task as “Deadline missed”"}},
	"de": {fired: "Ausgelöst", history: "Frist 1 (Übernahme) verstrichen: neu zugewiesen, Priorität geändert, benachrichtigt, markiert",
		dashHead: "Eskalationen der letzten 7 Tage je Workflow",
		actions:  []string{"Neu zuweisen an 1 Gruppe", "Die Priorität auf 90 setzen", "Die Manager benachrichtigen", "Die Aufgabe als „Frist verpasst“ markieren"}},
}

// TestDeadlineEscalation: ava, a manager, has the inbox open; the runtime projects a task for
// the finance group whose start deadline (after PT2S) reassigns it to purchasing, raises its
// priority to 90, notifies the managers and flags it. Nobody claims it: the due sweep fires the
// deadline and ava's bell goes 0 → 1 without a reload. She opens /notifications and follows the
// link: the task page shows the deadline fired (in her time zone) and the new candidates, its
// History tab the firing; Needs attention filtered by deadline-missed lists the task; the dashboard's
// "Escalations, last 7 days, per workflow" shows its workflow with 1 the same day, linking to its
// tasks. At 1366 and 375 px, in English and German, each page photographed and scanned with
// axe-core. One server for the four runs: each projects under its own workflow definition, so
// each dashboard row counts its own escalation.
func TestDeadlineEscalation(t *testing.T) {
	chromiumPath(t)
	srv := deadlineServer(t)
	b, shots := newBrowser(t), newShotLog(t)
	for _, c := range []struct {
		vp         viewport
		lang, zone string
	}{{desktop, "en", "America/New_York"}, {phone, "de", "Europe/Berlin"}, {desktop, "de", "Europe/Berlin"}, {phone, "en", "America/New_York"}} {
		t.Run(c.vp.name+"-"+c.lang, func(t *testing.T) { deadlineEscalation(t, srv, b, shots, c.vp, c.lang, c.zone) })
	}
}

func deadlineEscalation(t *testing.T, srv *server, b *browser, shots *shotLog, vp viewport, lang, zone string) {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	want := deadlineTexts[lang]
	key := vp.name + "-" + lang
	workflow := "escalation-e2e-" + key
	workflowName := map[string]string{"en": "Supplier onboarding ", "de": "Lieferantenaufnahme "}[lang] + key
	title := map[string]string{"en": "Check the supplier's bank details ", "de": "Bankdaten des Lieferanten prüfen "}[lang] + key

	ava := b.open(t, srv.URL, "ava", vp, shots)
	ava.setLanguage(lang)
	ava.setTimeZone(zone)
	ava.signIn("acme", false) // records her as a manager: "notify managers" reaches her
	ava.waitVisible(testid("list-area"))
	ava.settleNotifications()
	ava.do("mark earlier notifications read", fetchPost(`/api/v1/me/notifications/read`, `{"all": true}`))
	ava.reload()
	ava.waitVisible(testid("list-area"))
	if got := eval[string](ava, `document.querySelector('[data-testid="bell"]').getAttribute("data-unread")`); got != "" && got != "0" {
		t.Fatalf("the bell shows %q before the projection", got)
	}
	ava.waitLive()

	// The runtime projects the task; nobody takes it.
	rt := bearer(t, "engine", jwt.MapClaims{"permissions": []string{"user-tasks/runtime:write"}})
	var projected struct {
		TaskID string `json:"taskId"`
	}
	start := time.Now()
	apiCall(t, http.MethodPost, srv.URL+"/api/v1/runtime/bookmarks", rt, map[string]any{
		"workflowDefinitionId": workflow, "workflowDefinitionName": workflowName,
		"workflowInstanceId": "wf-" + key, "activityInstanceId": "act-" + key, "bookmarkId": "wf-" + key + "/act/1",
		"task": map[string]any{"title": title, "priority": 20, "candidateGroups": []map[string]string{{"id": "finance"}},
			"deadlines": []map[string]any{{"kind": "start", "after": "PT2S", "actions": []map[string]any{
				{"type": "reassign", "candidateGroups": []map[string]string{{"id": "purchasing"}}},
				{"type": "set-priority", "priority": 90},
				{"type": "notify", "to": "managers"},
				{"type": "flag"},
			}}}},
	}, &projected)
	id := projected.TaskID
	if id == "" {
		t.Fatal("the projection answered no task id")
	}

	// The bell counts the escalation without a reload.
	ava.waitFor("the bell to count the escalation", `(() => {
		const b = document.querySelector('[data-testid="bell"]');
		return b.getAttribute("data-unread") === "1" && !document.querySelector('[data-testid="bell-count"]').hidden;
	})()`, 20*time.Second)
	t.Logf("projection → escalation in the bell in %v (deadline 2 s, sweep every %s), without a reload", time.Since(start).Round(time.Millisecond), deadlineSweep)
	if nav := eval[string](ava, `performance.getEntriesByType("navigation").at(-1).type`); nav != "reload" {
		t.Fatalf("the page was %q since the bell was read: it reloaded", nav)
	}
	unread := eval[[]string](ava, `fetch("/api/v1/me/notifications?unread=true").then(r => r.json()).then(b => b.items.map(i => i.trigger + " " + i.taskId))`)
	if only := []string{"escalated " + id}; !slices.Equal(unread, only) {
		t.Fatalf("ava's unread notifications are %q, want %q", unread, only)
	}
	ava.shot("inbox-bell-" + lang)
	ava.axe("inbox with the escalation in the bell")

	// /notifications, then the task through the notification's link.
	ava.submit("open the notifications", testid("bell"))
	ava.waitVisible(testid("notifications"))
	if got := eval[string](ava, `document.querySelector('[data-testid="notification-link"]').textContent`); !strings.Contains(got, title) {
		t.Fatalf("the newest notification names %q, want %q", got, title)
	}
	ava.shot("notifications-" + lang)
	ava.axe("notifications with the escalation")
	ava.submit("follow the notification's link", testid("notification-link"))
	ava.waitVisible(testid("task-page"))
	if got := eval[string](ava, `document.querySelector('[data-task-page]').getAttribute("data-task-id")`); got != id {
		t.Fatalf("the link led to task %q, want %q", got, id)
	}

	// The task page: the deadline fired at a time shown in her zone, what it did, the History
	// entry and the candidates it named.
	ava.waitVisible(testid("deadlines"))
	deadline := `document.querySelector('[data-testid="deadline"][data-deadline-number="1"]')`
	if got := eval[string](ava, deadline+`.getAttribute("data-deadline-state")`); got != "fired" {
		t.Fatalf("the deadline's state is %q, want fired", got)
	}
	if got := eval[string](ava, deadline+`.querySelector('[data-testid="deadline-state"]').textContent`); !strings.Contains(got, want.fired) {
		t.Errorf("the deadline's state reads %q, want %q and when", strings.Join(strings.Fields(got), " "), want.fired)
	}
	if !eval[bool](ava, deadline+`.querySelector('[data-testid="deadline-state"] time[data-ts]') !== null`) {
		t.Error("the fired deadline does not say when it fired")
	}
	actions := eval[[]string](ava, `[...document.querySelectorAll('[data-testid="deadline-actions"] li')].map(e => e.textContent.trim())`)
	if !slices.Equal(actions, want.actions) {
		t.Errorf("the deadline's actions read %q, want %q", actions, want.actions)
	}
	groups := eval[[]string](ava, `[...document.querySelectorAll('[data-testid="candidate"][data-group]')].map(e => e.textContent.replace(/\s+/g, " ").trim())`)
	if !slices.ContainsFunc(groups, func(g string) bool { return strings.HasPrefix(g, "Purchasing") }) ||
		slices.ContainsFunc(groups, func(g string) bool { return strings.HasPrefix(g, "Finance") }) {
		t.Errorf("the candidate groups are %q, want Purchasing instead of Finance", groups)
	}
	ava.wantTimesIn("the escalated task page", loc)
	ava.shot("task-escalated-" + lang)
	ava.axe("task page after the escalation")
	if overflow := eval[int](ava, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
		t.Errorf("the task page scrolls sideways by %d px at %s", overflow, vp.name)
	}

	// History, the page's third tab, says what the firing did.
	ava.submit("open the History tab", testid("task-tabs")+" "+testid("tab-history"))
	ava.waitVisible(testid("section-history"))
	history := eval[[]string](ava, `[...document.querySelectorAll('[data-testid="event"][data-event-type="deadline-fired"]')].map(e => e.textContent.replace(/\s+/g, " ").trim())`)
	if len(history) != 1 || !strings.Contains(history[0], want.history) {
		t.Errorf("History's deadline-fired entries are %q, want one reading %q", history, want.history)
	}
	ava.wantTimesIn("the escalated task's History", loc)
	ava.shot("task-history-" + lang)
	ava.axe("task History after the escalation")

	// What the firing changed, through the JSON API with her session.
	detail := eval[map[string]any](ava, fmt.Sprintf(`fetch("/api/v1/user-tasks/%s").then(r => r.json())`, id))
	if got := detail["priority"]; got != float64(90) {
		t.Errorf("the priority is %v, want 90", got)
	}
	if got := detail["healthCode"]; got != "deadline-missed" {
		t.Errorf("the health code is %v, want deadline-missed", got)
	}
	wantDeadlineTimes(t, detail)

	// Needs attention, filtered by the flag.
	ava.navigate("/inbox?tab=needs-attention&healthCode=deadline-missed")
	ava.waitVisible(testid("list-area"))
	if ava.rowID(title) == "" {
		t.Errorf("Needs attention filtered by deadline-missed does not list %q", title)
	}

	// The dashboard counts the escalation today, under the task's workflow.
	ava.navigate("/manage")
	ava.waitVisible(testid("dash-escalations"))
	if got := eval[string](ava, `document.getElementById("dash-escalations").textContent.trim()`); got != want.dashHead {
		t.Errorf("the escalations card is headed %q, want %q", got, want.dashHead)
	}
	rows := eval[[][]string](ava, `[...document.querySelectorAll('[data-testid="escalation-row"]')].map(r =>
		[r.querySelector("th").textContent.trim(), r.querySelector('[data-testid="escalation-count"]').textContent.trim()])`)
	if !slices.ContainsFunc(rows, func(r []string) bool { return r[0] == workflowName && r[1] == "1" }) {
		t.Fatalf("the escalations card shows %q, want %q with 1", rows, workflowName)
	}
	// The count column's header and the workflow's name read as words: in a quarter of 1366 px
	// the header once broke as "Escalat-ions", then the name as "Lieferantena-ufnahme".
	for _, sel := range []string{`[data-testid="dash-escalations"] th.escalations__count`,
		fmt.Sprintf(`[data-testid="escalation-row"] a[href*=%q]`, "workflow="+workflow)} {
		if broken := eval[[]string](ava, fmt.Sprintf(brokenWords, sel)); len(broken) > 0 {
			t.Errorf("the escalations card breaks %q inside the word at %s", broken, vp.name)
		}
	}
	ava.shot("dashboard-" + lang)
	ava.axe("dashboard with an escalation")
	if overflow := eval[int](ava, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
		t.Errorf("the dashboard scrolls sideways by %d px at %s", overflow, vp.name)
	}
	ava.submit("open the workflow's tasks", fmt.Sprintf(`[data-testid="escalation-row"] a[href*=%q]`, "workflow="+workflow))
	ava.waitVisible(testid("list-area"))
	if ava.rowID(title) == "" {
		t.Errorf("the workflow's list from the escalations card does not show %q", title)
	}
	ava.checkNoErrors()
}

// brokenWords lists the words of the element the selector %q names that the layout breaks
// across lines (a word whose characters lie on more than one line); a hyphen ends a word, as
// a line may end there.
const brokenWords = `(() => {
	const out = [];
	const walk = document.createTreeWalker(document.querySelector(%q), NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		for (const m of n.textContent.matchAll(/[^\s-]+/g)) {
			const r = document.createRange();
			r.setStart(n, m.index);
			r.setEnd(n, m.index + m[0].length);
			if (new Set([...r.getClientRects()].map(c => Math.round(c.top))).size > 1) out.push(m[0]);
		}
	}
	return out;
})()`

// wantDeadlineTimes checks the detail's deadline: fired, due 2 s after the creation, and fired
// no earlier than due (the sweep reads the database clock).
func wantDeadlineTimes(t *testing.T, detail map[string]any) {
	t.Helper()
	ds, _ := detail["deadlines"].([]any)
	if len(ds) != 1 {
		t.Fatalf("the detail lists deadlines %v, want one", detail["deadlines"])
	}
	d, _ := ds[0].(map[string]any)
	if d["kind"] != "start" || d["state"] != "fired" {
		t.Fatalf("the detail's deadline is %v, want a fired start deadline", d)
	}
	parse := func(name string, v any) time.Time {
		s, _ := v.(string)
		at, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatalf("%s %q: %v", name, v, err)
		}
		return at
	}
	created, due, fired := parse("createdAt", detail["createdAt"]), parse("dueAt", d["dueAt"]), parse("firedAt", d["firedAt"])
	if got := due.Sub(created); got != 2*time.Second {
		t.Errorf("due %s after the creation, want 2s", got)
	}
	if fired.Before(due) {
		t.Errorf("fired at %s, before it was due at %s", fired, due)
	}
}
