package e2e

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"usertasks/handlers"
	"usertasks/live"
	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
)

// The notifications flow runs on an in-process server (the real router, store, service and
// live broker on a SQLite file), not the `web` binary: until the delivery worker exists, the
// test itself plays it — it writes the notification through the store (add, claim, settle
// visible) and calls live.Broker.Notify — which it can only do with the broker in its process.

// notifyRig is the in-process server of the notification flow.
type notifyRig struct {
	URL    string
	store  store.Store
	broker *live.Broker
}

var notifyUsers = []handlers.DevUser{
	{ID: "ann", DisplayName: "Ann Approver", Tenant: "acme", Groups: []string{"finance"}, Permissions: []string{"user-tasks:*"}},
	{ID: "max", DisplayName: "Max Manager", Tenant: "acme", Manager: true, Permissions: []string{"user-tasks:*"}},
}

func startNotifyRig(t *testing.T) *notifyRig {
	t.Helper()
	st := testfactory.OpenStore(t, testfactory.SQLite, nil)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	broker := live.NewBroker(st, live.Options{Logger: log})
	ran := make(chan struct{})
	go func() { _ = broker.Run(ctx); close(ran) }()
	st.NotifyChanges(broker)
	svc := tasks.New(st, tasks.Options{})
	sessions, err := websession.New(websession.Config{Store: st, Secrets: [][]byte{[]byte(strings.Repeat("n", 32))}, Insecure: true, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handlers.New(handlers.Deps{Store: st, Logger: log, Tasks: svc, Live: broker, Watchers: svc, Notifications: st,
		Web: &handlers.WebDeps{Tasks: svc, Sessions: sessions, DevUsers: notifyUsers, Logger: log, Inbox: tasks.NewInbox(st)}}))
	t.Cleanup(func() {
		cancel() // ends the broker and with it every stream, so the server can close
		<-ran
		srv.Close()
	})
	return &notifyRig{URL: srv.URL, store: st, broker: broker}
}

// TestNotificationBell: ann has the inbox open; a notification for her becomes visible and the
// delivery worker's Notify reaches her stream: the bell goes from nothing to 1 within 2 s
// without a reload. She opens /notifications from the bell, follows the link to the task and
// the row is there, read when she marks it. Both pages and the settings are photographed and
// scanned with axe-core at 1366 and 375 px, in English and German.
func TestNotificationBell(t *testing.T) {
	chromiumPath(t)
	b, shots := newBrowser(t), newShotLog(t)
	for _, c := range []struct {
		vp   viewport
		lang string
	}{{desktop, "en"}, {phone, "de"}, {desktop, "de"}, {phone, "en"}} {
		t.Run(c.vp.name+"-"+c.lang, func(t *testing.T) {
			rig := startNotifyRig(t)
			ctx := context.Background()
			task := testfactory.Task(ctx, t, rig.store, &testfactory.TaskOpts{Tenant: "acme", Title: "Approve invoice INV-7", Reference: "INV-7", Groups: []string{"finance"}})
			ann := b.open(t, rig.URL, "ann", c.vp, shots)
			ann.setLanguage(c.lang)
			ann.signIn("acme", false)
			ann.waitVisible(testid("list-area"))
			if got := eval[string](ann, `document.querySelector('[data-testid="bell"]').getAttribute("data-unread")`); got != "" {
				t.Fatalf("the bell shows %q before any notification", got)
			}
			ann.waitFor("the live stream to open", `document.documentElement.getAttribute("data-live-state") === "open"`, 10*time.Second)

			// The delivery worker's part: the row becomes visible, then Notify.
			max := testfactory.User("acme", "max")
			max.DisplayName = "Max Manager"
			n := testfactory.ShowNotification(ctx, t, rig.store, task, models.TriggerTaskAssigned, "ann", &max)
			start := time.Now()
			rig.broker.Notify("acme", testfactory.User("acme", "ann"))
			ann.waitFor("the bell to count 1", `(() => {
				const b = document.querySelector('[data-testid="bell"]');
				return b.getAttribute("data-unread") === "1" && !document.querySelector('[data-testid="bell-count"]').hidden;
			})()`, 2*time.Second)
			t.Logf("bell 0 → 1 in %v, without a reload", time.Since(start).Round(time.Millisecond))
			if nav := eval[string](ann, `performance.getEntriesByType("navigation")[0].type`); nav != "navigate" {
				t.Fatalf("the page was %q, want the original navigation", nav)
			}
			if label := eval[string](ann, `document.querySelector('[data-testid="bell"]').getAttribute("aria-label")`); !strings.Contains(label, "1") {
				t.Fatalf("the bell's name %q does not say 1", label)
			}
			ann.shot("inbox-bell-" + c.lang)
			ann.axe("inbox with the bell")

			ann.submit("open the notifications", testid("bell"))
			ann.waitVisible(testid("notifications"))
			if got := eval[string](ann, `document.querySelector('[data-testid="notification"]').getAttribute("data-notification-id")`); got != n.ID {
				t.Fatalf("the list shows %q, want %q", got, n.ID)
			}
			ann.shot("notifications-" + c.lang)
			ann.axe("notifications")

			ann.submit("follow the notification's link", testid("notification-link"))
			ann.waitVisible(testid("task-page"))
			if got := eval[string](ann, `document.querySelector('[data-task-page]').getAttribute("data-task-id")`); got != task.ID {
				t.Fatalf("the link led to task %q, want %q", got, task.ID)
			}

			ann.navigate("/notifications")
			ann.submit("mark it read", testid("mark-read"))
			ann.waitVisible(testid("flash"))
			if !eval[bool](ann, `document.querySelector('[data-testid="bell-count"]').hidden`) {
				t.Fatal("the bell still counts after marking read")
			}
			ann.shot("notifications-read-" + c.lang)

			ann.navigate("/settings/notifications")
			ann.waitVisible(testid("notification-settings"))
			ann.do("choose the daily digest", chromedp.Click(chromedp.CSS(testid("digest-daily")), chromedp.NodeVisible))
			ann.submit("save the settings", testid("save-notification-settings"))
			ann.waitVisible(testid("flash"))
			if !eval[bool](ann, `document.querySelector('[data-testid="digest-daily"]').checked`) {
				t.Fatal("the saved digest is not shown")
			}
			ann.shot("notification-settings-" + c.lang)
			ann.axe("notification settings")
			ann.checkNoErrors()
			if overflow := eval[int](ann, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
				t.Errorf("the settings page scrolls sideways by %d px at %s", overflow, c.vp.name)
			}
		})
	}
}
