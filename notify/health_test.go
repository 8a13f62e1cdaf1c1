package notify_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// A notification that fails for good flags its task with the advisory health
// notification-delivery-failing, naming the channel; a later notification of the task that
// goes out on that channel clears it, one on another channel does not. An existing finding is
// never replaced, and a closed task is not flagged.
func TestDeliverFailureHealth(t *testing.T) {
	t.Run("WebhookFlaggedThenCleared", func(t *testing.T) {
		s, clock := sqliteStore(t)
		task := project(t, s, testfactory.TaskOpts{Assignee: "ann"})
		hook, down := switchableHook(t)
		d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)})
		if got := runToTheEnd(t, d, clock); got.Failed != 1 {
			t.Fatalf("counts %+v, want the row failed", got)
		}
		wantFailing(t, s, task, "webhook")

		down.Store(false)
		notifyAgain(t, s, task, "ann", 99)
		if got := total(runIdle(t, d)); got.Webhook != 1 {
			t.Fatalf("counts %+v, want the next notification sent to the webhook", got)
		}
		wantHealth(t, s, task, "")
	})

	t.Run("OtherChannelDoesNotClear", func(t *testing.T) {
		s, clock := sqliteStore(t)
		task := project(t, s, testfactory.TaskOpts{Assignee: "ann"})
		hook, down := switchableHook(t)
		mailer := &recordingMailer{}
		d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t), Mailer: mailer})
		if got := runToTheEnd(t, d, clock); got.Failed != 1 || got.Emailed != 1 {
			t.Fatalf("counts %+v, want the mail sent and the row failed on its webhook", got)
		}
		wantFailing(t, s, task, "webhook")

		// The next notification is shown and emailed while the webhook still fails: the
		// finding is about the webhook and stays.
		notifyAgain(t, s, task, "ann", 99)
		if got := total(runIdle(t, d)); got.Emailed != 1 || got.Shown != 1 || got.Retried != 1 {
			t.Fatalf("counts %+v, want shown and emailed, the webhook retried", got)
		}
		wantFailing(t, s, task, "webhook")

		down.Store(false)
		clock.Advance(notify.Schedule[0])
		if got := total(runIdle(t, d)); got.Webhook != 1 || got.Emailed != 0 {
			t.Fatalf("counts %+v, want only the webhook's retry", got)
		}
		wantHealth(t, s, task, "")
	})

	t.Run("RefusedMailFlaggedAtOnce", func(t *testing.T) {
		s, _ := sqliteStore(t)
		task := project(t, s, testfactory.TaskOpts{Assignee: "ann"})
		refuse := true
		mailer := &recordingMailer{err: func(int) error {
			if refuse {
				return fmt.Errorf("550 no such mailbox: %w", notify.ErrPermanent)
			}
			return nil
		}}
		d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Mailer: mailer})
		if got := total(runIdle(t, d)); got.Failed != 1 {
			t.Fatalf("counts %+v, want the row failed at once", got)
		}
		wantFailing(t, s, task, "emailed")

		refuse = false
		notifyAgain(t, s, task, "ann", 99)
		if got := total(runIdle(t, d)); got.Emailed != 1 {
			t.Fatalf("counts %+v, want the next mail sent", got)
		}
		wantHealth(t, s, task, "")
	})

	t.Run("GroupNeverExpanded", func(t *testing.T) {
		s, clock := sqliteStore(t)
		task := project(t, s, testfactory.TaskOpts{Groups: []string{"finance"}})
		d := newDeliverer(s, "node-a", notify.Options{Directory: &failingDirectory{}})
		if got := runToTheEnd(t, d, clock); got.Failed != 1 {
			t.Fatalf("counts %+v, want the group row failed", got)
		}
		wantFailing(t, s, task, "directory")

		// The directory answers again: the next notification is shown to ann.
		notifyAgain(t, s, task, "ann", 99)
		d = newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory()})
		if got := total(runIdle(t, d)); got.Shown != 1 {
			t.Fatalf("counts %+v, want ann's row shown", got)
		}
		wantHealth(t, s, task, "")
	})

	t.Run("ExistingFindingKept", func(t *testing.T) {
		s, clock := sqliteStore(t)
		task := project(t, s, testfactory.TaskOpts{Assignee: "ann"})
		stale := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthStaleTransition, Message: "stale"}
		if err := s.SetHealth(t.Context(), task.Tenant, task.ID, stale); err != nil {
			t.Fatal(err)
		}
		hook := newHookServer(t)
		hook.status = func(int) int { return 500 }
		d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)})
		if got := runToTheEnd(t, d, clock); got.Failed != 1 {
			t.Fatalf("counts %+v, want the row failed", got)
		}
		wantHealth(t, s, task, models.HealthStaleTransition)
	})

	t.Run("ClosedTaskNotFlagged", func(t *testing.T) {
		s, clock := sqliteStore(t)
		task := project(t, s, testfactory.TaskOpts{Assignee: "ann"})
		hook := newHookServer(t)
		hook.status = func(int) int { return 500 }
		d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)})
		if got := total(runIdle(t, d)); got.Retried != 1 {
			t.Fatalf("counts %+v, want a retry", got)
		}
		complete(t, s, task)
		testfactory.Finalize(t.Context(), t, s, task)
		var got notify.Counts
		for _, wait := range notify.Schedule {
			clock.Advance(wait)
			got.Add(total(runIdle(t, d)))
		}
		if got.Failed != 1 {
			t.Fatalf("counts %+v, want the row of the closed task failed for good", got)
		}
		wantHealth(t, s, task, "")
	})
}

