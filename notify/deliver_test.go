package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// A group row becomes a row per member as the directory answers: never for an excluded user
// or the actor of the change; each member's row is then shown to them.
func TestDeliverExpandsGroups(t *testing.T) {
	s, _ := sqliteStore(t)
	task := project(t, s, testfactory.TaskOpts{Groups: []string{"finance"}, Excluded: []string{"cid"}})
	// A second change's row for the same group, caused by bob.
	bob := user("bob")
	bob.DisplayName = "Bob"
	group := testfactory.Group("t1", "finance")
	if _, err := s.AddNotifications(t.Context(), []models.Notification{
		storekit.NewNotification(&task, models.TriggerTaskAvailable, 99, group, &bob, time.Now()),
	}); err != nil {
		t.Fatal(err)
	}
	d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory()})
	got := total(runIdle(t, d))
	if got.Expanded != 2 || got.Members != 3 || got.Shown != 3 {
		t.Fatalf("counts %+v, want 2 groups expanded into 3 member rows, all shown", got)
	}
	revisions := func(who string) []int64 {
		var out []int64
		for _, n := range inbox(t, s, who) {
			if n.TaskID != task.ID || n.Trigger != models.TriggerTaskAvailable || n.Recipient.Type != models.UserParticipant {
				t.Errorf("%s was shown %+v", who, n)
			}
			out = append(out, n.Revision)
		}
		slices.Sort(out)
		return out
	}
	if got, want := revisions("ann"), []int64{int64(task.Revision), 99}; !slices.Equal(got, want) {
		t.Errorf("ann's revisions %v, want %v", got, want)
	}
	if got, want := revisions("bob"), []int64{int64(task.Revision)}; !slices.Equal(got, want) {
		t.Errorf("bob's revisions %v, want %v (never told of his own change)", got, want)
	}
	if n := inbox(t, s, "cid"); len(n) != 0 {
		t.Errorf("excluded cid was told: %+v", n)
	}
	for _, n := range inbox(t, s, "ann") {
		if n.Revision == 99 && (n.Actor == nil || n.Actor.ID != "bob" || n.Title != task.Title) {
			t.Errorf("member row %+v: want the group row's actor and title", n)
		}
	}
}

// failingDirectory answers every question with an outage.
type failingDirectory struct{ calls int }

func (f *failingDirectory) Expand(context.Context, string, models.ParticipantRef) ([]models.ParticipantRef, error) {
	f.calls++
	return nil, errors.New("directory down")
}

func (f *failingDirectory) Search(context.Context, string, string, models.ParticipantType, int) ([]models.ParticipantRef, error) {
	return nil, errors.New("directory down")
}

// A group row without a directory, or of a group the directory does not know, is dropped;
// a directory that does not answer is asked again on the schedule.
func TestDeliverGroupWithoutAnswer(t *testing.T) {
	t.Run("NoDirectory", func(t *testing.T) {
		s, _ := sqliteStore(t)
		project(t, s, testfactory.TaskOpts{Groups: []string{"finance"}})
		got := total(runIdle(t, newDeliverer(s, "node-a", notify.Options{})))
		if got.Dropped != 1 || got.Members != 0 {
			t.Fatalf("counts %+v, want the group row dropped", got)
		}
		if n := inbox(t, s, "ann"); len(n) != 0 {
			t.Fatalf("ann was told without a directory: %+v", n)
		}
	})
	t.Run("GroupUnknown", func(t *testing.T) {
		s, _ := sqliteStore(t)
		project(t, s, testfactory.TaskOpts{Groups: []string{"ghosts"}})
		got := total(runIdle(t, newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory()})))
		if got.Dropped != 1 || got.Members != 0 {
			t.Fatalf("counts %+v, want the group row dropped", got)
		}
	})
	t.Run("DirectoryDownIsRetried", func(t *testing.T) {
		s, clock := sqliteStore(t)
		project(t, s, testfactory.TaskOpts{Groups: []string{"finance"}})
		dir := &failingDirectory{}
		d := newDeliverer(s, "node-a", notify.Options{Directory: dir})
		if got := total(runIdle(t, d)); got.Retried != 1 || got.Dropped != 0 {
			t.Fatalf("counts %+v, want one retry", got)
		}
		clock.Advance(time.Minute)
		if got := total(runIdle(t, d)); got.Claimed != 1 || got.Retried != 1 {
			t.Fatalf("after a minute: %+v, want the row tried again", got)
		}
	})
}

