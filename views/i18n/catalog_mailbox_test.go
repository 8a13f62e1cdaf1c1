package i18n

import (
	"reflect"
	"testing"
	"time"
)

// TestMailboxTextComplete: every word of the dev mailbox is said in every language.
func TestMailboxTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.Mailbox)
		for i := range v.NumField() {
			if f := v.Field(i); f.String() == "" {
				t.Errorf("%s: Mailbox.%s is empty", c.Lang, v.Type().Field(i).Name)
			}
		}
	}
}

// TestApproximate: a relative time rounded to the nearest unit and said as an approximation
// (issue 26, item 24: "in 2 days" for a 3-day link, "in 1 hour" for 1 h 57 min).
func TestApproximate(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		c    *Catalog
		d    time.Duration
		want string
	}{
		{english, 72*time.Hour - 50*time.Millisecond, "in about 3 days"}, // a 3-day link, rendered a moment later
		{english, time.Hour + 57*time.Minute, "in about 2 hours"},
		{english, -(time.Hour + 57*time.Minute), "about 2 hours ago"},
		{english, time.Hour + 29*time.Minute, "in about 1 hour"},
		{english, 90 * time.Minute, "in about 2 hours"}, // half rounds up
		{english, 59*time.Minute + 45*time.Second, "in about 1 hour"},
		{english, 47*time.Hour + 40*time.Minute, "in about 2 days"},
		{english, 4*time.Minute + 31*time.Second, "in about 5 minutes"},
		{english, 40 * time.Second, "in about 1 minute"},
		{english, 10 * time.Second, "just now"},
		{english, 75 * 24 * time.Hour, "in about 3 months"},
		{german, 72*time.Hour - time.Second, "in etwa 3 Tagen"},
		{german, -(time.Hour + 57*time.Minute), "vor etwa 2 Stunden"},
	} {
		if got := tc.c.Approximate(now.Add(tc.d), now); got != tc.want {
			t.Errorf("%s Approximate(%v) = %q, want %q", tc.c.Lang, tc.d, got, tc.want)
		}
	}
}
