package models

import (
	"testing"
	"time"
)

func TestNotificationTriggers(t *testing.T) {
	t.Run("EveryTriggerListedOnceAndValid", func(t *testing.T) {
		want := []NotificationTrigger{TriggerTaskAvailable, TriggerTaskAssigned, TriggerDueSoon, TriggerOverdue,
			TriggerEscalated, TriggerMentioned, TriggerCommentAdded, TriggerReturned}
		seen := map[NotificationTrigger]int{}
		for _, tr := range NotificationTriggers {
			seen[tr]++
		}
		if len(NotificationTriggers) != len(want) {
			t.Fatalf("%d triggers listed, want %d", len(NotificationTriggers), len(want))
		}
		for _, tr := range want {
			if seen[tr] != 1 || !tr.Valid() {
				t.Fatalf("trigger %q listed %d times, valid %v", tr, seen[tr], tr.Valid())
			}
		}
	})
	t.Run("UnknownRefused", func(t *testing.T) {
		for _, tr := range []NotificationTrigger{"", "Task-Available", "task-available ", "task_assigned", "mention", "task-available\x00"} {
			if tr.Valid() {
				t.Fatalf("%q is valid", tr)
			}
		}
	})
	t.Run("DigestPeriods", func(t *testing.T) {
		for _, d := range []DigestPeriod{DigestOff, DigestHourly, DigestDaily} {
			if !d.Valid() {
				t.Fatalf("%q is not valid", d)
			}
		}
		for _, d := range []DigestPeriod{"", "weekly", "Daily", "off "} {
			if d.Valid() {
				t.Fatalf("%q is valid", d)
			}
		}
	})
	t.Run("ChannelSettled", func(t *testing.T) {
		if ChannelUndecided.Settled() {
			t.Fatal("an undecided channel is settled")
		}
		for _, c := range []ChannelState{ChannelOff, ChannelSent, ChannelDigest, ChannelDigested, ChannelFailed} {
			if !c.Settled() {
				t.Fatalf("%q is not settled", c)
			}
		}
	})
}

func TestNotificationPreferences(t *testing.T) {
	wantOn := map[NotificationTrigger]bool{TriggerTaskAssigned: true, TriggerMentioned: true, TriggerEscalated: true, TriggerOverdue: true}
	t.Run("Defaults", func(t *testing.T) {
		d := DefaultNotificationPreferences()
		if d.Digest != DigestOff || len(d.Email) != len(NotificationTriggers) {
			t.Fatalf("defaults %+v", d)
		}
		for _, tr := range NotificationTriggers {
			if on, ok := d.Email[tr]; !ok || on != wantOn[tr] {
				t.Fatalf("default email for %s: %v (present %v), want %v", tr, on, ok, wantOn[tr])
			}
		}
	})
	t.Run("DefaultsAreFreshEachTime", func(t *testing.T) {
		d := DefaultNotificationPreferences()
		d.Email[TriggerTaskAssigned] = false
		if !DefaultNotificationPreferences().Email[TriggerTaskAssigned] {
			t.Fatal("changing one copy of the defaults changed the defaults")
		}
	})
	t.Run("EmailOnFallsBackToTheDefault", func(t *testing.T) {
		p := NotificationPreferences{Email: map[NotificationTrigger]bool{TriggerTaskAssigned: false, TriggerDueSoon: true}}
		for tr, want := range map[NotificationTrigger]bool{TriggerTaskAssigned: false, TriggerDueSoon: true, TriggerOverdue: true, TriggerTaskAvailable: false} {
			if got := p.EmailOn(tr); got != want {
				t.Fatalf("EmailOn(%s) = %v, want %v", tr, got, want)
			}
		}
		var none NotificationPreferences
		for _, tr := range NotificationTriggers {
			if got := none.EmailOn(tr); got != wantOn[tr] {
				t.Fatalf("zero preferences: EmailOn(%s) = %v, want the default %v", tr, got, wantOn[tr])
			}
		}
		if none.EmailOn("bogus") {
			t.Fatal("an unknown trigger has email on")
		}
	})
	t.Run("CompleteFillsDropsAndKeeps", func(t *testing.T) {
		in := NotificationPreferences{Email: map[NotificationTrigger]bool{TriggerOverdue: false, TriggerReturned: true, "bogus": true},
			Digest: DigestDaily}
		got := in.Complete()
		if got.Digest != DigestDaily || len(got.Email) != len(NotificationTriggers) {
			t.Fatalf("completed %+v", got)
		}
		if _, ok := got.Email["bogus"]; ok {
			t.Fatal("an unknown trigger survived Complete")
		}
		if got.Email[TriggerOverdue] || !got.Email[TriggerReturned] || !got.Email[TriggerTaskAssigned] || got.Email[TriggerTaskAvailable] {
			t.Fatalf("completed email %+v", got.Email)
		}
		if len(in.Email) != 3 || in.Email[TriggerTaskAssigned] {
			t.Fatalf("Complete changed its input: %+v", in.Email)
		}
		got.Email[TriggerDueSoon] = true
		if in.Email[TriggerDueSoon] {
			t.Fatal("the completed map aliases the input")
		}
	})
	t.Run("CompleteRefusesAnUnknownDigest", func(t *testing.T) {
		for _, d := range []DigestPeriod{"", "weekly"} {
			if got := (NotificationPreferences{Digest: d}).Complete(); got.Digest != DigestOff {
				t.Fatalf("digest %q completed to %q, want off", d, got.Digest)
			}
		}
	})
}

func TestNotificationKey(t *testing.T) {
	user := ParticipantRef{Tenant: "t1", Provider: DefaultProvider, Type: UserParticipant, ID: "ann", DisplayName: "Ann"}
	base := Notification{ID: "n1", Tenant: "t1", Recipient: user, TaskID: "task-1", Trigger: TriggerDueSoon, Revision: 7}
	t.Run("IdentityOnly", func(t *testing.T) {
		other := base
		other.ID = "n2"
		other.Recipient.DisplayName = "Ann B."
		other.Title = "another title"
		other.OccurredAt = time.Unix(1, 0)
		other.State = NotificationDone
		if other.Key() != base.Key() {
			t.Fatalf("the key depends on more than (tenant, task, trigger, revision, recipient): %q vs %q", other.Key(), base.Key())
		}
	})
	t.Run("EveryPartCounts", func(t *testing.T) {
		for name, edit := range map[string]func(n *Notification){
			"Tenant":   func(n *Notification) { n.Tenant = "t2" },
			"Task":     func(n *Notification) { n.TaskID = "task-2" },
			"Trigger":  func(n *Notification) { n.Trigger = TriggerOverdue },
			"Revision": func(n *Notification) { n.Revision = 8 },
			"Type":     func(n *Notification) { n.Recipient.Type = GroupParticipant },
			"Provider": func(n *Notification) { n.Recipient.Provider = "corp" },
			"ID":       func(n *Notification) { n.Recipient.ID = "Ann" },
			"Negative": func(n *Notification) { n.Revision = -7 },
		} {
			n := base
			edit(&n)
			if n.Key() == base.Key() {
				t.Errorf("%s: a different row has the same key %q", name, n.Key())
			}
		}
	})
}
