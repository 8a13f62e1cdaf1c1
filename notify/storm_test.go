package notify_test

import (
	"sync"
	"testing"
	"time"

	"usertasks/notify"
	"usertasks/testfactory"
)

// A storm (20 tasks for a group of 50, 1,000 member rows) is delivered in batches of the
// worker's own size, while the resumption outbox still claims its row in the middle of it:
// the notification worker holds no lock and no lease the outbox needs.
func TestDeliverStormLeavesTheOutboxFree(t *testing.T) {
	s, _ := sqliteStore(t)
	for range 20 {
		project(t, s, testfactory.TaskOpts{Groups: []string{"big"}})
	}
	done := project(t, s, testfactory.TaskOpts{Assignee: "ann"})
	complete(t, s, done) // a resumption waits in the outbox

	hook := newHookServer(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	hook.before = func() {
		once.Do(func() { close(entered) })
		<-release
	}
	d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t), BatchSize: 100, Parallel: 8})
	var runs []notify.Result
	finished := make(chan struct{})
	go func() { // t.Fatal belongs to the test's goroutine: errors only here
		defer close(finished)
		for range 500 {
			res, err := d.RunOnce(t.Context())
			if err != nil {
				t.Error(err)
				return
			}
			if res.Claimed == 0 {
				return
			}
			runs = append(runs, res)
		}
		t.Error("the storm never ended")
	}()

	select {
	case <-entered: // a batch is in flight, its sends waiting
	case <-time.After(30 * time.Second):
		close(release)
		t.Fatal("the storm never reached the webhook")
	}
	claimed, err := s.ClaimResumptions(t.Context(), "dispatcher", 50, time.Minute)
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	if len(claimed) != 1 || claimed[0].TaskID != done.ID {
		t.Fatalf("the outbox claimed %d rows during the storm, want the one resumption", len(claimed))
	}
	<-finished

	got := total(runs)
	if got.Members != 1000 {
		t.Fatalf("member rows %d, want 1000", got.Members)
	}
	for i, r := range runs {
		if r.Claimed > 100 {
			t.Fatalf("run %d claimed %d rows, more than its batch of 100", i, r.Claimed)
		}
	}
	if len(runs) < 10 {
		t.Fatalf("%d runs delivered 1,000 rows: not in batches", len(runs))
	}
	keys := hook.keys()
	if len(keys) != 1000+1 { // the members' rows and ann's task-assigned
		t.Fatalf("%d notifications reached the webhook, want 1001", len(keys))
	}
	for k, n := range keys {
		if n != 1 {
			t.Fatalf("notification %s sent %d times", k, n)
		}
	}
	if n := inbox(t, s, "u07"); len(n) != 20 {
		t.Fatalf("u07 was shown %d rows, want one per task", len(n))
	}
}
