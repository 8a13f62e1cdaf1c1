package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/testfactory"
)

// TestWebNotifications: the bell in the header counts the unread, /notifications lists them
// newest first with a link to the task, marks one and all read by form posts (PRG), and shows
// nobody else's.
func TestWebNotifications(t *testing.T) {
	f := newWebFixture(t)
	ctx := context.Background()
	task := f.seed(t, webTaskOpts{title: "Approve <b>invoice</b> & co"})
	boss := testfactory.User("t1", "boss")
	boss.DisplayName = "Bea Boss"
	first := testfactory.ShowNotification(ctx, t, f.store, task, models.TriggerTaskAssigned, "ann", &boss)
	task.Revision++
	second := testfactory.ShowNotification(ctx, t, f.store, task, models.TriggerTaskAvailable, "ann", nil)
	testfactory.ShowNotification(ctx, t, f.store, task, models.TriggerTaskAvailable, "bob", nil)

	ann := f.signIn(t, "ann")

	t.Run("Bell", func(t *testing.T) {
		inbox := ann.get("/inbox").wantStatus(http.StatusOK)
		bell := inbox.one("bell")
		if got := inbox.text("bell-count"); got != "2" {
			t.Fatalf("bell count %q, want 2", got)
		}
		if webAttr(bell, "href") != "/notifications" || !strings.Contains(webAttr(bell, "aria-label"), "2") {
			t.Fatalf("bell %s / %q", webAttr(bell, "href"), webAttr(bell, "aria-label"))
		}
		// Another tenant's user of the same fixture has nothing.
		otto := f.signIn(t, "otto").get("/inbox")
		if webHasAttr(otto.one("bell-count"), "hidden") == false {
			t.Fatalf("otto's bell shows %q", otto.text("bell-count"))
		}
	})

	t.Run("List", func(t *testing.T) {
		page := ann.get("/notifications").wantStatus(http.StatusOK)
		rows := page.all("notification")
		if len(rows) != 2 || webAttr(rows[0], "data-notification-id") != second.ID || webAttr(rows[1], "data-notification-id") != first.ID {
			t.Fatalf("rows %d, want ann's two newest first", len(rows))
		}
		links := page.all("notification-link")
		if webAttr(links[0], "href") != "/tasks/"+url.PathEscape(task.ID) || webText(links[0]) != "Approve <b>invoice</b> & co" {
			t.Fatalf("link %q %q", webAttr(links[0], "href"), webText(links[0]))
		}
		if strings.Contains(page.body, "<b>invoice</b>") {
			t.Fatal("the title reached the page unescaped")
		}
		if !strings.Contains(page.body, "Bea Boss") || !strings.Contains(page.body, "Assigned to you") {
			t.Fatal("the actor or the trigger is missing")
		}
		if len(page.all("mark-read")) != 2 || !page.has("mark-all-read") {
			t.Fatal("mark-read forms missing")
		}
	})

	t.Run("MarkOneReadPRG", func(t *testing.T) {
		page := ann.get("/notifications")
		res := ann.post("/notifications/read", url.Values{"id": {first.ID}, "csrf_token": {page.csrf()}})
		if res.status != http.StatusSeeOther || res.location != "/notifications" {
			t.Fatalf("mark read: %d → %q", res.status, res.location)
		}
		after := ann.follow(res)
		if !after.has("flash") || after.text("bell-count") != "1" {
			t.Fatalf("after marking one: flash %v, bell %q", after.has("flash"), after.text("bell-count"))
		}
		unread := ann.get("/notifications?unread=true")
		if rows := unread.all("notification"); len(rows) != 1 || webAttr(rows[0], "data-notification-id") != second.ID {
			t.Fatalf("unread rows %d", len(rows))
		}
	})

	t.Run("ErrCSRF", func(t *testing.T) {
		res := ann.post("/notifications/read", url.Values{"all": {"true"}, "csrf_token": {"forged"}})
		if res.status != http.StatusForbidden {
			t.Fatalf("without a valid token: %d", res.status)
		}
		if ann.get("/inbox").text("bell-count") != "1" {
			t.Fatal("a forged post marked notifications read")
		}
	})

	t.Run("AnotherPersonsID", func(t *testing.T) {
		bob := f.signIn(t, "bob")
		page := bob.get("/notifications")
		res := bob.post("/notifications/read", url.Values{"id": {second.ID}, "csrf_token": {page.csrf()}})
		if res.status != http.StatusSeeOther {
			t.Fatalf("bob's post: %d", res.status)
		}
		if ann.get("/inbox").text("bell-count") != "1" {
			t.Fatal("bob marked ann's notification read")
		}
	})

	t.Run("MarkAllRead", func(t *testing.T) {
		page := ann.get("/notifications")
		res := ann.submit(page, "mark-all-form", nil, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("mark all: %d", res.status)
		}
		after := ann.follow(res)
		if !webHasAttr(after.one("bell-count"), "hidden") || after.has("mark-all-read") {
			t.Fatal("unread left after marking all")
		}
		if empty := ann.get("/notifications?unread=true"); !empty.has("notifications-empty") {
			t.Fatal("no empty state")
		}
	})

	t.Run("ErrBadCursor", func(t *testing.T) {
		if res := ann.get("/notifications?cursor=%21"); res.status != http.StatusBadRequest {
			t.Fatalf("bad cursor: %d", res.status)
		}
	})

	t.Run("German", func(t *testing.T) {
		ann.lang = "de"
		defer func() { ann.lang = "" }()
		page := ann.get("/notifications")
		if page.lang() != "de" || !strings.Contains(page.body, "Benachrichtigungen") || !strings.Contains(page.body, "Ihnen zugewiesen") {
			t.Fatal("the page is not German")
		}
	})
}

