package docstore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
)

// A recipient's in-app list (index ix_notifications_inbox: tenant, recipient, occurred_at, _id):
// the rows shown to them (visible_at set), newest first. A group row is never shown, and a
// dropped row never became visible.

// inbox selects the rows shown to recipient in tenant.
func inbox(tenant string, recipient models.ParticipantRef) bson.D {
	return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "recipient_provider", Value: recipient.Provider},
		{Key: "recipient_type", Value: string(recipient.Type)}, {Key: "recipient_id", Value: recipient.ID},
		{Key: "visible_at", Value: bson.D{{Key: "$ne", Value: nil}}}}
}

// unread narrows a filter to the rows not read yet.
func unread(f bson.D) bson.D {
	return append(f[:len(f):len(f)], bson.E{Key: "read_at", Value: nil})
}

// Notifications is a page of one recipient's in-app list, newest first (then by id, descending),
// after q.After, with their unread count.
func (s *Store) Notifications(ctx context.Context, q models.NotificationQuery) (models.NotificationPage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = models.DefaultPageSize
	}
	limit = min(limit, models.MaxPageSize)
	f := inbox(q.Tenant, q.Recipient)
	if q.UnreadOnly {
		f = unread(f)
	}
	if c := q.After; c != nil {
		at := utc(c.OccurredAt)
		f = append(f, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "occurred_at", Value: bson.D{{Key: "$lt", Value: at}}}},
			bson.D{{Key: "occurred_at", Value: at}, {Key: "_id", Value: bson.D{{Key: "$lt", Value: c.ID}}}},
		}})
	}
	var docs []notificationDoc
	opts := options.Find().SetSort(bson.D{{Key: "occurred_at", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(int64(limit + 1))
	if err := s.findAll(ctx, notificationCollection, f, opts, &docs); err != nil {
		return models.NotificationPage{}, err
	}
	var page models.NotificationPage
	for i := range docs {
		if i == limit {
			last := page.Items[limit-1]
			page.Next = &models.NotificationCursor{OccurredAt: last.OccurredAt, ID: last.ID}
			break
		}
		page.Items = append(page.Items, docCodec.Notification(&docs[i].NotificationRow))
	}
	n, err := s.db.Collection(notificationCollection).CountDocuments(ctx, unread(inbox(q.Tenant, q.Recipient)))
	page.Unread = int(n)
	return page, translate(err)
}

// UnreadNotifications counts the recipient's shown, unread rows, at most limit of them.
func (s *Store) UnreadNotifications(ctx context.Context, tenant string, recipient models.ParticipantRef, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	n, err := s.db.Collection(notificationCollection).CountDocuments(ctx, unread(inbox(tenant, recipient)),
		options.Count().SetLimit(int64(limit)))
	return int(n), translate(err)
}

// MarkNotificationsRead marks the recipient's shown, unread rows read, the ids given (others'
// and unknown ids are ignored: the filter names the recipient) or all of them, and returns how
// many changed. A row no worker writes any more (settled, no digest waiting) is updated in
// place; a row a worker may still write (pending, or its email waiting for the digest) gets a
// claimed write like the worker's, so neither undoes the other on FerretDB (whose update writes
// back the whole document it read).
func (s *Store) MarkNotificationsRead(ctx context.Context, tenant string, recipient models.ParticipantRef, ids []string, all bool) (int, error) {
	if !all && len(ids) == 0 {
		return 0, nil
	}
	f := unread(inbox(tenant, recipient))
	if !all {
		f = append(f, idIn(ids))
	}
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	// The rows a worker may still write first, then the settled ones: a row a worker settles
	// in between is settled by then, so the second step finds it.
	busy := append(f[:len(f):len(f)], bson.E{Key: "$or", Value: bson.A{
		bson.D{{Key: "state", Value: string(models.NotificationPending)}},
		bson.D{{Key: "email_state", Value: string(models.ChannelDigest)}},
	}})
	n := 0
	read := bson.D{{Key: "read_at", Value: now}, {Key: "updated_at", Value: now}}
	err = retryClaimed(ctx, func() error {
		var docs []notificationDoc
		if err := s.findAll(ctx, notificationCollection, busy, options.Find(), &docs); err != nil {
			return err
		}
		lost := false
		for i := range docs {
			err := s.claimedSet(ctx, notificationRef(&docs[i]), docs[i].Version, read, now)
			switch {
			case err == nil:
				n++
			case errors.Is(err, errClaimLost):
				lost = true
			default:
				return err
			}
		}
		if lost {
			return errClaimLost
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	settled := append(f[:len(f):len(f)], bson.E{Key: "state", Value: bson.D{{Key: "$ne", Value: string(models.NotificationPending)}}},
		bson.E{Key: "email_state", Value: bson.D{{Key: "$ne", Value: string(models.ChannelDigest)}}})
	res, err := s.db.Collection(notificationCollection).UpdateMany(ctx, settled, bson.D{{Key: "$set", Value: read}})
	if err != nil {
		return n, translate(err)
	}
	n += int(res.ModifiedCount)
	return n, err
}
