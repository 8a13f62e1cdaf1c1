// Package notify delivers notifications (SPEC 10.3): the worker that expands group rows,
// checks visibility, shows a row in the recipient's in-app list and sends it on by email and
// webhook; the due-soon and digest workers; and the mail a person receives. The rows themselves
// are written by the stores (store.Notifications, storekit.NotificationsFor).
package notify

import (
	"context"
	"errors"
	"time"

	"usertasks/models"
)

// Task is what a notification may say about its task: safe fields only (SPEC 10.3), never
// instructions, data, comments or file names.
type Task struct {
	ID        string
	Title     string
	Reference string
	Workflow  string // the workflow definition's name, else its id
	DueAt     *time.Time
	Priority  int
	Link      string // USERTASKS_BASE_URL/tasks/{id}
}

// Recipient is a person to mail and what the mail needs to speak to them.
type Recipient struct {
	Person  models.Person // language, time zone, display name, preferences
	Address string        // the email address
}

// Item is one notification of a digest with its task.
type Item struct {
	Notification models.Notification
	Task         Task
}

// Mailer sends notification email. An error wrapping ErrPermanent is not retried (a refused
// address); any other error is retried on the delivery schedule.
type Mailer interface {
	// Send mails one notification to its recipient, in their language and time zone, with a
	// one-click unsubscribe from its trigger's email.
	Send(ctx context.Context, to Recipient, n models.Notification, t Task) error
	// SendDigest mails one digest of items for period, grouped by task.
	SendDigest(ctx context.Context, to Recipient, period models.DigestPeriod, items []Item) error
}

// ErrPermanent marks a failure that retrying cannot fix.
var ErrPermanent = errors.New("notify: permanent failure")
