package handlers_test

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"golang.org/x/net/html"
)

// TestWebBulkActionSections checks that the bulk form shows only the chosen action's fields:
// each action is a disclosure with its own fields and its own submit button (name="action"), so
// that without any script the fields shown are those of the action sent, and a refused form
// opens the section of the action it was refused for.
func TestWebBulkActionSections(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{title: "Quarterly report"})
	boss := f.signIn(t, "boss")
	page := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
	form := page.one("bulk-form")

	want := map[string][]string{
		"assign": {"assignee", "assignReason"}, "priority": {"priority"}, "reschedule": {"due"},
		"retry-resolution": nil, "cancel": {"reason"},
	}
	var selects []string
	webWalk(form, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "select" {
			selects = append(selects, webAttr(n, "name"))
		}
	})
	if len(selects) > 0 {
		t.Fatalf("the bulk form has selects %v: every action's fields show whichever is chosen", selects)
	}
	for _, action := range slices.Sorted(maps.Keys(want)) {
		section := page.one("bulk-action-" + action)
		if section.Data != "details" || webAttr(section, "name") != "bulk-action" || webHasAttr(section, "open") {
			t.Fatalf("%s: section <%s name=%q> open=%v, want a closed <details name=bulk-action>", action, section.Data, webAttr(section, "name"), webHasAttr(section, "open"))
		}
		var fields []string
		var buttons []*html.Node
		webWalk(section, func(n *html.Node) {
			if n.Type != html.ElementNode {
				return
			}
			switch n.Data {
			case "input", "textarea", "select":
				fields = append(fields, webAttr(n, "name"))
			case "button":
				buttons = append(buttons, n)
			}
		})
		if !slices.Equal(fields, want[action]) {
			t.Fatalf("%s: fields %v, want %v", action, fields, want[action])
		}
		if len(buttons) != 1 || webAttr(buttons[0], "type") != "submit" || webAttr(buttons[0], "name") != "action" || webAttr(buttons[0], "value") != action {
			t.Fatalf("%s: want one submit button action=%s", action, action)
		}
	}

	t.Run("RefusedOpensItsSection", func(t *testing.T) {
		checks := bulkChecks(page)
		res := boss.submit(page, "bulk-form", url.Values{"priority": {"101"}, "task": {checks[task.ID]}}, page.one("bulk-submit-priority")).
			wantStatus(http.StatusUnprocessableEntity)
		res.one("error-priority")
		for action := range want {
			if got := webHasAttr(res.one("bulk-action-"+action), "open"); got != (action == "priority") {
				t.Fatalf("%s open=%v after a refused priority change", action, got)
			}
		}
		if got := webAttr(res.one("bulk-priority"), "value"); got != "101" {
			t.Fatalf("the refused form lost the priority: %q", got)
		}
	})
	t.Run("AssignReasonIsTheAssigns", func(t *testing.T) {
		checks := bulkChecks(page)
		res := boss.submit(page, "bulk-form", url.Values{"assignee": {"ann"}, "assignReason": {"<b>cover</b>\u202e"}, "reason": {"not this one"},
			"task": {checks[task.ID]}}, page.one("bulk-submit-assign")).wantStatus(http.StatusUnprocessableEntity)
		res.one("error-assignReason")
		if !webHasAttr(res.one("bulk-action-assign"), "open") || webText(res.one("bulk-assign-reason")) != "<b>cover</b>\u202e" || webText(res.one("bulk-reason")) != "" {
			t.Fatal("the refused assign reason is not back in the assign section only")
		}
		res = boss.submit(page, "bulk-form", url.Values{"assignee": {"ann"}, "assignReason": {"Cover for Bob"}, "reason": {"<script>"},
			"task": {checks[task.ID]}}, page.one("bulk-submit-assign"))
		if res.status != http.StatusSeeOther {
			t.Fatalf("bulk assign: %d\n%s", res.status, res.body)
		}
	})
}