// Visibility is checked again at delivery: a person with no relation to the task is told
// nothing (the row is dropped); one the product recorded as a manager is told.
func TestDeliverDropsWhatTheRecipientCannotSee(t *testing.T) {
	s, _ := sqliteStore(t)
	task := project(t, s, testfactory.TaskOpts{Candidates: []string{"ann"}})
	if _, err := s.RecordPerson(t.Context(), models.Person{Tenant: "t1", User: user("eve"), Manager: true}, time.Minute); err != nil {
		t.Fatal(err)
	}
	var rows []models.Notification
	for _, who := range []string{"zed", "eve"} {
		rows = append(rows, storekit.NewNotification(&task, models.TriggerMentioned, 7, user(who), nil, time.Now()))
	}
	if _, err := s.AddNotifications(t.Context(), rows); err != nil {
		t.Fatal(err)
	}
	hook := newHookServer(t)
	got := total(runIdle(t, newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)})))
	if got.Dropped != 1 || got.Shown != 2 {
		t.Fatalf("counts %+v, want zed's row dropped, ann's and eve's shown", got)
	}
	if n := inbox(t, s, "zed"); len(n) != 0 {
		t.Fatalf("zed was shown %+v", n)
	}
	if n := inbox(t, s, "eve"); len(n) != 1 {
		t.Fatalf("eve (a recorded manager) was shown %d rows, want 1", len(n))
	}
	for _, c := range hook.all() {
		if strings.Contains(string(c.Body), `"zed"`) {
			t.Fatalf("the webhook heard of a dropped row: %s", c.Body)
		}
	}
}

// The webhook call is signed like the invitation webhook's, keyed by the notification id,
// carries safe fields only; a 500 is tried again with the same key, a redirect is not followed.
func TestDeliverWebhook(t *testing.T) {
	s, clock := sqliteStore(t)
	task := project(t, s, testfactory.TaskOpts{Title: "Pay <invoice> ä/?#", Assignee: "ann"})
	hook := newHookServer(t)
	hook.status = func(n int) int { return []int{500, 302, 204}[min(n, 3)-1] }
	d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)})

	if got := total(runIdle(t, d)); got.Retried != 1 || got.Shown != 1 {
		t.Fatalf("first attempt: %+v, want shown in-app and the 500 retried", got)
	}
	clock.Advance(time.Minute)
	if got := total(runIdle(t, d)); got.Retried != 1 {
		t.Fatalf("second attempt: %+v, want the redirect retried", got)
	}
	hook.mu.Lock()
	followed := hook.elsewhere
	hook.mu.Unlock()
	if followed != 0 {
		t.Fatalf("the redirect was followed")
	}
	clock.Advance(5 * time.Minute)
	if got := total(runIdle(t, d)); got.Webhook != 1 || got.Shown != 0 {
		t.Fatalf("third attempt: %+v, want the webhook acknowledged (and not shown again)", got)
	}
	clock.Advance(3 * time.Hour)
	if got := total(runIdle(t, d)); got.Claimed != 0 {
		t.Fatalf("a delivered row was claimed again: %+v", got)
	}

	calls := hook.all()
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3", len(calls))
	}
	shown := inbox(t, s, "ann")
	if len(shown) != 1 {
		t.Fatalf("ann was shown %d rows, want 1", len(shown))
	}
	id := shown[0].ID
	for _, c := range calls {
		if c.Key != id {
			t.Errorf("Idempotency-Key %q, want the notification id %q", c.Key, id)
		}
		if want := invitations.Sign(c.Body, []byte(hookSecret)); c.Signature != want {
			t.Errorf("signature %q, want %q", c.Signature, want)
		}
	}
	var body notify.WebhookBody
	if err := json.Unmarshal(calls[2].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.ID != id || body.Tenant != "t1" || body.Trigger != "task-assigned" || body.TaskID != task.ID || body.Title != task.Title ||
		body.Recipient.ID != "ann" || body.Recipient.Provider != models.DefaultProvider || body.OccurredAt.IsZero() ||
		body.Link != "https://tasks.example/tasks/"+task.ID {
		t.Errorf("body %+v", body)
	}
	if strings.Contains(string(calls[2].Body), "@") {
		t.Errorf("the body carries an address: %s", calls[2].Body)
	}
}

// A failing channel is retried after 1 min, 5 min, 30 min and 2 h, and the fifth failure is
// final; no attempt comes before its time, none after the last.
func TestDeliverRetrySchedule(t *testing.T) {
	s, clock := sqliteStore(t)
	project(t, s, testfactory.TaskOpts{Assignee: "ann"})
	hook := newHookServer(t)
	hook.status = func(int) int { return 500 }
	d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)})
	if got := total(runIdle(t, d)); got.Retried != 1 {
		t.Fatalf("first attempt: %+v", got)
	}
	for i, wait := range notify.Schedule {
		clock.Advance(wait - time.Second)
		if got := total(runIdle(t, d)); got.Claimed != 0 {
			t.Fatalf("attempt %d came %s early", i+2, time.Second)
		}
		clock.Advance(time.Second)
		got := total(runIdle(t, d))
		last := i == len(notify.Schedule)-1
		switch {
		case got.Claimed != 1:
			t.Fatalf("attempt %d: %+v, want the row claimed after %s", i+2, got, wait)
		case last && got.Failed != 1:
			t.Fatalf("last attempt: %+v, want the row failed", got)
		case !last && got.Retried != 1:
			t.Fatalf("attempt %d: %+v, want another retry", i+2, got)
		}
	}
	clock.Advance(24 * time.Hour)
	if got := total(runIdle(t, d)); got.Claimed != 0 {
		t.Fatalf("a failed row was claimed again: %+v", got)
	}
	if keys := hook.keys(); len(keys) != 1 {
		t.Fatalf("keys %v, want one notification", keys)
	} else {
		for _, n := range keys {
			if n != 5 {
				t.Fatalf("%d calls, want 5 attempts", n)
			}
		}
	}
	if n := inbox(t, s, "ann"); len(n) != 1 {
		t.Fatalf("in-app: %d rows, want the row shown whatever the webhook did", len(n))
	}
}

