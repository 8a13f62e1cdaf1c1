package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// TestDigesterOnStore: five notifications waiting for Ada's hourly digest, on two tasks, go
// out as one mail grouped by task once their hour has ended, and leave the queue; with the
// relay down first, nothing is lost: the same rows go out after the failed attempt's lease.
// On every store.
func TestDigesterOnStore(t *testing.T) {
	testfactory.EachStore(t, nil, digesterOnStore)
}

func digesterOnStore(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Title: "Approve invoice 7", Reference: "INV-7"})
	b := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Title: "Check contract 9", Reference: "CON-9"})
	user := models.ParticipantRef{Tenant: "t1", Provider: ada.Provider, Type: models.UserParticipant, ID: "ada /?#é", DisplayName: "Ada"}
	if _, err := s.RecordPerson(ctx, models.Person{Tenant: "t1", User: user, Email: "ada@example.net", Language: "de", TimeZone: "Europe/Berlin"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	prefs := models.DefaultNotificationPreferences()
	prefs.Digest = models.DigestHourly
	prefs.Email[models.TriggerTaskAvailable] = true
	if _, err := s.SetNotificationPreferences(ctx, "t1", user, prefs); err != nil {
		t.Fatal(err)
	}
	now, _ := s.Now(ctx)
	hour := now.UTC().Truncate(time.Hour).Add(-2 * time.Hour) // an hour that has ended
	var rows []models.Notification
	for i, r := range []struct {
		task    *models.Task
		trigger models.NotificationTrigger
	}{{&a, models.TriggerTaskAvailable}, {&b, models.TriggerTaskAssigned}, {&a, models.TriggerOverdue}, {&b, models.TriggerOverdue}, {&a, models.TriggerTaskAssigned}} {
		n := storekit.NewNotification(r.task, r.trigger, int64(100+i), user, &grace, hour.Add(time.Duration(i+1)*time.Minute))
		rows = append(rows, n)
	}
	if n, err := s.AddNotifications(ctx, rows); err != nil || n != 5 {
		t.Fatalf("add: %d %v", n, err)
	}
	// The delivery worker's part: shown in-app, email left for the digest.
	claimed, err := s.ClaimNotifications(ctx, "node-1", 100, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range claimed {
		out := models.NotificationOutcome{State: models.NotificationDone, Email: models.ChannelOff, Webhook: models.ChannelOff, Visible: true}
		if n.Recipient.ID == user.ID {
			out.Email = models.ChannelDigest
		}
		if err := s.SettleNotification(ctx, n, out); err != nil {
			t.Fatal(err)
		}
	}

	down, err := notify.NewDigester(s, notify.DigestOptions{Owner: "node-1", Mailer: downMailer(t), Timeout: 500 * time.Millisecond, LeaseFor: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := down.RunOnce(ctx); err != nil || c.Failed != 1 || c.Mails != 0 {
		t.Fatalf("relay down: %+v %v", c, err)
	}
	if w, _ := s.DigestsWaiting(ctx, 10); len(w) != 1 {
		t.Fatalf("after the failed send %d people wait, want 1", len(w))
	}

	m, tokens, srv := mailer(t)
	d, err := notify.NewDigester(s, notify.DigestOptions{Owner: "node-2", Mailer: m, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := d.RunOnce(ctx); c.Mails != 0 {
		t.Fatalf("sent while the failed attempt's lease held: %+v", c)
	}
	time.Sleep(time.Second + 100*time.Millisecond) // the failed attempt's lease runs out
	c, err := d.RunOnce(ctx)
	if err != nil || c.Mails != 1 || c.Items != 5 {
		t.Fatalf("after the lease: %+v %v", c, err)
	}
	r := onlyMail(t, srv)
	if want := "Ihre stündliche Aufgaben-Zusammenfassung: 5 Neuigkeiten zu 2 Aufgaben"; r.subject != want {
		t.Errorf("subject %q, want %q", r.subject, want)
	}
	if strings.Count(r.text, "Approve invoice 7") != 1 || strings.Count(r.text, "Check contract 9") != 1 ||
		strings.Index(r.text, "Approve invoice 7") > strings.Index(r.text, "Check contract 9") {
		t.Errorf("not grouped by task, newest first:\n%s", r.text)
	}
	if !strings.Contains(r.text, "INV-7") || !strings.Contains(r.text, "/tasks/"+a.ID) {
		t.Errorf("text:\n%s", r.text)
	}
	if u, err := tokens.Parse(unsubscribeToken(t, r)); err != nil || !u.Digest() || u.User.ID != user.ID {
		t.Errorf("unsubscribe %+v %v", u, err)
	}
	if w, _ := s.DigestsWaiting(ctx, 10); len(w) != 0 {
		t.Fatalf("%d people still wait", len(w))
	}
	if c, _ := d.RunOnce(ctx); c.Mails != 0 || len(srv.Mails()) != 1 {
		t.Fatalf("a second run mailed again: %+v", c)
	}
}
