package docstore

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Notifications (SPEC 10.3) as documents of user_task_notifications, one per row, `_id` the
// notification id and unique on the logical key ux_notifications_key (tenant, task, trigger,
// revision, recipient). The rows a change causes (storekit.NotificationsFor) are queued in the
// task aggregate's pending_notifications by the change's own claimed write and moved by the
// relay, as events are: the change and its notifications land together or not at all, and a
// relay that inserts a row twice (a crash between its insert and its pull, a retry) finds the
// key taken and counts that as done. Every insert skips a taken key, so a worker's row
// (AddNotifications, ExpandNotification) and a change's row of the same key leave one.

// notificationCollection holds the notifications once the relay or a worker wrote them.
const notificationCollection = "user_task_notifications"

// notificationDoc is a notification as stored: the row every store keeps, and the version of
// its claimed writes (absent, 0, until the first: leases, settles, digests, reads).
type notificationDoc struct {
	storekit.NotificationRow `bson:",inline"`
	Version                  int64 `bson:"version"`
}

func (d *notificationDoc) entry() outboxEntry {
	return outboxEntry{ID: d.ID, TenantID: d.TenantID, State: d.State, LeaseColumns: d.LeaseColumns, Version: d.Version}
}

// notificationOutbox files the rows' claims; its lease rules are the outboxes' (outbox_lease.go):
// a pending row is claimable once due, and is written only under its holder's live lease.
var notificationOutbox = outbox{coll: notificationCollection, key: "notification:"}

func notificationRef(d *notificationDoc) docRef {
	e := d.entry()
	return notificationOutbox.ref(&e)
}

// notificationDocs encodes the rows a change causes (Create: before nil; Mutate: the task as
// loaded) for the aggregate's pending_notifications.
func notificationDocs(before *models.Task, c *models.Change, now time.Time) []notificationDoc {
	ns := storekit.NotificationsFor(before, c, now)
	out := make([]notificationDoc, 0, len(ns))
	for i := range ns {
		out = append(out, notificationDoc{NotificationRow: docCodec.NotificationRow(&ns[i], now)})
	}
	return out
}

// insertNotifications inserts docs, skipping each whose id or key is taken, and returns how
// many it wrote. One unordered insertMany: the server goes on past a duplicate and names each
// one, so a batch of a group's members costs one round trip.
func (s *Store) insertNotifications(ctx context.Context, docs []notificationDoc) (int, error) {
	if len(docs) == 0 {
		return 0, nil
	}
	batch := make([]any, len(docs))
	for i := range docs {
		batch[i] = &docs[i]
	}
	_, err := s.db.Collection(notificationCollection).InsertMany(ctx, batch, options.InsertMany().SetOrdered(false))
	if err == nil {
		return len(docs), nil
	}
	var bulk mongo.BulkWriteException
	if !errors.As(err, &bulk) || bulk.WriteConcernError != nil || len(bulk.WriteErrors) == 0 {
		return 0, translate(err)
	}
	for _, we := range bulk.WriteErrors {
		if !mongo.IsDuplicateKeyError(we) {
			return 0, translate(err)
		}
	}
	return len(docs) - len(bulk.WriteErrors), nil
}
