package storetest

import (
	"slices"
	"sort"
	"testing"
	"time"

	"usertasks/models"
)

// testNotificationPurge checks retention (USERTASKS_RETENTION_NOTIFICATION_AGE): rows that
// occurred longer ago than the age go once done, dropped or failed, read or not; pending rows
// and rows whose email waits for a digest stay, as do recent ones and other tenants'.
func testNotificationPurge(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	ann := User("t1", "ann")
	task := CreateTask(t, s, TaskOpts{})
	otherTask := CreateTask(t, s, TaskOpts{Tenant: "t2"})
	drain(t, s)
	at := storeNow(t, s)
	row := func(rev int64) models.Notification { return newNote(task, models.TriggerDueSoon, rev, ann, at) }
	readDone, unreadDone, dropped, failed, digest, retrying := row(1), row(2), row(3), row(4), row(5), row(6)
	otherOld := newNote(otherTask, models.TriggerDueSoon, 1, User("t2", "ann"), at)
	addNotes(t, s, 7, readDone, unreadDone, dropped, failed, digest, retrying, otherOld)
	outcomes := map[string]models.NotificationOutcome{
		readDone.ID:   shown,
		unreadDone.ID: shown,
		dropped.ID:    {State: models.NotificationDropped, Email: models.ChannelOff, Webhook: models.ChannelOff},
		failed.ID:     {State: models.NotificationFailed, Email: models.ChannelFailed, Webhook: models.ChannelOff, ErrorCode: "smtp-550"},
		digest.ID:     toDigest,
		// Shown in-app, the email still retrying far in the future.
		retrying.ID: {State: models.NotificationPending, Visible: true, Email: models.ChannelUndecided, Webhook: models.ChannelOff,
			RetryAfter: 1000 * time.Hour, ErrorCode: "smtp-421"},
		otherOld.ID: shown,
	}
	for _, n := range claimNotes(t, s, "node-a") {
		settle(t, s, n, outcomes[n.ID])
	}
	if n, err := s.MarkNotificationsRead(ctx(t), "t1", ann, []string{readDone.ID}, false); err != nil || n != 1 {
		t.Fatalf("mark read: %d, %v", n, err)
	}
	pending := row(7)
	addNotes(t, s, 1, pending) // never claimed
	age := models.DefaultNotificationRetention
	clock.Advance(age + time.Hour)
	recent := newNote(task, models.TriggerDueSoon, 8, ann, storeNow(t, s))
	addNotes(t, s, 1, recent)
	for _, n := range claimNotes(t, s, "node-b") {
		if n.ID == recent.ID {
			settle(t, s, n, shown)
		}
	}
	listed := func(t *testing.T) []string {
		t.Helper()
		ids := noteIDs(inbox(t, s, "t1", ann, false, 0))
		sort.Strings(ids)
		return ids
	}
	want := func(ns ...models.Notification) []string {
		ids := noteIDs(ns)
		sort.Strings(ids)
		return ids
	}
	policy := models.RetentionPolicy{NotificationAge: age}

	t.Run("DryRunCountsOnly", func(t *testing.T) {
		dry := policy
		dry.DryRun = true
		got, err := s.Purge(ctx(t), "t1", dry, nil)
		if err != nil || got.Notifications != 4 || got.Total() != 4 {
			t.Fatalf("dry run: %+v, %v; want 4 notifications", got, err)
		}
		if ids := listed(t); !slices.Equal(ids, want(readDone, unreadDone, digest, retrying, recent)) {
			t.Fatalf("a dry run removed rows: %d listed", len(ids))
		}
	})
	t.Run("OldSettledRowsGo", func(t *testing.T) {
		got, err := s.Purge(ctx(t), "t1", policy, nil)
		if err != nil || got.Notifications != 4 || got.Total() != 4 {
			t.Fatalf("purge: %+v, %v; want 4 notifications", got, err)
		}
		if ids := listed(t); !slices.Equal(ids, want(digest, retrying, recent)) {
			t.Fatalf("after the purge ann sees %q", ids)
		}
		if n := unread(t, s, "t1", ann); n != 3 {
			t.Fatalf("unread %d, want 3", n)
		}
		again, err := s.Purge(ctx(t), "t1", policy, nil)
		if err != nil || again.Total() != 0 {
			t.Fatalf("second purge: %+v, %v", again, err)
		}
	})
	t.Run("DigestWaitingAndPendingStay", func(t *testing.T) {
		ws := waitingList(t, s)
		if len(ws) != 1 || !ws[0].Recipient.Same(ann) {
			t.Fatalf("waiting %q, want ann's digest", waitingNames(ws))
		}
		claimed := claimNotes(t, s, "node-c")
		if len(claimed) != 1 || claimed[0].ID != pending.ID {
			t.Fatalf("claimable after the purge: %q, want the pending row", noteKeys(claimed))
		}
	})
	t.Run("OtherTenantOnItsOwnPurge", func(t *testing.T) {
		if got := inbox(t, s, "t2", User("t2", "ann"), false, 0); len(got) != 1 {
			t.Fatalf("t1's purge took t2's row: %d listed", len(got))
		}
		got, err := s.Purge(ctx(t), "t2", policy, nil)
		if err != nil || got.Notifications != 1 {
			t.Fatalf("t2's purge: %+v, %v", got, err)
		}
		if got := inbox(t, s, "t2", User("t2", "ann"), false, 0); len(got) != 0 {
			t.Fatalf("t2's old row is left: %d listed", len(got))
		}
	})
	t.Run("ZeroAgeKeepsAll", func(t *testing.T) {
		got, err := s.Purge(ctx(t), "t1", models.RetentionPolicy{}, nil)
		if err != nil || got.Notifications != 0 {
			t.Fatalf("purge without a notification age: %+v, %v", got, err)
		}
	})
}
