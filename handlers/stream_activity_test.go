package handlers

import (
	"testing"
	"time"

	"usertasks/live"
	"usertasks/models"
)

// TestStreamActivityKinds: live.Broker.Activity reaches the streams that see the task as
// {kind: comment|attachment, taskId, occurredAt} (no revision: the task did not change), and
// nobody else: not an outsider, not another tenant, not a guest of the task.
func TestStreamActivityKinds(t *testing.T) {
	env := newStreamEnv(t, live.Options{})
	task := env.task(t, []string{"ann"}, nil, nil)
	barrier := env.task(t, []string{"ann", "dave", "guest"}, nil, nil)
	guestActor := streamWorker("t1", "guest")
	guestActor.Guest = &models.GuestGrant{TaskID: task.ID, InvitationID: "inv-1"}
	streamActors["guest-of-task"] = guestActor
	t.Cleanup(func() { delete(streamActors, "guest-of-task") })

	ann, boss, dave, guest := env.open(t, "ann"), env.open(t, "boss"), env.open(t, "dave"), env.open(t, "guest-of-task")
	otherTenant := env.open(t, "t2-ann")
	streamWaitFor(t, "five subscriptions", func() bool { return env.broker.Subscribers() == 5 })

	for _, kind := range []live.Kind{live.KindComment, live.KindAttachment} {
		env.broker.Activity("t1", task.ID, kind)
		for name, c := range map[string]*streamClient{"ann": ann, "boss": boss} {
			ev := c.next(t)
			if len(ev) != 3 || ev["kind"] != string(kind) || ev["taskId"] != task.ID {
				t.Fatalf("%s heard %v, want exactly {kind: %s, taskId, occurredAt}", name, ev, kind)
			}
			if _, err := time.Parse(time.RFC3339Nano, ev["occurredAt"].(string)); err != nil {
				t.Fatalf("occurredAt %v: %v", ev["occurredAt"], err)
			}
		}
	}
	// A change every remaining stream may hear: whoever hears it first heard nothing before.
	env.broker.Activity("t1", barrier.ID, live.KindComment)
	if ev := dave.next(t); ev["taskId"] != barrier.ID {
		t.Fatalf("an outsider heard %v", ev)
	}
	// The guest holds a grant for the task, not the barrier: it hears neither.
	select {
	case f := <-guest.frames:
		if f.data != "" {
			t.Fatalf("a guest heard %s", f.data)
		}
	case <-time.After(300 * time.Millisecond):
	}
	select {
	case f := <-otherTenant.frames:
		if f.data != "" {
			t.Fatalf("another tenant heard %s", f.data)
		}
	case <-time.After(100 * time.Millisecond):
	}
}
