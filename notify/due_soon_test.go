package notify_test

import (
	"slices"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/testfactory"
)

// The due-soon worker tells the assignee, else the candidate users, once per due time, of the
// open tasks due within the window: paged, never about a task already overdue or due later,
// never twice after a restart, and a task that appears inside the part already scanned is
// found at the next rescan.
func TestDueSoon(t *testing.T) {
	s, clock := sqliteStore(t)
	now, err := s.Now(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	at := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
	soon := project(t, s, testfactory.TaskOpts{Assignee: "ann", DueAt: at(time.Hour)})
	pool := project(t, s, testfactory.TaskOpts{Candidates: []string{"bob", "ä b/?#"}, Groups: []string{"finance"}, DueAt: at(2 * time.Hour)})
	later := project(t, s, testfactory.TaskOpts{Assignee: "ann", DueAt: at(30 * time.Hour)})
	project(t, s, testfactory.TaskOpts{Assignee: "ann", DueAt: at(-time.Hour)})                // overdue: not due soon
	project(t, s, testfactory.TaskOpts{Groups: []string{"finance"}, DueAt: at(3 * time.Hour)}) // groups are not told

	w := notify.NewDueSoon(s, notify.DueSoonOptions{Window: 24 * time.Hour, PageSize: 1, Rescan: time.Hour})
	run := func(w *notify.DueSoon) notify.Result {
		t.Helper()
		res, err := w.RunOnce(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if got := run(w); got.DueSoon != 3 || got.Tenants["t1"].DueSoon != 3 {
		t.Fatalf("first run wrote %+v, want ann's, bob's and the odd id's rows", got)
	}
	if got := run(w); got.DueSoon != 0 {
		t.Fatalf("second run wrote %d rows", got.DueSoon)
	}
	if got := run(notify.NewDueSoon(s, notify.DueSoonOptions{})); got.DueSoon != 0 {
		t.Fatalf("a restarted worker wrote %d rows again", got.DueSoon)
	}

	inside := project(t, s, testfactory.TaskOpts{Assignee: "bob", DueAt: at(10 * time.Hour)})
	if got := run(w); got.DueSoon != 0 {
		t.Fatalf("the scanned part was scanned again before the rescan: %d rows", got.DueSoon)
	}
	clock.Advance(7 * time.Hour)
	if got := run(w); got.DueSoon != 2 {
		t.Fatalf("after 7 hours: %d rows, want the task that entered the window and the one found by the rescan", got.DueSoon)
	}

	runIdle(t, newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory()}))
	due := func(who string) map[string]int64 {
		out := map[string]int64{}
		for _, n := range inbox(t, s, who) {
			if n.Trigger == models.TriggerDueSoon {
				out[n.TaskID] = n.Revision
			}
		}
		return out
	}
	ann := due("ann")
	if len(ann) != 2 || ann[soon.ID] != soon.DueAt.Unix() || ann[later.ID] != later.DueAt.Unix() {
		t.Errorf("ann's due-soon rows %v, want the tasks due in 1 h and 30 h keyed by their due time", ann)
	}
	bob := due("bob")
	ids := make([]string, 0, len(bob))
	for id := range bob {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	want := []string{pool.ID, inside.ID}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("bob's due-soon rows are for %v, want %v", ids, want)
	}
	if n := due("ä b/?#"); len(n) != 1 {
		t.Errorf("the odd id's due-soon rows %v", n)
	}
	if n := due("cid"); len(n) != 0 {
		t.Errorf("a group member was told: %v", n)
	}
}
