package storetest

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// testNotificationList checks the in-app list: one recipient's shown rows, newest first, paged
// by cursor without gaps or repeats across equal times, the unread count, and marking read —
// never another recipient's or another tenant's rows.
func testNotificationList(t *testing.T, h Harness) {
	s, _ := noteStore(t, h)
	ann, bob, otherAnn := User("t1", "ann"), User("t1", "bob"), User("t2", "ann")
	task := CreateTask(t, s, TaskOpts{})
	otherTask := CreateTask(t, s, TaskOpts{Tenant: "t2"})
	at := storeNow(t, s).Add(-time.Hour)
	// ann: three rows at the same time, two a minute before, two a minute after.
	var mine []models.Notification
	for i, offset := range []time.Duration{0, 0, 0, -time.Minute, -time.Minute, time.Minute, time.Minute} {
		mine = append(mine, newNote(task, models.TriggerDueSoon, int64(i+1), ann, at.Add(offset)))
	}
	bobs := newNote(task, models.TriggerDueSoon, 1, bob, at)
	others := newNote(otherTask, models.TriggerDueSoon, 1, otherAnn, at)
	addNotes(t, s, len(mine)+2, append(slices.Clone(mine), bobs, others)...)
	showAll(t, s)
	dropped := newNote(task, models.TriggerDueSoon, 8, ann, at)
	addNotes(t, s, 1, dropped)
	settle(t, s, claimOne(t, s, "node-a"), models.NotificationOutcome{State: models.NotificationDropped, Email: models.ChannelOff, Webhook: models.ChannelOff})
	pending := newNote(task, models.TriggerDueSoon, 9, ann, at.Add(time.Hour))
	addNotes(t, s, 1, pending) // not delivered yet: not shown
	mineIDs := noteIDs(mine)
	sort.Strings(mineIDs)

	t.Run("PagesWithoutGapsOrRepeats", func(t *testing.T) {
		for _, limit := range []int{1, 2, 3, 0} {
			got := inbox(t, s, "t1", ann, false, limit)
			ids := noteIDs(got)
			sort.Strings(ids)
			if !slices.Equal(ids, mineIDs) {
				t.Fatalf("limit %d: listed %d rows %q, want ann's %d shown rows %q", limit, len(got), ids, len(mineIDs), mineIDs)
			}
			for i := 1; i < len(got); i++ {
				if got[i].OccurredAt.After(got[i-1].OccurredAt) {
					t.Fatalf("limit %d: row %d occurred %v after row %d's %v: not newest first", limit, i, got[i].OccurredAt, i-1, got[i-1].OccurredAt)
				}
			}
		}
	})
	t.Run("LimitBoundsAPage", func(t *testing.T) {
		page, err := s.Notifications(ctx(t), models.NotificationQuery{Tenant: "t1", Recipient: ann, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 2 || page.Next == nil || page.Unread != len(mine) {
			t.Fatalf("limit 2: %d items, next %v, unread %d", len(page.Items), page.Next, page.Unread)
		}
		page, err = s.Notifications(ctx(t), models.NotificationQuery{Tenant: "t1", Recipient: ann})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != len(mine) || page.Next != nil {
			t.Fatalf("default limit: %d items, next %v", len(page.Items), page.Next)
		}
	})
	t.Run("OthersNeverListed", func(t *testing.T) {
		if got := inbox(t, s, "t1", bob, false, 0); len(got) != 1 || got[0].ID != bobs.ID {
			t.Fatalf("bob sees %q", noteKeys(got))
		}
		if got := inbox(t, s, "t2", otherAnn, false, 0); len(got) != 1 || got[0].ID != others.ID {
			t.Fatalf("ann of t2 sees %q", noteKeys(got))
		}
		corp := ann
		corp.Provider = "corp"
		if got := inbox(t, s, "t1", corp, false, 0); len(got) != 0 {
			t.Fatalf("ann of another provider sees %q", noteKeys(got))
		}
		if got := inbox(t, s, "t1", User("t1", "ANN"), false, 0); len(got) != 0 {
			t.Fatalf("ANN sees ann's rows: %q", noteKeys(got))
		}
		if n := unread(t, s, "t2", otherAnn); n != 1 {
			t.Fatalf("ann of t2 has %d unread, want 1", n)
		}
	})
	t.Run("UnreadCountCapped", func(t *testing.T) {
		n, err := s.UnreadNotifications(ctx(t), "t1", ann, 3)
		if err != nil || n != 3 {
			t.Fatalf("unread capped at 3: %d, %v", n, err)
		}
		if n := unread(t, s, "t1", ann); n != len(mine) {
			t.Fatalf("unread %d, want %d", n, len(mine))
		}
	})
	t.Run("MarkReadByIDs", func(t *testing.T) {
		ids := []string{mine[0].ID, mine[3].ID, // ann's: these two change
			bobs.ID, others.ID, dropped.ID, pending.ID, // another recipient's, another tenant's, not shown
			models.NewID(), hostileID, "../" + mine[1].ID, mine[2].ID + "?x#y", strings.ToUpper(mine[4].ID), "", strings.Repeat("é", 100)}
		n, err := s.MarkNotificationsRead(ctx(t), "t1", ann, ids, false)
		if err != nil || n != 2 {
			t.Fatalf("marked %d, %v; want 2", n, err)
		}
		if n, err := s.MarkNotificationsRead(ctx(t), "t1", ann, ids, false); err != nil || n != 0 {
			t.Fatalf("marked again: %d, %v; want 0", n, err)
		}
		if n, err := s.MarkNotificationsRead(ctx(t), "t1", ann, nil, false); err != nil || n != 0 {
			t.Fatalf("marking no ids: %d, %v", n, err)
		}
		if n := unread(t, s, "t1", ann); n != len(mine)-2 {
			t.Fatalf("unread %d, want %d", n, len(mine)-2)
		}
		if got := inbox(t, s, "t1", ann, true, 2); len(got) != len(mine)-2 || slices.ContainsFunc(got, func(n models.Notification) bool {
			return n.ID == mine[0].ID || n.ID == mine[3].ID || n.ReadAt != nil
		}) {
			t.Fatalf("unread only lists %q", noteKeys(got))
		}
		for _, n := range inbox(t, s, "t1", ann, false, 0) {
			if read := n.ID == mine[0].ID || n.ID == mine[3].ID; read != (n.ReadAt != nil) {
				t.Fatalf("row %s read at %v", noteKey(n), n.ReadAt)
			}
		}
		if unread(t, s, "t1", bob) != 1 || unread(t, s, "t2", otherAnn) != 1 {
			t.Fatal("marking ann's rows read marked another recipient's")
		}
	})
	t.Run("MarkAll", func(t *testing.T) {
		n, err := s.MarkNotificationsRead(ctx(t), "t1", ann, nil, true)
		if err != nil || n != len(mine)-2 {
			t.Fatalf("marked all: %d, %v; want %d", n, err, len(mine)-2)
		}
		if n := unread(t, s, "t1", ann); n != 0 {
			t.Fatalf("unread %d after marking all", n)
		}
		if unread(t, s, "t1", bob) != 1 || unread(t, s, "t2", otherAnn) != 1 {
			t.Fatal("marking all of ann's rows read marked another recipient's")
		}
		// The row not yet shown was not marked: it arrives unread.
		showAll(t, s)
		if n := unread(t, s, "t1", ann); n != 1 {
			t.Fatalf("unread %d after the pending row was shown, want 1", n)
		}
		if got := inbox(t, s, "t1", ann, true, 0); len(got) != 1 || got[0].ID != pending.ID {
			t.Fatalf("unread only lists %q, want the newly shown row", noteKeys(got))
		}
	})
	t.Run("LimitAboveMaximumBounded", func(t *testing.T) {
		var many []models.Notification
		for i := range models.MaxPageSize + 5 {
			many = append(many, newNote(task, models.TriggerDueSoon, int64(i), User("t1", "cy"), at))
		}
		addNotes(t, s, len(many), many...)
		showAll(t, s)
		page, err := s.Notifications(ctx(t), models.NotificationQuery{Tenant: "t1", Recipient: User("t1", "cy"), Limit: 10 * models.MaxPageSize})
		if err == nil && len(page.Items) > models.MaxPageSize {
			t.Fatalf("a page of %d items, more than %d", len(page.Items), models.MaxPageSize)
		}
		if got := inbox(t, s, "t1", User("t1", "cy"), false, models.MaxPageSize); len(got) != len(many) {
			t.Fatalf("listed %d of %d rows", len(got), len(many))
		}
	})
}
