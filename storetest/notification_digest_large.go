package storetest

import (
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testNotificationDigestLarge checks that one claim takes a period of more rows than a store
// reads in one statement: a thousand tasks for one group are one digest per person, not two.
func testNotificationDigestLarge(t *testing.T, h Harness) {
	s, _ := noteStore(t, h)
	dan := User("t1", "dan")
	task := CreateTask(t, s, TaskOpts{})
	now := storeNow(t, s)
	const rows = 510 // more than the 500 ids one SQL statement takes
	ns := make([]models.Notification, rows)
	for i := range ns {
		ns[i] = newNote(task, models.TriggerDueSoon, int64(i+1), dan, now.Add(-time.Duration(rows-i)*time.Second))
	}
	addNotes(t, s, rows, ns...)
	for settled := 0; settled < rows; {
		batch := claimNotes(t, s, "node-a")
		if len(batch) == 0 {
			t.Fatalf("%d of %d rows settled, then nothing to claim", settled, rows)
		}
		for _, n := range batch {
			settle(t, s, n, toDigest)
		}
		settled += len(batch)
	}
	w := store.DigestWaiting{Tenant: "t1", Recipient: dan, Oldest: ns[0].OccurredAt}
	got, err := s.ClaimDigest(ctx(t), "digest-a", w, now.Add(time.Second), 1000, 30*time.Minute)
	if err != nil || len(got) != rows {
		t.Fatalf("claim of a %d-row period: %d rows, %v; want all in one claim", rows, len(got), err)
	}
	seen := map[string]bool{}
	for i, n := range got {
		if seen[n.ID] || n.Lease == nil || (i > 0 && n.OccurredAt.Before(got[i-1].OccurredAt)) {
			t.Fatalf("row %d (%s): repeated, unleased or out of order", i, noteKey(n))
		}
		seen[n.ID] = true
	}
	if again, err := s.ClaimDigest(ctx(t), "digest-b", w, now.Add(time.Second), 1000, time.Minute); err != nil || len(again) != 0 {
		t.Fatalf("second claim: %d rows, %v; want none (all leased)", len(again), err)
	}
	if err := s.SettleDigest(ctx(t), got); err != nil {
		t.Fatalf("settle the digest: %v", err)
	}
	if ws := waitingList(t, s); len(ws) != 0 {
		t.Fatalf("waiting after the digest: %q", waitingNames(ws))
	}
}
