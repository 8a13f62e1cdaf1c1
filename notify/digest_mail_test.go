package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
)

// TestDigestMailGroupsByTask: five notifications on two tasks make one mail that lists each
// task once, the task with the newest news first and its lines newest first, with a one-click
// unsubscribe from the digest.
func TestDigestMailGroupsByTask(t *testing.T) {
	m, tokens, srv := mailer(t)
	base := time.Date(2026, 12, 10, 8, 0, 0, 0, time.UTC)
	items := []notify.Item{
		{Notification: notification("n1", models.TriggerTaskAvailable, "task-a", base), Task: task("task-a", "Approve invoice 7")},
		{Notification: notification("n2", models.TriggerTaskAssigned, "task-b", base.Add(10*time.Minute)), Task: task("task-b", "Check contract 9")},
		{Notification: notification("n3", models.TriggerDueSoon, "task-a", base.Add(20*time.Minute)), Task: task("task-a", "Approve invoice 7")},
		{Notification: notification("n4", models.TriggerOverdue, "task-b", base.Add(30*time.Minute)), Task: task("task-b", "Check contract 9")},
		{Notification: notification("n5", models.TriggerMentioned, "task-a", base.Add(40*time.Minute)), Task: task("task-a", "Approve invoice 7")},
	}
	items[3].Notification.Actor = nil // the system
	if err := m.SendDigest(context.Background(), recipient("en", "Europe/Berlin"), models.DigestDaily, items); err != nil {
		t.Fatal(err)
	}
	r := onlyMail(t, srv)
	if want := "Your daily task summary: 5 updates on 2 tasks"; r.subject != want {
		t.Errorf("subject %q, want %q", r.subject, want)
	}
	for _, part := range []string{r.text, r.html} {
		a, b := strings.Index(part, "Approve invoice 7"), strings.Index(part, "Check contract 9")
		if a < 0 || b < 0 || a > b || strings.Count(part, "Approve invoice 7") != 1+strings.Count(part, "<title>Approve") {
			t.Errorf("tasks not listed once each, newest news first:\n%s", part)
		}
		order := []string{
			"You were mentioned by Grace Hopper · 10 Dec 2026, 09:40 CET",
			"Due soon by Grace Hopper · 10 Dec 2026, 09:20 CET",
			"Available to you by Grace Hopper · 10 Dec 2026, 09:00 CET",
			"Overdue · 10 Dec 2026, 09:30 CET",
			"Assigned to you by Grace Hopper · 10 Dec 2026, 09:10 CET",
		}
		last := -1
		for _, line := range order {
			i := strings.Index(part, line)
			if i <= last {
				t.Errorf("line %q missing or out of order:\n%s", line, part)
			}
			last = i
		}
	}
	u, err := tokens.Parse(unsubscribeToken(t, r))
	if err != nil || !u.Digest() || u.User.ID != "ada" {
		t.Errorf("the digest's unsubscribe names %+v (%v)", u, err)
	}
	if !strings.Contains(r.text, "Stop notification emails: ") {
		t.Errorf("text:\n%s", r.text)
	}
	t.Run("German", func(t *testing.T) {
		m, _, srv := mailer(t)
		if err := m.SendDigest(context.Background(), recipient("de", "Europe/Berlin"), models.DigestHourly, items[:1]); err != nil {
			t.Fatal(err)
		}
		if r := onlyMail(t, srv); r.subject != "Ihre stündliche Aufgaben-Zusammenfassung: 1 Neuigkeit zu 1 Aufgabe" ||
			!strings.Contains(r.text, "Für Sie verfügbar von Grace Hopper · 10. Dez. 2026, 09:00 CET") {
			t.Errorf("subject %q, text:\n%s", r.subject, r.text)
		}
	})
	t.Run("NothingNoMail", func(t *testing.T) {
		m, _, srv := mailer(t)
		if err := m.SendDigest(context.Background(), recipient("en", ""), models.DigestDaily, nil); err != nil || len(srv.Mails()) != 0 {
			t.Fatalf("err %v, %d mails", err, len(srv.Mails()))
		}
	})
}
