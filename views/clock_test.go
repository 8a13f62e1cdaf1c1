package views

import (
	"testing"
	"time"

	"usertasks/views/i18n"
)

func TestClock(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	at := now.Add(-2 * time.Hour)
	t.Run("UTCByDefault", func(t *testing.T) {
		k := Chrome{T: i18n.English(), Now: now}.Clock()
		if got, want := k.Absolute(at), "14 Mar 2026, 07:30 UTC"; got != want {
			t.Fatalf("absolute %q, want %q", got, want)
		}
		if got, want := k.Relative(at), "2 hours ago"; got != want {
			t.Fatalf("relative %q, want %q", got, want)
		}
	})
	t.Run("TheReadersZone", func(t *testing.T) {
		cet := time.FixedZone("CET", 3600)
		k := Chrome{T: i18n.German(), Now: now, Location: cet}.Clock()
		if got, want := k.Absolute(at), "14. März 2026, 08:30 CET"; got != want {
			t.Fatalf("absolute %q, want %q", got, want)
		}
		// The machine-readable form stays UTC, whatever the zone.
		if got, want := k.Machine(at.In(cet)), "2026-03-14T07:30:00Z"; got != want {
			t.Fatalf("machine %q, want %q", got, want)
		}
	})
}