// TestWebNotificationSettings: a checkbox per trigger and the digest, saved by a post with the
// CSRF token and a redirect with a flash; a digest that is not offered is refused with 422.
func TestWebNotificationSettings(t *testing.T) {
	f := newWebFixture(t)
	ann := f.signIn(t, "ann")
	page := ann.get("/settings/notifications").wantStatus(http.StatusOK)
	if !webHasAttr(page.one("email-task-assigned"), "checked") || webHasAttr(page.one("email-task-available"), "checked") ||
		!webHasAttr(page.one("digest-off"), "checked") {
		t.Fatal("the defaults are not shown")
	}
	set := url.Values{"email.task-available": {"on"}, "email.task-assigned": nil, "digest": {"hourly"}}
	res := ann.submit(page, "notification-settings", set, nil)
	if res.status != http.StatusSeeOther || res.location != "/settings/notifications" {
		t.Fatalf("save: %d → %q", res.status, res.location)
	}
	after := ann.follow(res)
	if !after.has("flash") || !webHasAttr(after.one("email-task-available"), "checked") || webHasAttr(after.one("email-task-assigned"), "checked") ||
		!webHasAttr(after.one("digest-hourly"), "checked") {
		t.Fatal("the saved choices are not shown")
	}
	p, err := f.store.Person(context.Background(), "t1", testfactory.User("t1", "ann"))
	if err != nil || !p.Preferences.EmailOn(models.TriggerTaskAvailable) || p.Preferences.EmailOn(models.TriggerTaskAssigned) || p.Preferences.Digest != models.DigestHourly {
		t.Fatalf("stored %+v, %v", p.Preferences, err)
	}

	t.Run("ErrDigest", func(t *testing.T) {
		res := ann.submit(after, "notification-settings", url.Values{"digest": {"weekly"}}, nil)
		if res.status != http.StatusUnprocessableEntity || !res.has("digest-error") {
			t.Fatalf("unknown digest: %d", res.status)
		}
	})
	t.Run("ErrCSRF", func(t *testing.T) {
		res := ann.post("/settings/notifications", url.Values{"digest": {"daily"}, "csrf_token": {"forged"}})
		if res.status != http.StatusForbidden {
			t.Fatalf("forged: %d", res.status)
		}
	})
	t.Run("ErrSignedOut", func(t *testing.T) {
		res := f.browser(t).get("/settings/notifications")
		if res.status != http.StatusSeeOther || !strings.HasPrefix(res.location, "/login") {
			t.Fatalf("signed out: %d → %q", res.status, res.location)
		}
	})
}

// TestWebRecordsPerson: a signed-in page records the person with the page's language; the
// session's zone once the browser reported it.
func TestWebRecordsPerson(t *testing.T) {
	f := newWebFixture(t)
	b := f.browser(t)
	b.lang = "de"
	b.signIn("ann")
	b.get("/inbox").wantStatus(http.StatusOK)
	p, err := f.store.Person(context.Background(), "t1", testfactory.User("t1", "ann"))
	if err != nil {
		t.Fatalf("ann was not recorded: %v", err)
	}
	if p.Language != "de" || p.User.DisplayName != "Ann Approver" || p.Manager {
		t.Fatalf("recorded %+v", p)
	}
	if _, err := f.store.Person(context.Background(), "t1", testfactory.User("t1", "bob")); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("bob recorded without a request: %v", err)
	}
}
