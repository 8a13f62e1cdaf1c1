package storetest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"usertasks/models"
)

// testNotificationLeases checks the delivery worker's claim: pending rows that are due, oldest
// first, at most limit, fenced leases that only their holder may settle.
func testNotificationLeases(t *testing.T, h Harness) {
	t.Run("OldestFirstAtMostLimit", func(t *testing.T) {
		s, clock := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{})
		var added []models.Notification
		for _, id := range []string{"first", "second", "third"} {
			n := newNote(task, models.TriggerDueSoon, 1, User("t1", id), storeNow(t, s))
			addNotes(t, s, 1, n)
			added = append(added, n)
			clock.Advance(time.Second)
		}
		got, err := s.ClaimNotifications(ctx(t), "node-a", 2, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if ids := noteIDs(got); !slices.Equal(ids, noteIDs(added[:2])) {
			t.Fatalf("claimed %q, want the two oldest %q", noteKeys(got), noteKeys(added[:2]))
		}
		for _, n := range got {
			if n.Lease == nil || n.Lease.Owner != "node-a" || n.Lease.Token == "" {
				t.Fatalf("claimed row %s has lease %+v", noteKey(n), n.Lease)
			}
		}
		rest := claimNotes(t, s, "node-b")
		wantKeys(t, "the second claim", rest, "due-soon user:third r1")
	})
	t.Run("LeasedNotClaimedAgainUntilExpired", func(t *testing.T) {
		s, clock := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		first := claimNotes(t, s, "node-a")
		wantKeys(t, "first claim", first, "task-available user:ann r1")
		if again := claimNotes(t, s, "node-b"); len(again) != 0 {
			t.Fatalf("a leased row was claimed again: %q", noteKeys(again))
		}
		clock.Advance(2 * time.Minute)
		second := claimNotes(t, s, "node-b")
		if len(second) != 1 || second[0].ID != first[0].ID || second[0].TaskID != task.ID {
			t.Fatalf("after expiry claimed %q, want the same row", noteKeys(second))
		}
		if l := second[0].Lease; l == nil || l.Owner != "node-b" || l.Token == first[0].Lease.Token {
			t.Fatalf("lease %+v after expiry, want node-b's with a new token (was %+v)", l, first[0].Lease)
		}
		err := s.SettleNotification(ctx(t), first[0], shown)
		wantIs(t, err, models.ErrLeaseLost)
		if got := inbox(t, s, "t1", User("t1", "ann"), false, 0); len(got) != 0 {
			t.Fatalf("a stale lease's outcome was written: %d rows shown", len(got))
		}
		settle(t, s, second[0], shown)
		err = s.SettleNotification(ctx(t), second[0], shown)
		wantIs(t, err, models.ErrLeaseLost) // settled once only: the lease is freed
		if got := inbox(t, s, "t1", User("t1", "ann"), false, 0); len(got) != 1 {
			t.Fatalf("%d rows shown, want 1", len(got))
		}
	})
	t.Run("ForgedLeaseRefused", func(t *testing.T) {
		s, _ := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		held := claimNotes(t, s, "node-a")
		if len(held) != 1 {
			t.Fatalf("claimed %d rows", len(held))
		}
		forged := held[0]
		forged.Lease = &models.Lease{Owner: "node-a", Token: "forged", Generation: held[0].Lease.Generation, ExpiresAt: held[0].Lease.ExpiresAt}
		wantIs(t, s.SettleNotification(ctx(t), forged, shown), models.ErrLeaseLost)
		unleased := held[0]
		unleased.Lease = nil
		if err := s.SettleNotification(ctx(t), unleased, shown); err == nil {
			t.Fatal("a row without a lease was settled")
		}
		if got := inbox(t, s, "t1", User("t1", "ann"), false, 0); len(got) != 0 {
			t.Fatalf("a refused outcome was written: %d rows shown", len(got))
		}
	})
	t.Run("ConcurrentClaimsDisjoint", func(t *testing.T) {
		s, _ := noteStore(t, h)
		task := CreateTask(t, s, TaskOpts{})
		var ns []models.Notification
		now := storeNow(t, s)
		for i := range 12 {
			ns = append(ns, newNote(task, models.TriggerDueSoon, int64(i), User("t1", "ann"), now))
		}
		addNotes(t, s, len(ns), ns...)
		var mu sync.Mutex
		seen := map[string]string{}
		var wg sync.WaitGroup
		for _, owner := range []string{"node-a", "node-b", "node-c"} {
			wg.Add(1)
			go func(owner string) {
				defer wg.Done()
				rows, err := s.ClaimNotifications(ctx(t), owner, 5, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				for _, r := range rows {
					if prev, dup := seen[r.ID]; dup {
						t.Errorf("row %s claimed by %s and %s", noteKey(r), prev, owner)
					}
					seen[r.ID] = owner
				}
			}(owner)
		}
		wg.Wait()
		// A concurrent claim may skip rows another holds a lock on without taking them (InnoDB's
		// SKIP LOCKED skips every row the other's scan locked): nothing is claimed twice, and
		// what the round left is claimed by the next.
		rest, err := s.ClaimNotifications(ctx(t), "node-d", len(ns), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rest {
			if prev, dup := seen[r.ID]; dup {
				t.Errorf("row %s claimed by %s and node-d", noteKey(r), prev)
			}
			seen[r.ID] = "node-d"
		}
		if len(seen) != len(ns) {
			t.Fatalf("%d rows claimed, want %d", len(seen), len(ns))
		}
	})
}

// testNotificationSettle checks what the delivery worker's outcome writes: shown rows, retries,
// final states and the channels.
func testNotificationSettle(t *testing.T, h Harness) {
	ann := User("t1", "ann")
	t.Run("VisibleListedAndCounted", func(t *testing.T) {
		s, _ := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		before := storeNow(t, s)
		showAll(t, s)
		got := inbox(t, s, "t1", ann, false, 0)
		if len(got) != 1 || got[0].VisibleAt == nil || got[0].VisibleAt.Before(before) || got[0].ReadAt != nil ||
			got[0].State != models.NotificationDone {
			t.Fatalf("listed %+v", got)
		}
		if n := unread(t, s, "t1", ann); n != 1 {
			t.Fatalf("unread %d, want 1", n)
		}
	})
	t.Run("PendingRetriesAfterDelayAndCountsAttempts", func(t *testing.T) {
		s, clock := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		first := claimOne(t, s, "node-a")
		settle(t, s, first, models.NotificationOutcome{State: models.NotificationPending, Email: models.ChannelSent,
			Webhook: models.ChannelUndecided, RetryAfter: 10 * time.Minute, ErrorCode: "webhook-503"})
		if early := claimNotes(t, s, "node-a"); len(early) != 0 {
			t.Fatalf("claimed %q before the retry delay passed", noteKeys(early))
		}
		clock.Advance(11 * time.Minute)
		second := claimNotes(t, s, "node-b")
		if len(second) != 1 || second[0].ID != first.ID || second[0].Attempts != 1 || second[0].LastError != "webhook-503" ||
			second[0].Email != models.ChannelSent || second[0].Webhook != models.ChannelUndecided {
			t.Fatalf("after the delay claimed %+v", second)
		}
		settle(t, s, second[0], models.NotificationOutcome{State: models.NotificationPending, Email: models.ChannelSent,
			Webhook: models.ChannelUndecided, ErrorCode: "webhook-timeout"}) // RetryAfter 0: due at once
		third := claimNotes(t, s, "node-c")
		if len(third) != 1 || third[0].Attempts != 2 || third[0].LastError != "webhook-timeout" {
			t.Fatalf("after an immediate retry claimed %+v", third)
		}
	})
	t.Run("FinalStatesNeverClaimedAgain", func(t *testing.T) {
		s, clock := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann", "bob", "cy"}})
		rows := claimNotes(t, s, "node-a")
		if len(rows) != 3 {
			t.Fatalf("claimed %d rows, want 3", len(rows))
		}
		final := map[string]models.NotificationOutcome{
			"ann": shown,
			"bob": {State: models.NotificationDropped, Email: models.ChannelOff, Webhook: models.ChannelOff},
			"cy":  {State: models.NotificationFailed, Email: models.ChannelFailed, Webhook: models.ChannelOff, ErrorCode: "smtp-550"},
		}
		for _, n := range rows {
			settle(t, s, n, final[n.Recipient.ID])
		}
		clock.Advance(24 * time.Hour)
		if again := claimNotes(t, s, "node-b"); len(again) != 0 {
			t.Fatalf("settled rows claimed again: %q", noteKeys(again))
		}
		if got := inbox(t, s, "t1", User("t1", "bob"), false, 0); len(got) != 0 {
			t.Fatalf("a dropped row is listed: %+v", got)
		}
		if n := unread(t, s, "t1", User("t1", "bob")); n != 0 {
			t.Fatalf("a dropped row is counted: %d", n)
		}
	})
	t.Run("EarlierVisibleAtKept", func(t *testing.T) {
		s, clock := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		first := claimOne(t, s, "node-a")
		// Shown in-app at once while the email waits for a retry.
		settle(t, s, first, models.NotificationOutcome{State: models.NotificationPending, Visible: true,
			Email: models.ChannelUndecided, Webhook: models.ChannelOff, ErrorCode: "smtp-421"})
		listed := inbox(t, s, "t1", ann, false, 0)
		if len(listed) != 1 || listed[0].VisibleAt == nil {
			t.Fatalf("a pending row shown by its outcome is not listed: %+v", listed)
		}
		shownAt := *listed[0].VisibleAt
		clock.Advance(5 * time.Minute)
		second := claimNotes(t, s, "node-b")
		if len(second) != 1 {
			t.Fatalf("claimed %d rows", len(second))
		}
		settle(t, s, second[0], models.NotificationOutcome{State: models.NotificationDone, Visible: true, Email: models.ChannelSent, Webhook: models.ChannelOff})
		listed = inbox(t, s, "t1", ann, false, 0)
		if len(listed) != 1 || listed[0].VisibleAt == nil || !listed[0].VisibleAt.Equal(shownAt) {
			t.Fatalf("visible at %v after the second delivery, want the first %v", listed[0].VisibleAt, shownAt)
		}
		if n := unread(t, s, "t1", ann); n != 1 {
			t.Fatalf("unread %d, want 1: the row is counted once", n)
		}
	})
	t.Run("ChannelStatesRoundTrip", func(t *testing.T) {
		s, _ := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann", "bob", "cy"}})
		outs := map[string]models.NotificationOutcome{
			"ann": {State: models.NotificationDone, Visible: true, Email: models.ChannelSent, Webhook: models.ChannelSent},
			"bob": {State: models.NotificationDone, Visible: true, Email: models.ChannelDigest, Webhook: models.ChannelFailed, ErrorCode: "webhook-410"},
			"cy":  {State: models.NotificationDone, Visible: true, Email: models.ChannelOff, Webhook: models.ChannelOff},
		}
		for _, n := range claimNotes(t, s, "node-a") {
			settle(t, s, n, outs[n.Recipient.ID])
		}
		for id, out := range outs {
			got := inbox(t, s, "t1", User("t1", id), false, 0)
			if len(got) != 1 || got[0].Email != out.Email || got[0].Webhook != out.Webhook || got[0].LastError != out.ErrorCode {
				t.Fatalf("%s: listed %+v, want email %q webhook %q error %q", id, got, out.Email, out.Webhook, out.ErrorCode)
			}
		}
	})
}
