package models

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestNewAbsence(t *testing.T) {
	from := time.Date(2026, 7, 1, 8, 0, 0, 500, time.FixedZone("CEST", 2*3600))
	ann, ben := ParticipantRef{ID: "ann"}, ParticipantRef{ID: "ben", DisplayName: "Ben"}

	t.Run("OK", func(t *testing.T) {
		a, err := NewAbsence(testTenant, ann, from, from.Add(MaxAbsence), ben)
		if err != nil {
			t.Fatal(err)
		}
		if !a.User.Same(userRef("ann")) || !a.Substitute.Same(userRef("ben")) || a.Substitute.DisplayName != "Ben" || a.Tenant != testTenant {
			t.Fatalf("absence %+v", a)
		}
		if a.From.Location() != time.UTC || a.From.Nanosecond() != 0 || !a.From.Equal(from.Truncate(time.Second)) {
			t.Fatalf("from %v, want %v in UTC to the second", a.From, from)
		}
	})
	t.Run("ActiveAtTheBoundaries", func(t *testing.T) {
		a, err := NewAbsence(testTenant, ann, from, from.Add(time.Hour), ben)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			at   time.Time
			want bool
		}{
			{a.From.Add(-time.Microsecond), false}, {a.From, true}, {a.Until.Add(-time.Microsecond), true}, {a.Until, false},
		} {
			if got := a.ActiveAt(c.at); got != c.want {
				t.Errorf("ActiveAt(%v) = %v, want %v", c.at, got, c.want)
			}
		}
	})
	for _, c := range []struct {
		name        string
		from, until time.Time
		user, sub   ParticipantRef
		wantFields  []string
	}{
		{"UntilBeforeFrom", from, from.Add(-time.Hour), ann, ben, []string{"until"}},
		{"UntilEqualsFrom", from, from, ann, ben, []string{"until"}},
		{"LongerThan365Days", from, from.Add(MaxAbsence + time.Second), ann, ben, []string{"until"}},
		{"Missing", time.Time{}, time.Time{}, ann, ben, []string{"from", "until"}},
		{"SubstituteOneself", from, from.Add(time.Hour), ann, ParticipantRef{ID: "ann", DisplayName: "Ann"}, []string{"substitute"}},
		{"SubstituteAGroup", from, from.Add(time.Hour), ann, ParticipantRef{Type: GroupParticipant, ID: "sales"}, []string{"substitute.type"}},
		{"SubstituteAGuest", from, from.Add(time.Hour), ann, ParticipantRef{Provider: GuestProvider, ID: "invitation:x"}, []string{"substitute.provider"}},
		{"SubstituteOfAnotherTenant", from, from.Add(time.Hour), ann, ParticipantRef{Tenant: "other", ID: "ben"}, []string{"substitute"}},
		{"SubstituteMissing", from, from.Add(time.Hour), ann, ParticipantRef{}, []string{"substitute.id"}},
		{"SubstituteControlCharacter", from, from.Add(time.Hour), ann, ParticipantRef{ID: "b\x1ben"}, []string{"substitute.id"}},
	} {
		t.Run("ErrValidation_"+c.name, func(t *testing.T) {
			_, err := NewAbsence(testTenant, c.user, c.from, c.until, c.sub)
			wantCode(t, err, CodeValidationFailed)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("got %v, want a *ValidationError", err)
			}
			var fields []string
			for _, f := range ve.Fields {
				fields = append(fields, f.Field)
			}
			if !slices.Equal(fields, c.wantFields) {
				t.Fatalf("fields %v, want %v", fields, c.wantFields)
			}
		})
	}
}
