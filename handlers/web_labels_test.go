package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"usertasks/models"
)

// titledSchema chooses a decision by its title and submits its code (JSON Schema's titled enum).
const titledSchema = `{"type":"object","required":["decision"],"properties":{
 "decision":{"type":"string","oneOf":[{"const":"approve","title":"Approve the invoice"},{"const":"reject","title":"Send it back"},{"const":"escalate"}],
  "x-ui":{"label":"Decision","widget":"radio","order":1}},
 "route":{"type":"string","oneOf":[{"const":"fast","title":"Fast lane"},{"const":"slow","title":"<b>Slow</b> lane"}],"x-ui":{"label":"Route","widget":"select","order":2}}}}`

// TestFormOptionsShowTitles: radio and select options show their oneOf titles (the const when
// there is none), submit the const, and the read-only values show the title again.
func TestFormOptionsShowTitles(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")
	task, p := claimed(t, f, b, webTaskOpts{mutate: func(pr *models.Projection) {
		pr.Form = &models.PinnedForm{Schema: json.RawMessage(titledSchema)}
		pr.Data = json.RawMessage(`{}`)
	}})
	labels := map[string]string{}
	webWalk(p.one("task-form"), func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "input" && webAttr(n, "name") == "decision" {
			labels[webAttr(n, "value")] = labelFor(p, webAttr(n, "id"))
		}
	})
	want := map[string]string{"approve": "Approve the invoice", "reject": "Send it back", "escalate": "escalate"}
	for v, l := range want {
		if labels[v] != l {
			t.Errorf("radio %q labelled %q, want %q", v, labels[v], l)
		}
	}
	sel := webText(fieldInput(t, p, "route"))
	webWantContains(t, "select", sel, "Fast lane")
	webWantContains(t, "select", sel, "<b>Slow</b> lane") // text, not markup
	if strings.Contains(p.body, "<b>Slow</b>") {
		t.Fatal("an option title is not escaped")
	}

	bad := b.follow(refusedComplete(t, b, p, task.ID, url.Values{"decision": {"Approve the invoice"}}))
	webWantContains(t, "error", bad.text("error-decision"), "one of the offered options")

	done := b.submit(p, "task-form", url.Values{"decision": {"reject"}, "route": {"slow"}}, p.one("action-approve"))
	if done.status != http.StatusSeeOther {
		t.Fatalf("complete: %d\n%s", done.status, done.body)
	}
	if got := string(f.current(t, task.ID).Protected.CompletionData); !strings.Contains(got, `"decision":"reject"`) {
		t.Fatalf("stored %s, want the const", got)
	}
	after := b.follow(done)
	webWantContains(t, "shown value", after.text("shown-decision"), "Send it back")
}

// TestTaskTypeShownByName: the header names the task type in the reader's language and keeps
// the workflow's code in its tooltip.
func TestTaskTypeShownByName(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{mutate: func(p *models.Projection) { p.TaskType = "sign-off" }})
	other := f.seed(t, webTaskOpts{mutate: func(p *models.Projection) { p.TaskType = "credit_check" }})
	boss := f.signIn(t, "boss")
	typ := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK).one("task-type")
	if got := webText(typ); got != "Type: Sign-off" || webAttr(typ, "title") != "sign-off" {
		t.Fatalf("type %q (title %q)", got, webAttr(typ, "title"))
	}
	if got := webText(boss.get("/tasks/" + other.ID).one("task-type")); got != "Type: Credit check" {
		t.Fatalf("unknown type shown as %q", got)
	}
	boss.lang = "de"
	if got := webText(boss.get("/tasks/" + task.ID).one("task-type")); !strings.HasSuffix(got, "Abnahme") {
		t.Fatalf("German type %q", got)
	}
}
