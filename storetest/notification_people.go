package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// person is a person's record as a request would write it.
func person(tenant, id string, manager bool) models.Person {
	return models.Person{Tenant: tenant, User: User(tenant, id), Email: id + "@example.org", Language: "de",
		TimeZone: "Europe/Berlin", Manager: manager}
}

func record(t *testing.T, s store.Store, p models.Person, every time.Duration, want bool) {
	t.Helper()
	wrote, err := s.RecordPerson(ctx(t), p, every)
	if err != nil {
		t.Fatalf("record %s: %v", p.User.ID, err)
	}
	if wrote != want {
		t.Fatalf("record %s wrote %v, want %v", p.User.ID, wrote, want)
	}
}

func mustPerson(t *testing.T, s store.Store, tenant string, user models.ParticipantRef) models.Person {
	t.Helper()
	p, err := s.Person(ctx(t), tenant, user)
	if err != nil {
		t.Fatalf("person %s: %v", user.ID, err)
	}
	return p
}

func samePrefs(a, b models.NotificationPreferences) bool {
	if a.Digest != b.Digest || len(a.Email) != len(b.Email) {
		return false
	}
	for k, v := range a.Email {
		if w, ok := b.Email[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// testPeople checks store.People: who the product knows per tenant, recorded at most once per
// interval without touching their notification preferences.
func testPeople(t *testing.T, h Harness) {
	every := models.PersonRecordEvery

	t.Run("RecordedThenThrottledThenRewritten", func(t *testing.T) {
		s, clock := noteStore(t, h)
		first := person("t1", "ann", false)
		first.User.DisplayName = "Ann Ärger"
		before := storeNow(t, s)
		record(t, s, first, every, true)
		got := mustPerson(t, s, "t1", User("t1", "ann"))
		if got.Tenant != "t1" || !got.User.Same(first.User) || got.User.DisplayName != "Ann Ärger" || got.Email != "ann@example.org" ||
			got.Language != "de" || got.TimeZone != "Europe/Berlin" || got.Manager || got.SeenAt.Before(before) {
			t.Fatalf("recorded %+v", got)
		}
		if !samePrefs(got.Preferences, models.DefaultNotificationPreferences()) {
			t.Fatalf("a new person's preferences %+v, want the defaults", got.Preferences)
		}
		changed := first
		changed.Language, changed.Email, changed.Manager = "en", "ann@corp.example", true
		record(t, s, changed, every, false)
		if got := mustPerson(t, s, "t1", User("t1", "ann")); got.Language != "de" || got.Manager {
			t.Fatalf("a throttled record was written: %+v", got)
		}
		clock.Advance(every + time.Second)
		record(t, s, changed, every, true)
		again := mustPerson(t, s, "t1", User("t1", "ann"))
		if again.Language != "en" || again.Email != "ann@corp.example" || !again.Manager || !again.SeenAt.After(got.SeenAt) {
			t.Fatalf("rewritten %+v (first seen %v)", again, got.SeenAt)
		}
		record(t, s, changed, 0, true) // no interval: every request writes
	})
	t.Run("RecordNeverTouchesPreferences", func(t *testing.T) {
		s, clock := noteStore(t, h)
		prefs := models.NotificationPreferences{Email: map[models.NotificationTrigger]bool{models.TriggerTaskAssigned: false, models.TriggerDueSoon: true},
			Digest: models.DigestDaily}
		if _, err := s.SetNotificationPreferences(ctx(t), "t1", User("t1", "ann"), prefs); err != nil {
			t.Fatal(err)
		}
		clock.Advance(every + time.Second)
		record(t, s, person("t1", "ann", true), every, true)
		got := mustPerson(t, s, "t1", User("t1", "ann"))
		if !samePrefs(got.Preferences, prefs.Complete()) {
			t.Fatalf("preferences %+v after a record, want %+v", got.Preferences, prefs.Complete())
		}
		if !got.Manager || got.Email != "ann@example.org" {
			t.Fatalf("the record after preferences: %+v", got)
		}
	})
	t.Run("PreferencesRoundTripCompleted", func(t *testing.T) {
		s, _ := noteStore(t, h)
		record(t, s, person("t1", "ann", false), every, true)
		prefs := models.NotificationPreferences{Email: map[models.NotificationTrigger]bool{models.TriggerDueSoon: true, models.TriggerOverdue: false},
			Digest: models.DigestHourly}
		set, err := s.SetNotificationPreferences(ctx(t), "t1", User("t1", "ann"), prefs)
		if err != nil {
			t.Fatal(err)
		}
		want := prefs.Complete()
		if !samePrefs(set.Preferences, want) || set.Email != "ann@example.org" {
			t.Fatalf("set returned %+v, want preferences %+v", set, want)
		}
		got := mustPerson(t, s, "t1", User("t1", "ann"))
		if !samePrefs(got.Preferences, want) || len(got.Preferences.Email) != len(models.NotificationTriggers) {
			t.Fatalf("read back %+v, want %+v", got.Preferences, want)
		}
		if !got.Preferences.EmailOn(models.TriggerTaskAssigned) || !got.Preferences.EmailOn(models.TriggerDueSoon) || got.Preferences.EmailOn(models.TriggerOverdue) {
			t.Fatalf("email choices %+v", got.Preferences.Email)
		}
		// Every trigger off, digest off: a stored false is not a missing default.
		off := models.NotificationPreferences{Email: map[models.NotificationTrigger]bool{}, Digest: models.DigestOff}
		for _, tr := range models.NotificationTriggers {
			off.Email[tr] = false
		}
		if _, err := s.SetNotificationPreferences(ctx(t), "t1", User("t1", "ann"), off); err != nil {
			t.Fatal(err)
		}
		if got := mustPerson(t, s, "t1", User("t1", "ann")); !samePrefs(got.Preferences, off) {
			t.Fatalf("all off read back %+v", got.Preferences)
		}
	})
	t.Run("PreferencesCreateABareRecord", func(t *testing.T) {
		s, clock := noteStore(t, h)
		_, err := s.Person(ctx(t), "t1", User("t1", "cy"))
		wantIs(t, err, models.ErrNotFound)
		prefs := models.NotificationPreferences{Email: map[models.NotificationTrigger]bool{models.TriggerMentioned: false}, Digest: models.DigestDaily}
		if _, err := s.SetNotificationPreferences(ctx(t), "t1", User("t1", "cy"), prefs); err != nil {
			t.Fatal(err)
		}
		got := mustPerson(t, s, "t1", User("t1", "cy"))
		if !got.User.Same(User("t1", "cy")) || got.Manager || !samePrefs(got.Preferences, prefs.Complete()) {
			t.Fatalf("bare record %+v", got)
		}
		// A later request fills in the identity and keeps the preferences.
		clock.Advance(every + time.Second)
		record(t, s, person("t1", "cy", false), every, true)
		if got := mustPerson(t, s, "t1", User("t1", "cy")); got.Email != "cy@example.org" || !samePrefs(got.Preferences, prefs.Complete()) {
			t.Fatalf("after the first request %+v", got)
		}
	})
	t.Run("NotFoundAndIsolation", func(t *testing.T) {
		s, _ := noteStore(t, h)
		record(t, s, person("t1", "ann", true), every, true)
		hostile := person("t1", hostileID, false)
		record(t, s, hostile, every, true)
		if got := mustPerson(t, s, "t1", User("t1", hostileID)); got.User.ID != hostileID {
			t.Fatalf("hostile id read back as %q", got.User.ID)
		}
		corp := User("t1", "ann")
		corp.Provider = "corp"
		group := Group("t1", "ann")
		for name, c := range map[string]struct {
			tenant string
			user   models.ParticipantRef
		}{
			"Unknown":       {"t1", User("t1", "nobody")},
			"OtherTenant":   {"t2", User("t2", "ann")},
			"OtherProvider": {"t1", corp},
			"Group":         {"t1", group},
			"OtherCase":     {"t1", User("t1", "ANN")},
			"PathTrick":     {"t1", User("t1", "ann/../ann")},
			"Prefix":        {"t1", User("t1", "an")},
		} {
			if _, err := s.Person(ctx(t), c.tenant, c.user); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s: err %v, want not found", name, err)
			}
		}
		// Another tenant's person of the same id is another person.
		record(t, s, person("t2", "ann", false), every, true)
		if got := mustPerson(t, s, "t2", User("t2", "ann")); got.Manager {
			t.Fatal("t2's ann took t1's record")
		}
		if got := mustPerson(t, s, "t1", User("t1", "ann")); !got.Manager {
			t.Fatal("t2's record overwrote t1's ann")
		}
	})
	t.Run("ManagersOfTheTenantByID", func(t *testing.T) {
		s, clock := noteStore(t, h)
		for _, p := range []models.Person{person("t1", "zoe", true), person("t1", "bob", false), person("t1", "amy", true),
			person("t1", "kim", true), person("t2", "max", true)} {
			record(t, s, p, every, true)
		}
		ids := func(ps []models.Person) string {
			out := make([]string, len(ps))
			for i, p := range ps {
				out[i] = p.User.ID
			}
			return fmt.Sprint(out)
		}
		managers, err := s.Managers(ctx(t), "t1", 10)
		if err != nil || ids(managers) != "[amy kim zoe]" {
			t.Fatalf("managers %s, %v; want [amy kim zoe]", ids(managers), err)
		}
		if managers[0].Email != "amy@example.org" || managers[0].Tenant != "t1" {
			t.Fatalf("a manager's record %+v", managers[0])
		}
		if two, err := s.Managers(ctx(t), "t1", 2); err != nil || ids(two) != "[amy kim]" {
			t.Fatalf("limit 2: %s, %v", ids(two), err)
		}
		if other, err := s.Managers(ctx(t), "t2", 10); err != nil || ids(other) != "[max]" {
			t.Fatalf("t2's managers %s, %v", ids(other), err)
		}
		if none, err := s.Managers(ctx(t), "t3", 10); err != nil || len(none) != 0 {
			t.Fatalf("an unknown tenant's managers %s, %v", ids(none), err)
		}
		// kim is no longer a manager on her next recorded request.
		clock.Advance(every + time.Second)
		record(t, s, person("t1", "kim", false), every, true)
		if managers, err := s.Managers(ctx(t), "t1", 10); err != nil || ids(managers) != "[amy zoe]" {
			t.Fatalf("after kim's demotion %s, %v", ids(managers), err)
		}
	})
}
