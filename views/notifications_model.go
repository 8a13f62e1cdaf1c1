package views

import (
	"strconv"
	"time"
)

// Bell is the header's link to the notifications with the unread count.
type Bell struct {
	Unread  int  // counted up to 100; shown as "99+" beyond 99
	Unknown bool // the count failed: the bell shows no number
}

// Count is the number the bell shows: "" for none, "99+" beyond 99.
func (b Bell) Count() string {
	switch {
	case b.Unknown || b.Unread <= 0:
		return ""
	case b.Unread > 99:
		return "99+"
	}
	return strconv.Itoa(b.Unread)
}

// NotificationsPage is the signed-in person's notifications (/notifications).
type NotificationsPage struct {
	Chrome
	Rows       []NotificationRow
	UnreadOnly bool
	Unread     int    // the person's unread count (all pages)
	NextURL    string // older rows; "" on the last page
	Paged      bool   // not the first page: offers the way back to the newest
}

// NotificationRow is one notification: safe fields only.
type NotificationRow struct {
	ID, Trigger, TaskID, Title string
	Href                       string // the task page
	Actor                      string // display name of who caused it; "" for the system
	OccurredAt                 time.Time
	Unread                     bool
}

// NotificationSettingsPage is the email choice per trigger and the digest.
type NotificationSettingsPage struct {
	Chrome
	Triggers    []TriggerChoice
	Digest      string
	DigestError string
}

// TriggerChoice is one trigger's email checkbox.
type TriggerChoice struct {
	Trigger string
	Email   bool
}

// DigestChoices are the digest periods in the order shown.
var DigestChoices = []string{"off", "hourly", "daily"}

// firstOr is s, or def when s is empty.
func firstOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// digestLabel names a digest period.
func digestLabel(c Chrome, d string) string {
	switch d {
	case "hourly":
		return c.T.Notifications.DigestHourly
	case "daily":
		return c.T.Notifications.DigestDaily
	}
	return c.T.Notifications.DigestOff
}

// NewestURL is the first page of the list the page shows.
func (m NotificationsPage) NewestURL() string {
	if m.UnreadOnly {
		return "/notifications?unread=true"
	}
	return "/notifications"
}
