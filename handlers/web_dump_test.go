package handlers_test

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWebSmokeDump writes rendered pages to $WEB_DUMP for looking at them in a browser.
func TestWebSmokeDump(t *testing.T) {
	dir := os.Getenv("WEB_DUMP")
	if dir == "" {
		t.Skip("set WEB_DUMP to a folder to write rendered pages")
	}
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{due: webPtr(time.Now().Add(-26 * time.Hour)), priority: webPtr(85)})
	f.seed(t, webTaskOpts{title: "Check delivery note", due: webPtr(time.Now().Add(50 * time.Hour))})
	f.seed(t, webTaskOpts{title: "Approve travel request", priority: webPtr(20), assignee: "ann"})
	save := func(name, body string) { os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644) }
	save("login.html", f.browser(t).get("/login").body)
	b := f.signIn(t, "ann")
	save("inbox.html", b.get("/inbox?tab=available").body)
	save("inbox-empty.html", b.get("/inbox?tab=history").body)
	p := b.get("/tasks/" + task.ID)
	save("task-candidate.html", p.body)
	p = b.follow(b.submit(p, "task-claim-form", nil, nil))
	save("task.html", p.body)
	p = b.submit(p, "task-form", url.Values{"amount": {"abc"}, "decision": nil}, p.one("action-approve"))
	save("task-422.html", p.body)
	boss := f.signIn(t, "boss")
	save("task-manager.html", boss.get("/tasks/"+task.ID).body)
	save("task-history.html", boss.get("/tasks/"+task.ID+"?tab=history").body)
	boss.lang = "de"
	save("inbox-de.html", boss.get("/inbox?tab=all").body)
	boss.lang = ""
	save("not-found.html", boss.get("/tasks/nope").body)
	save("inbox-invalid.html", b.get("/inbox?tab=available&priorityFrom=abc").body)
}
