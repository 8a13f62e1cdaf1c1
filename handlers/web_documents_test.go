package handlers_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// TestWebPagesAreWholeDocuments renders every kind of page in its main states, in English and
// German, and checks what each must be: a whole HTML document in the right language with a
// title, one main landmark and one h1, unique ids, every visible control labelled, and no
// attribute a template slip would leave behind. With WEB_DUMP=<folder> it also writes the
// pages there, for looking at them in a browser.
func TestWebPagesAreWholeDocuments(t *testing.T) {
	dump := os.Getenv("WEB_DUMP")

	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			// Each language on its own server and tasks: each claims its own task.
			f := newWebFixture(t)
			task := f.seed(t, webTaskOpts{due: webPtr(time.Now().Add(-26 * time.Hour)), priority: webPtr(85)})
			f.seed(t, webTaskOpts{title: "Check delivery note", due: webPtr(time.Now().Add(50 * time.Hour))})
			f.seed(t, webTaskOpts{title: "Approve travel request", priority: webPtr(20), assignee: "ann"})
			check := func(name string, p *webPage, status int) {
				t.Helper()
				if p.status != status {
					t.Fatalf("%s: status %d, want %d", name, p.status, status)
				}
				wholeDocument(t, name, p, lang)
				if dump != "" {
					if err := os.WriteFile(filepath.Join(dump, lang+"-"+name+".html"), []byte(p.body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			anon := f.browser(t)
			anon.lang = lang
			check("login", anon.get("/login"), http.StatusOK)

			ann := f.signIn(t, "ann")
			ann.lang = lang
			check("inbox-assigned", ann.get("/inbox"), http.StatusOK)
			check("inbox-available", ann.get("/inbox?tab=available"), http.StatusOK)
			check("inbox-history-empty", ann.get("/inbox?tab=history"), http.StatusOK)
			check("inbox-invalid-filter", ann.get("/inbox?tab=available&priorityFrom=abc"), http.StatusUnprocessableEntity)
			p := ann.get("/tasks/" + task.ID)
			check("task-candidate", p, http.StatusOK)
			p = ann.follow(ann.submit(p, "task-claim-form", nil, nil))
			check("task-assignee", p, http.StatusOK)
			check("task-invalid", ann.follow(ann.submit(p, "task-form", url.Values{"amount": {"abc"}, "decision": nil}, p.one("action-approve"))), http.StatusOK)
			check("not-found", ann.get("/tasks/nope"), http.StatusNotFound)

			boss := f.signIn(t, "boss")
			boss.lang = lang
			check("inbox-all", boss.get("/inbox?tab=all"), http.StatusOK)
			check("inbox-needs-attention", boss.get("/inbox?tab=needs-attention"), http.StatusOK)
			check("task-manager", boss.get("/tasks/"+task.ID), http.StatusOK)
			check("task-history", boss.get("/tasks/"+task.ID+"?tab=history"), http.StatusOK)
			check("task-workflow", boss.get("/tasks/"+task.ID+"?tab=workflow"), http.StatusOK)
		})
	}
}

// wholeDocument checks the structure every page shares.
func wholeDocument(t *testing.T, name string, p *webPage, lang string) {
	t.Helper()
	if !strings.HasPrefix(strings.ToLower(p.body), "<!doctype html>") {
		t.Errorf("%s: no doctype", name)
	}
	if got := p.lang(); got != lang {
		t.Errorf("%s: <html lang=%q>, want %q", name, got, lang)
	}
	counts := map[string]int{}
	ids := map[string]int{}
	labelled := map[string]bool{}
	var title string
	var controls []*html.Node
	webWalk(p.doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		counts[n.Data]++
		if id := webAttr(n, "id"); id != "" {
			ids[id]++
		}
		for _, a := range n.Attr {
			if a.Key == "else" || a.Key == "if" || strings.HasPrefix(a.Key, "{") {
				t.Errorf("%s: <%s> has a stray %q attribute", name, n.Data, a.Key)
			}
		}
		switch n.Data {
		case "title":
			title = webText(n)
		case "label":
			labelled[webAttr(n, "for")] = true
		case "input", "select", "textarea":
			if webAttr(n, "type") != "hidden" {
				controls = append(controls, n)
			}
		}
	})
	if strings.TrimSpace(title) == "" {
		t.Errorf("%s: empty <title>", name)
	}
	if counts["main"] != 1 || counts["h1"] != 1 {
		t.Errorf("%s: %d <main> and %d <h1>, want one of each", name, counts["main"], counts["h1"])
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("%s: id %q is used %d times", name, id, n)
		}
	}
	for _, c := range controls {
		inLabel := false
		for a := c.Parent; a != nil; a = a.Parent {
			if a.Type == html.ElementNode && a.Data == "label" {
				inLabel = true
			}
		}
		if !inLabel && !labelled[webAttr(c, "id")] && webAttr(c, "aria-label") == "" && webAttr(c, "aria-labelledby") == "" {
			t.Errorf("%s: <%s name=%q> has no label", name, c.Data, webAttr(c, "name"))
		}
	}
}
