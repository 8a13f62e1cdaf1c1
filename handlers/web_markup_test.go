package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"golang.org/x/net/html"
)

// TestWebMarkupHasNoStrayAttributes renders every kind of page and fails on attributes that
// only a templ syntax slip produces: a Go keyword such as `else` or `if` read as an attribute.
func TestWebMarkupHasNoStrayAttributes(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{})
	ann := f.signIn(t, "ann")
	claimedPage := ann.follow(ann.submit(ann.get("/tasks/"+task.ID), "task-claim-form", nil, nil))
	refused := ann.follow(ann.submit(claimedPage, "task-form", url.Values{"amount": {"abc"}}, claimedPage.one("action-approve")))
	boss := f.signIn(t, "boss")
	manager := boss.get("/tasks/" + task.ID)
	assignRefused := boss.submit(manager, "manage-assign", url.Values{"assignee": {""}}, nil)
	pages := map[string]*webPage{
		"login":          f.browser(t).get("/login"),
		"inbox":          ann.get("/inbox"),
		"inbox-all":      boss.get("/inbox?tab=all"),
		"inbox-invalid":  ann.get("/inbox?priorityFrom=abc"),
		"task":           claimedPage,
		"task-refused":   refused,
		"task-manager":   manager,
		"assign-422":     assignRefused,
		"task-history":   boss.get("/tasks/" + task.ID + "?tab=history"),
		"task-not-found": boss.get("/tasks/nope"),
	}
	for name, p := range pages {
		if p.doc == nil {
			t.Fatalf("%s: status %d, no HTML", name, p.status)
		}
		webWalk(p.doc, func(n *html.Node) {
			if n.Type != html.ElementNode {
				return
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "else", "if", "switch", "case", "{", "}":
					t.Errorf("%s: <%s id=%q> has a stray %q attribute", name, n.Data, webAttr(n, "id"), a.Key)
				}
			}
		})
	}
	// What the slipped branches meant to say.
	for key, want := range map[string]string{"count": "numeric", "amount": "decimal", "title": ""} {
		if got := webAttr(fieldInput(t, claimedPage, key), "inputmode"); got != want {
			t.Errorf("%s inputmode %q, want %q", key, got, want)
		}
	}
	if got := webAttr(webByID(manager.doc, "assign-assignee"), "aria-describedby"); got != "assign-assignee-help" {
		t.Errorf("assignee described by %q", got)
	}
	if got := webAttr(webByID(assignRefused.doc, "assign-assignee"), "aria-describedby"); got != "assign-assignee-help assign-assignee-error" {
		t.Errorf("refused assignee described by %q", got)
	}
	if webHasAttr(webByID(manager.doc, "assign-reason"), "aria-describedby") {
		t.Error("the reason has nothing to be described by")
	}
	if !pages["task-refused"].has("form-error") || pages["assign-422"].status != http.StatusUnprocessableEntity {
		t.Fatal("the refused forms did not re-render")
	}
}
