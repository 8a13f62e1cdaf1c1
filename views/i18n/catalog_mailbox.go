package i18n

import (
	"fmt"
	"time"
)

// MailboxText is the dev mailbox page (dev mode only): the invitations the dev-mailbox
// dispatcher "sent", kept in memory.
type MailboxText struct {
	Title     string
	DevTool   string // the badge marking the page as a development tool
	DevNote   string
	Empty     string
	Caption   string
	Sent      string
	Recipient string
	Link      string
	OpenLink  string
	Code      string
	NoCode    string
	Expires   string
	About     string // "about %s": a time rounded to the nearest unit (Approximate)
}

// Approximate renders t relative to now rounded to the nearest unit and said as an
// approximation: "in about 3 days" for 2 days 23 hours, "about 2 hours ago" for 1 hour 57
// minutes. Relative truncates ("in 2 days"), which misleads where the exact time is not shown
// first, as with the dev mailbox's expiries. The units switch where Relative's do, after the
// rounding: 59 min 45 s is "about 1 hour", 47 h 40 min "about 2 days".
func (c *Catalog) Approximate(t, now time.Time) string {
	d, future := distance(t, now)
	if d < 30*time.Second {
		return c.JustNow
	}
	return c.direction(future, fmt.Sprintf(c.Mailbox.About, c.span(d, true)))
}