// A channel already sent is never sent again when another is retried; a mail refused for good
// is not retried; the address comes from the directory, else from the last sign-in; a digest
// preference leaves the mail to the digest; no address, no mail.
func TestDeliverEmail(t *testing.T) {
	t.Run("SentChannelNotResent", func(t *testing.T) {
		s, clock := sqliteStore(t)
		project(t, s, testfactory.TaskOpts{Assignee: "ann"})
		hook := newHookServer(t)
		hook.status = func(n int) int { return []int{500, 200}[min(n, 2)-1] }
		mailer := &recordingMailer{}
		d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t), Mailer: mailer})
		if got := total(runIdle(t, d)); got.Emailed != 1 || got.Retried != 1 {
			t.Fatalf("first attempt: %+v", got)
		}
		clock.Advance(time.Minute)
		if got := total(runIdle(t, d)); got.Emailed != 0 || got.Webhook != 1 {
			t.Fatalf("retry: %+v, want only the webhook", got)
		}
		mails := mailer.mails()
		if len(mails) != 1 || mails[0].Address != "ann@example.com" {
			t.Fatalf("mails %+v, want one to the directory's address", mails)
		}
		if m := mails[0].Task; m.Link == "" || !strings.HasSuffix(m.Link, "/tasks/"+m.ID) {
			t.Errorf("mail task %+v", m)
		}
		if len(hook.all()) != 2 {
			t.Fatalf("%d webhook calls, want 2", len(hook.all()))
		}
	})
	t.Run("RefusedForGood", func(t *testing.T) {
		s, clock := sqliteStore(t)
		project(t, s, testfactory.TaskOpts{Assignee: "ann"})
		mailer := &recordingMailer{err: func(int) error { return fmt.Errorf("550 no such mailbox: %w", notify.ErrPermanent) }}
		d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Mailer: mailer})
		if got := total(runIdle(t, d)); got.Failed != 1 || got.Retried != 0 || got.Shown != 1 {
			t.Fatalf("counts %+v, want the row failed at once and shown", got)
		}
		clock.Advance(3 * time.Hour)
		runIdle(t, d)
		if n := len(mailer.mails()); n != 1 {
			t.Fatalf("%d mails, want the refusal not retried", n)
		}
	})
	t.Run("AddressOfTheLastSignIn", func(t *testing.T) {
		s, _ := sqliteStore(t)
		project(t, s, testfactory.TaskOpts{Assignee: "bob"})
		if _, err := s.RecordPerson(t.Context(), models.Person{Tenant: "t1", User: user("bob"), Email: "bob@signin.example"}, time.Minute); err != nil {
			t.Fatal(err)
		}
		mailer := &recordingMailer{}
		runIdle(t, newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Mailer: mailer}))
		if m := mailer.mails(); len(m) != 1 || m[0].Address != "bob@signin.example" {
			t.Fatalf("mails %+v", m)
		}
	})
	t.Run("DigestAndOffAndNoAddress", func(t *testing.T) {
		s, _ := sqliteStore(t)
		project(t, s, testfactory.TaskOpts{Assignee: "ann"}) // digest
		project(t, s, testfactory.TaskOpts{Assignee: "eve"}) // task-assigned email turned off
		project(t, s, testfactory.TaskOpts{Assignee: "zed"}) // no address anywhere
		prefs := models.DefaultNotificationPreferences()
		prefs.Digest = models.DigestHourly
		if _, err := s.SetNotificationPreferences(t.Context(), "t1", user("ann"), prefs); err != nil {
			t.Fatal(err)
		}
		off := models.DefaultNotificationPreferences()
		off.Email[models.TriggerTaskAssigned] = false
		if _, err := s.SetNotificationPreferences(t.Context(), "t1", user("eve"), off); err != nil {
			t.Fatal(err)
		}
		mailer := &recordingMailer{}
		got := total(runIdle(t, newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Mailer: mailer})))
		if got.Digest != 1 || got.Emailed != 0 || got.Shown != 3 {
			t.Fatalf("counts %+v, want one row left for the digest, no mail, all shown", got)
		}
		if m := mailer.mails(); len(m) != 0 {
			t.Fatalf("mails %+v", m)
		}
	})
}
