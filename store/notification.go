package store

import (
	"context"
	"time"

	"usertasks/models"
)

// Notifications keeps what tells people about their work (SPEC 10.3). The rows a change causes
// are written by Create and Mutate in the change's own transaction (storekit.NotificationsFor);
// these methods serve the workers that add time-based rows, expand groups and deliver, and the
// recipient's in-app list. Every row is unique on (tenant, task, trigger, revision, recipient):
// a second write of the same key is skipped, never an error, so every node may race to write it.
type Notifications interface {
	// AddNotifications writes rows a worker decided (due-soon), skipping each whose key exists,
	// and returns how many it wrote. The store sets AvailableAt and UpdatedAt to its clock;
	// the rows are pending with undecided channels.
	AddNotifications(ctx context.Context, ns []models.Notification) (int, error)
	// ClaimNotifications leases up to limit pending rows whose AvailableAt has passed and
	// whose lease is free or expired, oldest first, for leaseFor (fenced like the outboxes).
	ClaimNotifications(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Notification, error)
	// SettleNotification writes the delivery worker's outcome for a leased row and frees the
	// lease; a stale lease fails with models.ErrLeaseLost. A pending outcome counts an attempt
	// and makes the row due again after out.RetryAfter.
	SettleNotification(ctx context.Context, n models.Notification, out models.NotificationOutcome) error
	// ExpandNotification replaces a leased group row by its members' rows in one transaction:
	// it writes members (as AddNotifications does, keys already taken skipped) and marks the
	// group row done. It returns how many member rows it wrote; a stale lease writes nothing
	// and fails with models.ErrLeaseLost.
	ExpandNotification(ctx context.Context, group models.Notification, members []models.Notification) (int, error)
	// Notifications is a page of one recipient's in-app list: the rows shown to them
	// (VisibleAt set), newest first, with their unread count.
	Notifications(ctx context.Context, q models.NotificationQuery) (models.NotificationPage, error)
	// UnreadNotifications counts the recipient's shown, unread rows (the bell in every page
	// header), counting at most limit (the bell shows "99+").
	UnreadNotifications(ctx context.Context, tenant string, recipient models.ParticipantRef, limit int) (int, error)
	// MarkNotificationsRead marks the recipient's shown rows read: the ids given (others' ids
	// and unknown ids are ignored), or all of them. It returns how many changed.
	MarkNotificationsRead(ctx context.Context, tenant string, recipient models.ParticipantRef, ids []string, all bool) (int, error)
	// DigestsWaiting lists up to limit recipients with emails waiting for their digest, each
	// with the time of its oldest waiting row, oldest first.
	DigestsWaiting(ctx context.Context, limit int) ([]DigestWaiting, error)
	// ClaimDigest leases up to limit of one recipient's rows waiting for the digest that
	// occurred before before, oldest first.
	ClaimDigest(ctx context.Context, owner string, w DigestWaiting, before time.Time, limit int, leaseFor time.Duration) ([]models.Notification, error)
	// SettleDigest marks leased digest rows as sent in a digest (email digested) and frees
	// them, in one transaction; a row whose lease went stale fails it with models.ErrLeaseLost.
	SettleDigest(ctx context.Context, ns []models.Notification) error
	// DueSoonTasks pages the open tasks with a due time in (from, to], by due time then id,
	// after the given task (nil for the first page): the due-soon worker's scan.
	DueSoonTasks(ctx context.Context, from, to time.Time, after *models.Task, limit int) ([]models.Task, error)
}

// DigestWaiting is a recipient with emails waiting for their digest.
type DigestWaiting struct {
	Tenant    string
	Recipient models.ParticipantRef
	Oldest    time.Time
}

// People keeps the users the product knows per tenant (SPEC 10.3): who they are from their
// latest request, their email, language and time zone for notifications, and their
// notification preferences.
type People interface {
	// RecordPerson writes p's identity (display name, email, language, time zone, manager) and
	// seen time unless the stored record was written less than every ago; it never touches the
	// preferences. It reports whether it wrote.
	RecordPerson(ctx context.Context, p models.Person, every time.Duration) (bool, error)
	// Person is the stored record of user in tenant (preferences completed with the
	// defaults), or an error wrapping models.ErrNotFound.
	Person(ctx context.Context, tenant string, user models.ParticipantRef) (models.Person, error)
	// SetNotificationPreferences stores user's preferences (creating a bare record if none)
	// and returns the record.
	SetNotificationPreferences(ctx context.Context, tenant string, user models.ParticipantRef, prefs models.NotificationPreferences) (models.Person, error)
	// Managers lists up to limit recorded managers of tenant, by user id.
	Managers(ctx context.Context, tenant string, limit int) ([]models.Person, error)
}
