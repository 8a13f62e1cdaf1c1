package e2e

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"usertasks/attachments"
	"usertasks/handlers"
	"usertasks/live"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
)

// startActivityRig is the notification rig's in-process server with attachments served.
func startActivityRig(t *testing.T) *notifyRig {
	t.Helper()
	st := testfactory.OpenStore(t, testfactory.SQLite, nil)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	broker := live.NewBroker(st, live.Options{Logger: log})
	ran := make(chan struct{})
	go func() { _ = broker.Run(ctx); close(ran) }()
	st.NotifyChanges(broker)
	svc := tasks.New(st, tasks.Options{})
	sessions, err := websession.New(websession.Config{Store: st, Secrets: [][]byte{[]byte(strings.Repeat("a", 32))}, Insecure: true, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handlers.New(handlers.Deps{Store: st, Logger: log, Tasks: svc, Live: broker, Watchers: svc, Notifications: st,
		Attachments: attachments.New(st, svc, attachments.Options{}),
		Web:         &handlers.WebDeps{Tasks: svc, Sessions: sessions, DevUsers: notifyUsers, Logger: log, Inbox: tasks.NewInbox(st)}}))
	t.Cleanup(func() {
		cancel()
		<-ran
		srv.Close()
	})
	return &notifyRig{URL: srv.URL, store: st, broker: broker}
}

// TestActivitySection: max (a manager) has the task open; ann, a candidate, comments with
// Markdown and uploads a PDF through the page's forms. Max's Activity list shows both without a
// reload (SSE kinds comment and attachment), and he downloads the PDF with the same bytes.
// Photographed and scanned with axe-core at 1366 and 375 px, in English and German.
func TestActivitySection(t *testing.T) {
	chromiumPath(t)
	b, shots := newBrowser(t), newShotLog(t)
	pdf := []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
	file := filepath.Join(t.TempDir(), "Rechnung März.pdf")
	if err := os.WriteFile(file, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		vp   viewport
		lang string
	}{{desktop, "en"}, {phone, "de"}, {desktop, "de"}, {phone, "en"}} {
		t.Run(c.vp.name+"-"+c.lang, func(t *testing.T) {
			rig := startActivityRig(t)
			task := testfactory.Task(context.Background(), t, rig.store, &testfactory.TaskOpts{Tenant: "acme", Title: "Approve invoice INV-7", Reference: "INV-7", Groups: []string{"finance"}})
			max := b.open(t, rig.URL, "max", c.vp, shots)
			max.setLanguage(c.lang)
			max.signIn("acme", false)
			max.navigate("/tasks/" + task.ID)
			max.waitVisible(testid("activity-empty"))
			max.waitFor("the live stream to open", `document.documentElement.getAttribute("data-live-state") === "open"`, 10*time.Second)

			ann := b.open(t, rig.URL, "ann", c.vp, shots)
			ann.setLanguage(c.lang)
			ann.signIn("acme", false)
			ann.navigate("/tasks/" + task.ID)
			ann.waitVisible(testid("activity-audience"))
			ann.do("type a comment", chromedp.SendKeys(chromedp.CSS(testid("comment-text")), "Is the **IBAN** right? @max", chromedp.NodeVisible))
			ann.submit("add the comment", testid("comment-submit"))
			ann.waitVisible(testid("comment"))
			if got := eval[string](ann, `document.querySelector('[data-testid="comment-body"] strong').textContent`); got != "IBAN" {
				t.Fatalf("the comment's Markdown shows %q in bold, want IBAN", got)
			}
			ann.do("choose the file", chromedp.SetUploadFiles(chromedp.CSS(testid("upload-file")), []string{file}, chromedp.NodeReady))
			ann.do("upload it", chromedp.Click(chromedp.CSS(testid("upload-submit")), chromedp.NodeVisible))
			ann.waitFor("the file in the list", `!!document.querySelector('[data-testid="attachment"]')`, 10*time.Second)
			ann.waitVisible(testid("flash"))
			ann.shot("activity-" + c.lang)
			ann.axe("task page with comments and files")
			ann.checkNoErrors()

			max.waitFor("the comment and the file without a reload", `!!document.querySelector('[data-testid="comment"]') && !!document.querySelector('[data-testid="attachment"]')`, 5*time.Second)
			if nav := eval[string](max, `performance.getEntriesByType("navigation")[0].type`); nav != "navigate" {
				t.Fatalf("max's page was %q, want the original navigation", nav)
			}
			got := eval[string](max, `fetch(document.querySelector('[data-testid="attachment-download"]').getAttribute("href")).then(r => r.text())`)
			if got != string(pdf) {
				t.Fatalf("max downloaded %q, want the uploaded bytes", got)
			}
			max.shot("activity-manager-" + c.lang)
			max.axe("task page refreshed live")
			max.checkNoErrors()
			if overflow := eval[int](ann, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
				t.Errorf("the task page scrolls sideways by %d px at %s", overflow, c.vp.name)
			}
		})
	}
}
