package handlers

import (
	"testing"
	"time"

	"usertasks/live"
)

// TestStreamNotificationKind: live.Broker.Notify reaches the recipient's streams as a bare
// {kind: "notification", occurredAt} and nobody else's — not another person's, not the same
// id in another tenant.
func TestStreamNotificationKind(t *testing.T) {
	env := newStreamEnv(t, live.Options{})
	ann, bob, annElsewhere := env.open(t, "ann"), env.open(t, "bob"), env.open(t, "t2-ann")
	streamWaitFor(t, "three subscriptions", func() bool { return env.broker.Subscribers() == 3 })

	env.broker.Notify("t1", streamActors["ann"].Subject)
	ev := ann.next(t)
	if len(ev) != 2 || ev["kind"] != string(live.KindNotification) {
		t.Fatalf("event %v, want exactly {kind: notification, occurredAt}", ev)
	}
	if _, err := time.Parse(time.RFC3339Nano, ev["occurredAt"].(string)); err != nil {
		t.Fatalf("occurredAt %v: %v", ev["occurredAt"], err)
	}
	for name, c := range map[string]*streamClient{"bob": bob, "ann of t2": annElsewhere} {
		deadline := time.After(300 * time.Millisecond)
	wait:
		for {
			select {
			case f := <-c.frames:
				if f.data != "" {
					t.Fatalf("%s heard %s", name, f.data)
				}
			case <-deadline:
				break wait
			}
		}
	}
}
