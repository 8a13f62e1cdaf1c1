package storetest

import (
	"testing"
	"time"

	"usertasks/models"
)

// memberRows are the rows of a group row's members, as the delivery worker builds them from the
// directory's answer: the group row's key with each member as recipient.
func memberRows(group models.Notification, ids ...string) []models.Notification {
	var out []models.Notification
	for _, id := range ids {
		n := group
		n.ID = models.NewID()
		n.Recipient = User(group.Tenant, id)
		n.State = models.NotificationPending
		n.Lease = nil
		n.Attempts = 0
		out = append(out, n)
	}
	return out
}

// groupRow is the group's row among rows.
func groupRow(t *testing.T, rows []models.Notification) models.Notification {
	t.Helper()
	for _, n := range rows {
		if n.Recipient.Type == models.GroupParticipant {
			return n
		}
	}
	t.Fatalf("no group row among %q", noteKeys(rows))
	return models.Notification{}
}

// testNotificationExpand checks ExpandNotification: the members' rows in, the group row done in
// the same transaction, keys already taken skipped, a stale lease writing nothing.
func testNotificationExpand(t *testing.T, h Harness) {
	t.Run("MembersWrittenGroupDone", func(t *testing.T) {
		s, clock := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}, CandidateGroups: []string{"sales"}})
		rows := claimNotes(t, s, "node-a")
		group := groupRow(t, rows)
		for _, n := range rows {
			if n.ID != group.ID {
				settle(t, s, n, shown) // ann's own row, shown
			}
		}
		// ann is a member too: her key is taken by her direct row and skipped.
		n, err := s.ExpandNotification(ctx(t), group, memberRows(group, "ann", "bob", hostileID))
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Fatalf("expansion wrote %d rows, want 2 (ann's key is taken)", n)
		}
		members := showAll(t, s)
		wantKeys(t, "the members' rows", members, "task-available user:bob r1", "task-available user:"+hostileID+" r1")
		for _, m := range members {
			if m.TaskID != group.TaskID || m.Title != group.Title || m.Revision != group.Revision {
				t.Fatalf("member row %+v does not carry the group row's task", m)
			}
		}
		if got := inbox(t, s, "t1", User("t1", hostileID), false, 0); len(got) != 1 {
			t.Fatalf("the member with a hostile id sees %d rows", len(got))
		}
		if got := inbox(t, s, "t1", User("t1", "ann"), false, 0); len(got) != 1 {
			t.Fatalf("ann sees %d rows, want her one", len(got))
		}
		clock.Advance(time.Hour)
		if again := claimNotes(t, s, "node-b"); len(again) != 0 {
			t.Fatalf("the expanded group row or a member row was claimed again: %q", noteKeys(again))
		}
		if got := inbox(t, s, "t1", Group("t1", "sales"), false, 0); len(got) != 0 {
			t.Fatalf("the group row is listed: %+v", got)
		}
		if n := unread(t, s, "t1", Group("t1", "sales")); n != 0 {
			t.Fatalf("the group row is counted: %d", n)
		}
	})
	t.Run("StaleLeaseWritesNothing", func(t *testing.T) {
		s, clock := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateGroups: []string{"sales"}})
		first := claimNotes(t, s, "node-a")
		group := groupRow(t, first)
		clock.Advance(2 * time.Minute)
		second := claimNotes(t, s, "node-b")
		if len(second) != 1 || second[0].ID != group.ID {
			t.Fatalf("after expiry claimed %q", noteKeys(second))
		}
		n, err := s.ExpandNotification(ctx(t), group, memberRows(group, "bob", "cy"))
		wantIs(t, err, models.ErrLeaseLost)
		if n != 0 {
			t.Fatalf("a stale expansion reports %d rows", n)
		}
		if rows := claimNotes(t, s, "node-c"); len(rows) != 0 {
			t.Fatalf("a stale expansion wrote %q", noteKeys(rows))
		}
		n, err = s.ExpandNotification(ctx(t), second[0], memberRows(second[0], "bob", "cy"))
		if err != nil || n != 2 {
			t.Fatalf("the live expansion: %d, %v", n, err)
		}
		wantKeys(t, "after the live expansion", claimNotes(t, s, "node-c"), "task-available user:bob r1", "task-available user:cy r1")
	})
	t.Run("EmptyGroupDone", func(t *testing.T) {
		s, clock := noteStore(t, h)
		CreateTask(t, s, TaskOpts{CandidateGroups: []string{"nobody"}})
		group := groupRow(t, claimNotes(t, s, "node-a"))
		n, err := s.ExpandNotification(ctx(t), group, nil)
		if err != nil || n != 0 {
			t.Fatalf("expanding an empty group: %d, %v", n, err)
		}
		clock.Advance(time.Hour)
		if again := claimNotes(t, s, "node-b"); len(again) != 0 {
			t.Fatalf("an expanded empty group was claimed again: %q", noteKeys(again))
		}
	})
}
