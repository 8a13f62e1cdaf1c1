package models

import (
	"encoding/json"
	"testing"
	"time"
)

func TestSubstitute(t *testing.T) {
	boss := manager("boss")
	absenceOf := func(user, sub string) Absence {
		return Absence{Tenant: testTenant, User: userRef(user), From: now.Add(-time.Hour), Until: now.Add(time.Hour), Substitute: userRef(sub)}
	}
	assignTo := func(t *testing.T, task Task, who string) Change {
		t.Helper()
		ch, err := Assign(task, cmdOf(boss, task), userRef(who), "", now)
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	available := newTask(t, &taskOpts{status: StatusAvailable})

	t.Run("OK", func(t *testing.T) {
		ch := assignTo(t, available, "bob")
		ok, err := Substitute(&available, &ch, absenceOf("bob", "carl"), now)
		if err != nil || !ok {
			t.Fatalf("forwarded %v, %v; want true", ok, err)
		}
		if ch.Task.Assignee == nil || !ch.Task.Assignee.Same(userRef("carl")) {
			t.Fatalf("assignee %v, want carl", ch.Task.Assignee)
		}
		var meta struct{ Assignee, SubstituteFor wireRef }
		if err := json.Unmarshal(ch.Event.Metadata, &meta); err != nil || meta.Assignee.ID != "carl" || meta.SubstituteFor.ID != "bob" {
			t.Fatalf("metadata %s (%v), want assignee carl, substituteFor bob", ch.Event.Metadata, err)
		}
	})

	for _, tt := range []struct {
		name string
		abs  Absence
		at   time.Time
	}{
		{"NotYetActive", absenceOf("bob", "carl"), now.Add(-time.Hour - time.Second)},
		{"EndedAtUntil", absenceOf("bob", "carl"), now.Add(time.Hour)},
		{"SomeoneElsesAbsence", absenceOf("dan", "carl"), now},
		{"AnotherTenant", func() Absence { a := absenceOf("bob", "carl"); a.Tenant = "other"; return a }(), now},
		{"ExcludedSubstitute", absenceOf("bob", "mallory"), now},
	} {
		t.Run("Unchanged_"+tt.name, func(t *testing.T) {
			ch := assignTo(t, available, "bob")
			meta := string(ch.Event.Metadata)
			ok, err := Substitute(&available, &ch, tt.abs, tt.at)
			if err != nil || ok || !ch.Task.Assignee.Same(userRef("bob")) || string(ch.Event.Metadata) != meta {
				t.Fatalf("forwarded %v (%v): assignee %v metadata %s; want bob unchanged", ok, err, ch.Task.Assignee, ch.Event.Metadata)
			}
		})
	}

	t.Run("Unchanged_TheSubstituteHoldsIt", func(t *testing.T) {
		held := newTask(t, &taskOpts{status: StatusAssigned, assignee: refPtr(userRef("carl"))})
		ch, err := Delegate(held, cmdOf(person("carl"), held), userRef("bob"), "", now)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := Substitute(&held, &ch, absenceOf("bob", "carl"), now); ok || !ch.Task.Assignee.Same(userRef("bob")) {
			t.Fatalf("forwarded %v to %v; a delegation by the substitute goes to the absent user", ok, ch.Task.Assignee)
		}
	})

	t.Run("Unchanged_AClaim", func(t *testing.T) {
		ch, err := Claim(available, cmdOf(person("alice"), available), now)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := SubstitutionTarget(&available, &ch); ok {
			t.Fatal("a claim is one's own: no absence can matter")
		}
	})
}
