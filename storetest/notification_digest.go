package storetest

import (
	"fmt"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// toDigest is the outcome of a delivery that showed the row and left its email for the digest.
var toDigest = models.NotificationOutcome{State: models.NotificationDone, Visible: true, Email: models.ChannelDigest, Webhook: models.ChannelOff}

func waitingList(t *testing.T, s store.Store) []store.DigestWaiting {
	t.Helper()
	ws, err := s.DigestsWaiting(ctx(t), 100)
	if err != nil {
		t.Fatalf("digests waiting: %v", err)
	}
	return ws
}

func waitingNames(ws []store.DigestWaiting) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = fmt.Sprintf("%s/%s %s", w.Tenant, w.Recipient.ID, w.Oldest.UTC().Format(time.TimeOnly))
	}
	return out
}

// testNotificationDigest checks the digest's rows: settled with email "digest" they wait per
// recipient, oldest first; a digest leases one recipient's rows before a time and marks them
// digested in one go, fenced like every lease.
func testNotificationDigest(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	ann, bob, cy, otherAnn := User("t1", "ann"), User("t1", "bob"), User("t1", "cy"), User("t2", "ann")
	task := CreateTask(t, s, TaskOpts{})
	otherTask := CreateTask(t, s, TaskOpts{Tenant: "t2"})
	now := storeNow(t, s)
	annOld := newNote(task, models.TriggerDueSoon, 1, ann, now.Add(-2*time.Hour))
	annNew := newNote(task, models.TriggerDueSoon, 2, ann, now.Add(-time.Hour))
	bobOld := newNote(task, models.TriggerDueSoon, 1, bob, now.Add(-3*time.Hour))
	cySent := newNote(task, models.TriggerDueSoon, 1, cy, now.Add(-4*time.Hour))
	others := newNote(otherTask, models.TriggerDueSoon, 1, otherAnn, now.Add(-30*time.Minute))
	addNotes(t, s, 5, annOld, annNew, bobOld, cySent, others)
	for _, n := range claimNotes(t, s, "node-a") {
		out := toDigest
		if n.Recipient.ID == "cy" {
			out.Email = models.ChannelSent // sent at once: no digest
		}
		settle(t, s, n, out)
	}

	t.Run("WaitingPerRecipientOldestFirst", func(t *testing.T) {
		ws := waitingList(t, s)
		want := []store.DigestWaiting{{Tenant: "t1", Recipient: bob, Oldest: bobOld.OccurredAt},
			{Tenant: "t1", Recipient: ann, Oldest: annOld.OccurredAt}, {Tenant: "t2", Recipient: otherAnn, Oldest: others.OccurredAt}}
		if fmt.Sprint(waitingNames(ws)) != fmt.Sprint(waitingNames(want)) {
			t.Fatalf("waiting %q, want %q", waitingNames(ws), waitingNames(want))
		}
		for i, w := range ws {
			if !w.Recipient.Same(want[i].Recipient) || !w.Oldest.Equal(want[i].Oldest) {
				t.Fatalf("waiting %d: %+v, want %+v", i, w, want[i])
			}
		}
		if first, err := s.DigestsWaiting(ctx(t), 1); err != nil || len(first) != 1 || first[0].Recipient.ID != "bob" {
			t.Fatalf("limit 1: %+v, %v", first, err)
		}
	})
	t.Run("ClaimBeforeLeasedOldestFirst", func(t *testing.T) {
		w := store.DigestWaiting{Tenant: "t1", Recipient: ann, Oldest: annOld.OccurredAt}
		got, err := s.ClaimDigest(ctx(t), "digest-a", w, now.Add(-90*time.Minute), 10, time.Minute)
		if err != nil || len(got) != 1 || got[0].ID != annOld.ID || got[0].Lease == nil {
			t.Fatalf("claim before 90 minutes ago: %q, %v; want ann's older row, leased", noteKeys(got), err)
		}
		if again, err := s.ClaimDigest(ctx(t), "digest-b", w, now, 10, time.Minute); err != nil || len(again) != 1 || again[0].ID != annNew.ID {
			t.Fatalf("claim before now: %q, %v; want only ann's newer row (the older is leased)", noteKeys(again), err)
		}
		clock.Advance(2 * time.Minute) // both leases lapse
		both, err := s.ClaimDigest(ctx(t), "digest-c", w, now, 1, time.Minute)
		if err != nil || len(both) != 1 || both[0].ID != annOld.ID {
			t.Fatalf("limit 1 after expiry: %q, %v; want the oldest", noteKeys(both), err)
		}
		wantIs(t, s.SettleDigest(ctx(t), got), models.ErrLeaseLost)
		if ws := waitingList(t, s); len(ws) != 3 {
			t.Fatalf("a stale digest settled rows: waiting %q", waitingNames(ws))
		}
		rest, err := s.ClaimDigest(ctx(t), "digest-c", w, now, 10, time.Minute)
		if err != nil || len(rest) != 1 || rest[0].ID != annNew.ID {
			t.Fatalf("the rest: %q, %v", noteKeys(rest), err)
		}
		if err := s.SettleDigest(ctx(t), append(both, rest...)); err != nil {
			t.Fatal(err)
		}
		if ws := waitingList(t, s); fmt.Sprint(waitingNames(ws)) != fmt.Sprint(waitingNames([]store.DigestWaiting{
			{Tenant: "t1", Recipient: bob, Oldest: bobOld.OccurredAt}, {Tenant: "t2", Recipient: otherAnn, Oldest: others.OccurredAt}})) {
			t.Fatalf("after ann's digest waiting %q", waitingNames(ws))
		}
		for _, n := range inbox(t, s, "t1", ann, false, 0) {
			if n.Email != models.ChannelDigested {
				t.Fatalf("ann's row %s has email %q, want digested", noteKey(n), n.Email)
			}
		}
		clock.Advance(2 * time.Minute)
		if again, err := s.ClaimDigest(ctx(t), "digest-d", w, storeNow(t, s), 10, time.Minute); err != nil || len(again) != 0 {
			t.Fatalf("digested rows claimed again: %q, %v", noteKeys(again), err)
		}
	})
	t.Run("OnlyTheRecipientsRows", func(t *testing.T) {
		// ann of t1 has nothing left waiting: a digest for her must not take ann of t2's row.
		w := store.DigestWaiting{Tenant: "t1", Recipient: ann, Oldest: others.OccurredAt}
		if got, err := s.ClaimDigest(ctx(t), "digest-x", w, storeNow(t, s), 10, time.Minute); err != nil || len(got) != 0 {
			t.Fatalf("t2's ann claimed under tenant t1: %q, %v", noteKeys(got), err)
		}
		w = store.DigestWaiting{Tenant: "t2", Recipient: otherAnn, Oldest: others.OccurredAt}
		got, err := s.ClaimDigest(ctx(t), "digest-x", w, storeNow(t, s), 10, time.Minute)
		if err != nil || len(got) != 1 || got[0].ID != others.ID {
			t.Fatalf("t2's ann: %q, %v", noteKeys(got), err)
		}
		if err := s.SettleDigest(ctx(t), got); err != nil {
			t.Fatal(err)
		}
		if ws := waitingList(t, s); len(ws) != 1 || ws[0].Recipient.ID != "bob" {
			t.Fatalf("waiting %q, want bob only", waitingNames(ws))
		}
	})
	t.Run("DigestRowsNeverClaimedForDelivery", func(t *testing.T) {
		clock.Advance(time.Hour)
		if again := claimNotes(t, s, "node-b"); len(again) != 0 {
			t.Fatalf("settled digest rows were claimed for delivery: %q", noteKeys(again))
		}
	})
}
