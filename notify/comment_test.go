package notify_test

import (
	"strings"
	"testing"

	"usertasks/notify"
	"usertasks/testfactory"
)

// A comment's notifications end to end: the mentioned reader is shown one, a mentioned person
// who may not read the task is dropped (no bell, no webhook), the assignee hears of someone
// else's comment, and no channel carries the comment's text.
func TestDeliverCommentNotifications(t *testing.T) {
	s, _ := sqliteStore(t)
	task := project(t, s, testfactory.TaskOpts{Assignee: "ann", Candidates: []string{"bob"}})
	hook := newHookServer(t)
	d := newDeliverer(s, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t)})
	runIdle(t, d) // the task's own rows (ann's task-assigned)
	const secret = "IBAN DE02120300000000202051"
	testfactory.Comment(t.Context(), t, s, task, testfactory.Worker("t1", "bob"), "@bob @zed @cid is this the right "+secret+"?")
	got := total(runIdle(t, d))
	// bob is the author; zed and cid have no relation to the task; ann is the assignee.
	if got.Shown != 1 || got.Dropped != 2 {
		t.Fatalf("counts %+v, want ann's comment-added shown, zed's and cid's mentions dropped", got)
	}
	if n := inbox(t, s, "ann"); len(n) != 2 || n[0].Trigger != "comment-added" || n[0].Actor == nil || n[0].Actor.ID != "bob" {
		t.Fatalf("ann was shown %+v", n)
	}
	for _, who := range []string{"zed", "cid", "bob"} {
		if n := inbox(t, s, who); len(n) != 0 {
			t.Fatalf("%s was shown %+v", who, n)
		}
	}
	for _, c := range hook.all() {
		if strings.Contains(string(c.Body), "DE02") || strings.Contains(string(c.Body), `"zed"`) {
			t.Fatalf("the webhook heard too much: %s", c.Body)
		}
	}
}
