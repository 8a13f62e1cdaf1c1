package live

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
)

func TestNotifyReachesOnlyTheRecipientsStreams(t *testing.T) {
	l := staticLoader{}
	b := NewBroker(l, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = b.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	ada := models.ParticipantRef{Tenant: "acme", Provider: "idp", Type: models.UserParticipant, ID: "ada/?# é"}
	bob := models.ParticipantRef{Tenant: "acme", Provider: "idp", Type: models.UserParticipant, ID: "bob"}
	adaElsewhere := ada
	adaElsewhere.Tenant = "other"
	sub := func(tenant string, who models.ParticipantRef) *Subscription {
		s, err := b.Subscribe(tenant, who.Key())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	mine1, mine2 := sub("acme", ada), sub("acme", ada)
	theirs, otherTenant := sub("acme", bob), sub("other", adaElsewhere)

	// The caller passes what the worker has: no tenant on the ref, a display name.
	who := ada
	who.Tenant, who.DisplayName = "", "Ada"
	b.Notify("acme", who)

	for _, s := range []*Subscription{mine1, mine2} {
		select {
		case ev := <-s.Events():
			if ev.Kind() != KindNotification || ev.Task != nil || ev.TaskID != "" {
				t.Fatalf("got %+v, want a bare notification event", ev)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the recipient's stream heard nothing within 5 s")
		}
	}
	for _, s := range []*Subscription{theirs, otherTenant} {
		select {
		case ev := <-s.Events():
			t.Fatalf("another person's stream heard %+v", ev.Change)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func TestNotifyIgnoresAnEmptyRecipient(t *testing.T) {
	b := NewBroker(staticLoader{}, Options{QueueSize: 1})
	b.Notify("", models.ParticipantRef{ID: "x"})
	b.Notify("acme", models.ParticipantRef{})
	if got := len(b.queue); got != 0 {
		t.Fatalf("%d changes queued, want 0", got)
	}
}

func TestCoalesceKeepsTaskAndPersonChangesApart(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	got := coalesce([]Change{
		{Tenant: "acme", Recipient: "k1", OccurredAt: at},
		{Tenant: "acme", TaskID: "t1", Revision: 2, OccurredAt: at},
		{Tenant: "acme", Recipient: "k1", OccurredAt: at.Add(time.Second)},
		{Tenant: "acme", Recipient: "k2", OccurredAt: at},
	})
	if len(got) != 3 || got[0].Recipient != "k1" || got[1].TaskID != "t1" || got[2].Recipient != "k2" {
		t.Fatalf("coalesced to %+v", got)
	}
}

func TestRelayCarriesNotificationChanges(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 1000, time.UTC)
	in := []Change{
		{Tenant: "acme", Recipient: models.ParticipantRef{Tenant: "acme", Provider: "idp", Type: models.UserParticipant, ID: "ada"}.Key(), OccurredAt: at},
		{Tenant: "acme", TaskID: "t1", Revision: 3, OccurredAt: at},
	}
	payload, n := encodeChanges(in)
	if n != len(in) {
		t.Fatalf("encoded %d of %d", n, len(in))
	}
	got, err := decodeChanges(payload)
	if err != nil || len(got) != 2 || got[0] != in[0] || got[1] != in[1] {
		t.Fatalf("decoded %+v, %v; want %+v", got, err, in)
	}
	// Neither a task nor a person, or both: dropped, never fanned out as the wrong kind.
	got, err = decodeChanges(`[{"t":"acme","r":1,"at":0},{"t":"acme","id":"t1","u":"k","r":1,"at":0}]`)
	if err != nil || len(got) != 0 {
		t.Fatalf("decoded %+v, %v; want nothing", got, err)
	}
}

func TestActivityKindsReachTheTasksSubscribers(t *testing.T) {
	b := NewBroker(staticLoader{}, Options{QueueSize: 4})
	b.Activity("acme", "t1", KindComment)
	b.Activity("acme", "t1", KindAttachment)
	// Not an activity kind, or no task: ignored.
	b.Activity("acme", "t1", KindChanged)
	b.Activity("acme", "", KindComment)
	b.Activity("", "t1", KindComment)
	if got := len(b.queue); got != 2 {
		t.Fatalf("%d changes queued, want 2", got)
	}
	c := <-b.queue
	if c.Kind() != KindComment || c.TaskID != "t1" || c.Revision != 0 {
		t.Fatalf("queued %+v", c)
	}
}

func TestCoalesceKeepsActivityApartFromTaskChanges(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	got := coalesce([]Change{
		{Tenant: "acme", TaskID: "t1", Revision: 2, OccurredAt: at},
		{Tenant: "acme", TaskID: "t1", Activity: KindComment, OccurredAt: at},
		{Tenant: "acme", TaskID: "t1", Activity: KindAttachment, OccurredAt: at},
		{Tenant: "acme", TaskID: "t1", Activity: KindComment, OccurredAt: at.Add(time.Second)},
	})
	if len(got) != 3 || got[0].Kind() != KindChanged || got[1].Kind() != KindComment || got[2].Kind() != KindAttachment {
		t.Fatalf("coalesced to %+v", got)
	}
}

func TestRelayCarriesActivityChanges(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 1000, time.UTC)
	in := []Change{
		{Tenant: "acme", TaskID: "t/1?# é", Activity: KindComment, OccurredAt: at},
		{Tenant: "acme", TaskID: "t1", Activity: KindAttachment, OccurredAt: at},
	}
	payload, n := encodeChanges(in)
	if n != len(in) {
		t.Fatalf("encoded %d of %d", n, len(in))
	}
	got, err := decodeChanges(payload)
	if err != nil || len(got) != 2 || got[0] != in[0] || got[1] != in[1] {
		t.Fatalf("decoded %+v, %v; want %+v", got, err, in)
	}
	// An unknown activity kind, or one without its task: dropped.
	got, err = decodeChanges(`[{"t":"acme","id":"t1","k":"changed","at":0},{"t":"acme","u":"k","k":"comment","at":0}]`)
	if err != nil || len(got) != 0 {
		t.Fatalf("decoded %+v, %v; want nothing", got, err)
	}
}
