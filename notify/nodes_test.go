package notify_test

import (
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/testfactory"
)

// Two nodes (two stores on one PostgreSQL database), each running the delivery worker and the
// due-soon worker at once: every key has one row, every notification reaches the webhook once
// under its id, and each person sees each of their notifications once.
func TestTwoNodesDeliverEachNotificationOnce(t *testing.T) {
	url := testfactory.Database(t, testfactory.Postgres)
	nodes := []store.Store{testfactory.Open(t, url, nil), testfactory.Open(t, url, nil)}
	now, err := nodes[0].Now(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	const n = 30
	for i := range n {
		due := now.Add(time.Duration(i+1) * time.Hour / 2)
		// Both nodes write: each task is offered to finance (a group row) and to zed directly,
		// and is due soon for zed.
		project(t, nodes[i%2], testfactory.TaskOpts{Groups: []string{"finance"}, Candidates: []string{"zed"}, DueAt: &due})
	}
	hook := newHookServer(t)
	var wg sync.WaitGroup
	for i, s := range nodes {
		owner := []string{"node-a", "node-b"}[i]
		d := newDeliverer(s, owner, notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t), BatchSize: 7, Parallel: 4})
		soon := notify.NewDueSoon(s, notify.DueSoonOptions{PageSize: 4})
		wg.Go(func() {
			for range 3 { // both nodes scan the same window, racing for the same keys
				if _, err := soon.RunOnce(t.Context()); err != nil {
					t.Error(err)
					return
				}
			}
		})
		wg.Go(func() {
			idle := 0
			for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
				res, err := d.RunOnce(t.Context())
				if err != nil {
					t.Error(err)
					return
				}
				if idle = idle + 1; res.Claimed > 0 {
					idle = 0
				}
				if idle >= 20 { // the other node and the due-soon scans have had their turn
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Errorf("%s: still claiming after 60 s", owner)
		})
	}
	wg.Wait()
	// A due-soon row a scan wrote after both workers went idle is delivered here; duplicates
	// would have happened above.
	runIdle(t, newDeliverer(nodes[0], "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)}))

	// ann, bob and cid: task-available per task (expanded); zed: task-available and due-soon.
	want := map[string]int{"ann": n, "bob": n, "cid": n, "zed": 2 * n}
	sent := 0
	for who, count := range want {
		rows := inbox(t, nodes[1], who)
		keys := map[string]bool{}
		for _, r := range rows {
			if keys[r.Key()] {
				t.Errorf("%s has key %q twice", who, r.Key())
			}
			keys[r.Key()] = true
		}
		if len(rows) != count {
			t.Errorf("%s was shown %d rows, want %d", who, len(rows), count)
		}
		dueSoon := 0
		for _, r := range rows {
			if r.Trigger == models.TriggerDueSoon {
				dueSoon++
			}
		}
		if who == "zed" && dueSoon != n {
			t.Errorf("zed has %d due-soon rows, want %d", dueSoon, n)
		}
		sent += len(rows)
	}
	calls := hook.keys()
	for id, c := range calls {
		if c != 1 {
			t.Errorf("notification %s reached the webhook %d times", id, c)
		}
	}
	if len(calls) != sent {
		t.Errorf("%d notifications reached the webhook, %d were shown", len(calls), sent)
	}
}
