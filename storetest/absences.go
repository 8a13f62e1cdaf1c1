package storetest

import (
	"errors"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testAbsences covers out-of-office absences (SPEC 10.5): one per user, replaced by the next
// put; active from From (inclusive) to Until (exclusive) on the database clock, which the
// cases move; another tenant's user of the same id is another user; every identifier is data.
func testAbsences(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	put := func(t *testing.T, tenant, user string, from, until time.Time, sub string) models.Absence {
		t.Helper()
		a, err := models.NewAbsence(tenant, models.ParticipantRef{ID: user}, from, until, models.ParticipantRef{ID: sub, DisplayName: "Sub " + sub})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.PutAbsence(ctx(t), a)
		if err != nil {
			t.Fatalf("put absence: %v", err)
		}
		return got
	}
	get := func(t *testing.T, tenant, user string) (models.Absence, error) {
		t.Helper()
		return s.Absence(ctx(t), tenant, User(tenant, user))
	}
	active := func(t *testing.T, tenant, user string) bool {
		t.Helper()
		_, err := s.ActiveAbsence(ctx(t), tenant, User(tenant, user))
		if err != nil && !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("active absence: %v", err)
		}
		return err == nil
	}

	t.Run("RoundTrip", func(t *testing.T) {
		now := storeNow(t, s)
		put(t, "t1", hostileID, now.Add(time.Hour), now.Add(48*time.Hour), "ben/?#ü")
		got, err := get(t, "t1", hostileID)
		if err != nil {
			t.Fatal(err)
		}
		if got.User.ID != hostileID || got.Substitute.ID != "ben/?#ü" || got.Substitute.DisplayName != "Sub ben/?#ü" ||
			got.Substitute.Type != models.UserParticipant || got.Substitute.Provider != models.DefaultProvider || got.Tenant != "t1" {
			t.Fatalf("read back %+v", got)
		}
		if !got.From.Equal(now.Add(time.Hour)) || !got.Until.Equal(now.Add(48*time.Hour)) {
			t.Fatalf("times %v–%v, want %v–%v", got.From, got.Until, now.Add(time.Hour), now.Add(48*time.Hour))
		}
		if got.CreatedAt.Before(now) || !got.UpdatedAt.Equal(got.CreatedAt) {
			t.Fatalf("created %v updated %v, want the database time of the put (after %v)", got.CreatedAt, got.UpdatedAt, now)
		}
	})

	t.Run("BoundariesOnTheDatabaseClock", func(t *testing.T) {
		now := storeNow(t, s)
		put(t, "t1", "cy", now.Add(10*time.Minute), now.Add(20*time.Minute), "dan")
		if active(t, "t1", "cy") {
			t.Fatal("active before from")
		}
		clock.Advance(10 * time.Minute) // the database clock reaches from (it is at or past now+10m)
		if !active(t, "t1", "cy") {
			t.Fatal("not active at from")
		}
		clock.Advance(10 * time.Minute) // and passes until
		if active(t, "t1", "cy") {
			t.Fatal("active at or after until")
		}
		if _, err := get(t, "t1", "cy"); err != nil {
			t.Fatalf("a past absence is still read back: %v", err)
		}
		clock.Advance(-20 * time.Minute)
	})

	t.Run("PutReplacesTheOneAbsence", func(t *testing.T) {
		now := storeNow(t, s)
		first := put(t, "t1", "eve", now.Add(-time.Hour), now.Add(time.Hour), "fay")
		clock.Advance(time.Second)
		second := put(t, "t1", "eve", now.Add(24*time.Hour), now.Add(48*time.Hour), "gus")
		clock.Advance(-time.Second)
		got, err := get(t, "t1", "eve")
		if err != nil {
			t.Fatal(err)
		}
		if got.Substitute.ID != "gus" || !got.From.Equal(now.Add(24*time.Hour)) {
			t.Fatalf("after the second put: %+v, want the second absence only", got)
		}
		if !got.CreatedAt.Equal(first.CreatedAt) || !got.UpdatedAt.After(first.UpdatedAt) || !second.UpdatedAt.Equal(got.UpdatedAt) {
			t.Fatalf("created %v updated %v, want created kept (%v) and updated later", got.CreatedAt, got.UpdatedAt, first.CreatedAt)
		}
		if active(t, "t1", "eve") {
			t.Fatal("the replaced absence is still active")
		}
		if n := countAbsences(t, h, s, "t1", "eve"); n >= 0 && n != 1 {
			t.Fatalf("%d stored absences of eve, want 1", n)
		}
	})

	t.Run("TenantIsolation", func(t *testing.T) {
		now := storeNow(t, s)
		put(t, "t1", "hal", now.Add(-time.Hour), now.Add(time.Hour), "ivy")
		if _, err := get(t, "t2", "hal"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("t2's hal reads t1's absence: %v", err)
		}
		if active(t, "t2", "hal") {
			t.Fatal("t2's hal is absent by t1's absence")
		}
		if err := s.DeleteAbsence(ctx(t), "t2", User("t2", "hal")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("t2 deletes t1's absence: %v", err)
		}
		if !active(t, "t1", "hal") {
			t.Fatal("t1's absence is gone")
		}
		other := User("t1", "hal")
		other.Provider = "corp"
		if _, err := s.Absence(ctx(t), "t1", other); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("another provider's hal reads it: %v", err)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		now := storeNow(t, s)
		put(t, "t1", "jo", now.Add(-time.Hour), now.Add(time.Hour), "kim")
		if err := s.DeleteAbsence(ctx(t), "t1", User("t1", "jo")); err != nil {
			t.Fatal(err)
		}
		if _, err := get(t, "t1", "jo"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
		if err := s.DeleteAbsence(ctx(t), "t1", User("t1", "jo")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	})

	t.Run("ErrValidation", func(t *testing.T) {
		now := storeNow(t, s)
		for name, a := range map[string]models.Absence{
			"UntilBeforeFrom":   {Tenant: "t1", User: User("t1", "lu"), From: now, Until: now.Add(-time.Hour), Substitute: User("t1", "mo")},
			"TooLong":           {Tenant: "t1", User: User("t1", "lu"), From: now, Until: now.Add(models.MaxAbsence + time.Hour), Substitute: User("t1", "mo")},
			"SubstituteOneself": {Tenant: "t1", User: User("t1", "lu"), From: now, Until: now.Add(time.Hour), Substitute: User("t1", "lu")},
			"SubstituteAGroup":  {Tenant: "t1", User: User("t1", "lu"), From: now, Until: now.Add(time.Hour), Substitute: Group("t1", "sales")},
			"NoUser":            {Tenant: "t1", From: now, Until: now.Add(time.Hour), Substitute: User("t1", "mo")},
		} {
			if _, err := s.PutAbsence(ctx(t), a); !errors.Is(err, models.ErrInvalid) {
				t.Errorf("%s: %v, want a validation error", name, err)
			}
		}
		if _, err := get(t, "t1", "lu"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("a refused put wrote: %v", err)
		}
	})
}

// countAbsences counts the stored absences of user in tenant, -1 when the provider cannot count.
func countAbsences(t *testing.T, h Harness, s store.Store, tenant, user string) int {
	t.Helper()
	if h.CountRecords == nil {
		return -1
	}
	return h.CountRecords(t, s, "user_task_absences", map[string]any{"tenant_id": tenant, "user_id": user})
}