// switchableHook is a webhook receiver that answers 500 while down holds (at first), else 200.
func switchableHook(t *testing.T) (*hookServer, *atomic.Bool) {
	hook := newHookServer(t)
	down := &atomic.Bool{}
	down.Store(true)
	hook.status = func(int) int {
		if down.Load() {
			return 500
		}
		return 200
	}
	return hook, down
}

// runToTheEnd runs d on the first attempt and on every retry of the schedule, and adds up
// what the runs counted.
func runToTheEnd(t *testing.T, d *notify.Deliverer, clock *testfactory.Clock) notify.Counts {
	t.Helper()
	got := total(runIdle(t, d))
	for _, wait := range notify.Schedule {
		clock.Advance(wait)
		got.Add(total(runIdle(t, d)))
	}
	return got
}

// notifyAgain writes a later notification of task for who (a mention at revision).
func notifyAgain(t *testing.T, s store.Store, task models.Task, who string, revision int64) {
	t.Helper()
	row := storekit.NewNotification(&task, models.TriggerMentioned, revision, user(who), nil, time.Now())
	if _, err := s.AddNotifications(t.Context(), []models.Notification{row}); err != nil {
		t.Fatal(err)
	}
}

// wantFailing wants task flagged notification-delivery-failing (advisory) with a message that
// names the channel by the word in it.
func wantFailing(t *testing.T, s store.Store, task models.Task, word string) {
	t.Helper()
	h := health(t, s, task)
	if h.Code != models.HealthNotificationDeliveryFailing || h.Severity != models.SeverityAdvisory || !strings.Contains(h.Message, word) {
		t.Fatalf("health %+v, want advisory %s saying %q", h, models.HealthNotificationDeliveryFailing, word)
	}
}

// wantHealth wants task's finding to have code ("" for none).
func wantHealth(t *testing.T, s store.Store, task models.Task, code string) {
	t.Helper()
	if h := health(t, s, task); h.Code != code {
		t.Fatalf("health %+v, want code %q", h, code)
	}
}

func health(t *testing.T, s store.Store, task models.Task) models.Health {
	t.Helper()
	got, err := s.Get(t.Context(), task.Tenant, task.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got.Health
}
