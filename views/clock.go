package views

import (
	"time"

	"usertasks/views/i18n"
)

// Clock renders the times of one page: relative to the page's now, and absolute in the
// reader's time zone. Every time the pages show goes through it, so the zone is chosen in one
// place (UTC until the session carries the person's own zone).
type Clock struct {
	T   *i18n.Catalog
	Now time.Time
	Loc *time.Location // nil is UTC
}

// Clock is the page's clock.
func (c Chrome) Clock() Clock { return Clock{T: c.T, Now: c.Now, Loc: c.Location} }

// Absolute is t as a date and time with its zone, e.g. "14 Mar 2026, 09:30 UTC".
func (k Clock) Absolute(t time.Time) string {
	loc := k.Loc
	if loc == nil {
		loc = time.UTC
	}
	return k.T.Date(t.In(loc))
}

// Relative is t relative to the page's now, e.g. "in 3 days".
func (k Clock) Relative(t time.Time) string { return k.T.Relative(t, k.Now) }

// Machine is t for a datetime attribute: RFC 3339 in UTC.
func (k Clock) Machine(t time.Time) string { return t.UTC().Format(time.RFC3339) }
