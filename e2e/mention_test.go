package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestMentionRingsTheBell (issue 29, "Done when"): cara, a candidate, comments on a task of
// her group and mentions @ben, her colleague in that group, who has the inbox open in a
// browser of his own. The delivery worker of the `web` binary shows the mention and his bell
// goes 0 → 1 without a reload (SSE `notification`); he opens /notifications, whose newest item
// is the mention naming the task, follows its link to the task page and sees the comment, and
// his inbox row of the task counts it. The notifications page is photographed and scanned
// with axe-core at 1366 and 375 px, in English and German.
func TestMentionRingsTheBell(t *testing.T) {
	chromiumPath(t)
	b, shots := newBrowser(t), newShotLog(t)
	// One server for the four runs: each starts from a read bell on a task of its own.
	srv := startServerEnv(t, "USERTASKS_NOTIFY_INTERVAL=1s", "USERTASKS_DUE_SOON=1m", "USERTASKS_JWT_HS256_SECRET="+string(notifyFlowSecret))
	for _, c := range []struct {
		vp   viewport
		lang string
	}{{desktop, "en"}, {phone, "de"}, {desktop, "de"}, {phone, "en"}} {
		t.Run(c.vp.name+"-"+c.lang, func(t *testing.T) { mentionRingsTheBell(t, b, shots, srv, c.vp, c.lang) })
	}
}

func mentionRingsTheBell(t *testing.T, b *browser, shots *shotLog, srv *server, vp viewport, lang string) {
	title := "Check IBAN " + vp.name + " " + lang
	task := project(t, srv.URL, "mention-"+vp.name+"-"+lang, title, map[string]any{"candidateGroups": []map[string]string{{"id": "finance"}}})

	ben := b.open(t, srv.URL, "ben", vp, shots)
	ben.setLanguage(lang)
	ben.signIn("acme", false)
	ben.waitVisible(testid("list-area"))
	// The seed and the new task notified him already (task-available): let the worker show
	// them all, then start from a read bell.
	ben.settleNotifications()
	ben.do("mark his notifications read", fetchPost(`/api/v1/me/notifications/read`, `{"all": true}`))
	ben.reload()
	ben.waitVisible(testid("list-area"))
	if got := eval[string](ben, `document.querySelector('[data-testid="bell"]').getAttribute("data-unread")`); got != "" && got != "0" {
		t.Fatalf("the bell shows %q before the mention", got)
	}
	ben.waitLive()

	cara := b.open(t, srv.URL, "cara", vp, shots)
	cara.setLanguage(lang)
	cara.signIn("acme", false)
	cara.navigate("/tasks/" + task)
	cara.waitVisible(testid("activity-audience"))
	text := "Is this the right IBAN, @ben? " + vp.name
	cara.do("type the comment", chromedp.SendKeys(chromedp.CSS(testid("comment-text")), text, chromedp.NodeVisible))
	start := time.Now()
	cara.submit("add the comment", testid("comment-submit"))
	cara.waitVisible(testid("comment"))
	cara.checkNoErrors()

	ben.waitFor("the bell to count 1", `(() => {
		const b = document.querySelector('[data-testid="bell"]');
		return b.getAttribute("data-unread") === "1" && !document.querySelector('[data-testid="bell-count"]').hidden;
	})()`, 10*time.Second)
	t.Logf("comment → bell 1 in %v, without a reload", time.Since(start).Round(time.Millisecond))
	if nav := eval[string](ben, `performance.getEntriesByType("navigation").at(-1).type`); nav != "reload" {
		t.Fatalf("ben's page was %q since the bell was read: it reloaded", nav)
	}

	ben.submit("open the notifications", testid("bell"))
	ben.waitVisible(testid("notifications"))
	trigger := map[string]string{"en": "You were mentioned", "de": "Sie wurden erwähnt"}[lang]
	if got := eval[string](ben, `document.querySelector('[data-testid="notification-trigger"]').textContent`); strings.TrimSpace(got) != trigger {
		t.Fatalf("the newest notification says %q, want %q", got, trigger)
	}
	if got := eval[string](ben, `document.querySelector('[data-testid="notification-link"]').textContent`); !strings.Contains(got, title) {
		t.Fatalf("the newest notification names %q, want %q", got, title)
	}
	// Never the comment's text: a notification carries safe fields only.
	if body := eval[string](ben, `document.querySelector('[data-testid="notifications"]').innerText`); strings.Contains(body, "IBAN, @ben") {
		t.Fatal("the notifications page shows the comment's text")
	}
	ben.shot("notifications-mention-" + lang)
	ben.axe("notifications with a mention")

	ben.submit("follow the mention's link", testid("notification-link"))
	ben.waitVisible(testid("task-page"))
	if got := eval[string](ben, `document.querySelector('[data-task-page]').getAttribute("data-task-id")`); got != task {
		t.Fatalf("the link led to task %q, want %q", got, task)
	}
	ben.waitVisible(testid("comment"))
	if got := eval[string](ben, `document.querySelector('[data-testid="comment-body"]').textContent`); !strings.Contains(got, "Is this the right IBAN, @ben?") {
		t.Fatalf("ben sees the comment as %q", got)
	}
	ben.axe("task page with the mention")

	// His inbox row of the task counts the comment.
	ben.navigate("/inbox?tab=available")
	ben.waitVisible(testid("list-area"))
	row := fmt.Sprintf(`document.querySelector('[data-testid="task-row"][data-task-id=%q] [data-testid="row-activity"]')`, task)
	if got := eval[string](ben, row+`.getAttribute("data-comments")`); got != "1" {
		t.Fatalf("the inbox row counts %q comments, want 1", got)
	}
	words := map[string]string{"en": "1 comment", "de": "1 Kommentar"}[lang]
	if got := eval[string](ben, row+`.getAttribute("title")`); got != words {
		t.Fatalf("the inbox row says %q, want %q", got, words)
	}
	if overflow := eval[int](ben, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
		t.Errorf("the inbox scrolls sideways by %d px at %s", overflow, vp.name)
	}
	ben.shot("inbox-counts-" + lang)
	ben.axe("inbox with a comment count")
	ben.checkNoErrors()
}
