package docstore

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/models"
	"usertasks/storekit"
)

// The delivery worker's side of user_task_notifications, under the lease rules of the outboxes
// (outbox_lease.go): a pending row is leased with a fresh token and the next generation, and
// written only under its holder's exact live lease, every write a claimed write (doc_claim.go),
// so two nodes never both lease one row on FerretDB either.

// AddNotifications writes rows a worker decided (due-soon), skipping each whose key exists,
// and returns how many it wrote: pending, channels undecided, due and changed at the
// database's time.
func (s *Store) AddNotifications(ctx context.Context, ns []models.Notification) (int, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	return s.insertNotifications(ctx, newNotificationDocs(ns, now))
}

// newNotificationDocs encodes ns as new rows at now; a row without an id gets one, a row
// without an occurrence time occurred now.
func newNotificationDocs(ns []models.Notification, now time.Time) []notificationDoc {
	docs := make([]notificationDoc, 0, len(ns))
	for _, n := range ns {
		if n.ID == "" {
			n.ID = models.NewID()
		}
		if n.OccurredAt.IsZero() {
			n.OccurredAt = now
		}
		docs = append(docs, notificationDoc{NotificationRow: docCodec.NotificationRow(&n, now)})
	}
	return docs
}

// ClaimNotifications leases up to limit pending rows whose AvailableAt has passed and whose
// lease is free or expired, of every tenant, oldest first (index ix_notifications_due). A row
// another node leases at the same moment is left to it and the next due ones are read (SQL's
// SKIP LOCKED), a few rounds at most. A row still queued in its aggregate is not claimable
// until the relay moves it, which the change's own write does right after it commits.
func (s *Store) ClaimNotifications(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Notification, error) {
	if limit <= 0 {
		return nil, nil
	}
	out, err := claimInRounds(ctx, limit, func(n int, out *[]models.Notification) (int, error) {
		return claimDue(ctx, s, notificationOutbox, owner, n, leaseFor, func(d *notificationDoc, lease models.Lease, now time.Time) error {
			setLease(&d.NotificationRow, &lease)
			d.UpdatedAt = now
			*out = append(*out, docCodec.Notification(&d.NotificationRow))
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b models.Notification) int {
		return cmp.Or(a.AvailableAt.Compare(b.AvailableAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

func setLease(r *storekit.NotificationRow, l *models.Lease) {
	r.LeaseOwner, r.LeaseToken, r.LeaseGeneration, r.LeaseExpiresAt = &l.Owner, &l.Token, l.Generation, &l.ExpiresAt
}

// SettleNotification writes the delivery worker's outcome for a leased row and frees the
// lease; a stale lease fails with models.ErrLeaseLost and writes nothing. A pending outcome
// counts an attempt and makes the row due again after out.RetryAfter; Visible shows the row in
// the recipient's list from now on, an earlier VisibleAt kept.
func (s *Store) SettleNotification(ctx context.Context, n models.Notification, out models.NotificationOutcome) error {
	return s.fencedNotification(ctx, n.ID, n.Lease, models.NotificationPending, func(d *notificationDoc, now time.Time) bson.D {
		set := append(leaseFields(nil), bson.E{Key: "state", Value: string(out.State)},
			bson.E{Key: "email_state", Value: storekit.Opt(string(out.Email))},
			bson.E{Key: "webhook_state", Value: storekit.Opt(string(out.Webhook))},
			bson.E{Key: "last_error", Value: storekit.NotificationErrorCode(out.ErrorCode)},
			bson.E{Key: "updated_at", Value: now})
		if out.State == models.NotificationPending {
			set = append(set, bson.E{Key: "attempts", Value: d.Attempts + 1},
				bson.E{Key: "available_at", Value: utc(now.Add(out.RetryAfter))})
		}
		if out.Visible && d.VisibleAt == nil {
			set = append(set, bson.E{Key: "visible_at", Value: now})
		}
		return set
	})
}

// ExpandNotification replaces a leased group row by its members' rows: it writes members (keys
// already taken skipped), then marks the group row done under its lease, and returns how many
// member rows it wrote. A stale lease writes nothing and fails with models.ErrLeaseLost.
//
// Without a transaction the two are separate writes, in this order: a crash between them, or a
// lease lost between its check and the group row's write, leaves the members written and the
// group row pending; its lease expires, a worker expands it again and finds the members' keys
// taken. So no member is lost or notified twice; only the count of that later pass is 0.
func (s *Store) ExpandNotification(ctx context.Context, group models.Notification, members []models.Notification) (int, error) {
	_, now, err := s.leasedNotification(ctx, group.ID, group.Lease, models.NotificationPending)
	if err != nil {
		return 0, err
	}
	n, err := s.insertNotifications(ctx, newNotificationDocs(members, now))
	if err != nil {
		return n, err
	}
	err = s.fencedNotification(ctx, group.ID, group.Lease, models.NotificationPending, func(_ *notificationDoc, now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.NotificationDone)},
			bson.E{Key: "email_state", Value: string(models.ChannelOff)}, bson.E{Key: "webhook_state", Value: string(models.ChannelOff)},
			bson.E{Key: "updated_at", Value: now})
	})
	return n, err
}

// leasedNotification reads row id and checks that it is in state under exactly lease, still
// live at the database's time (returned with it); otherwise models.ErrLeaseLost.
func (s *Store) leasedNotification(ctx context.Context, id string, lease *models.Lease, state models.NotificationState) (*notificationDoc, time.Time, error) {
	if lease == nil {
		return nil, time.Time{}, models.ErrLeaseLost
	}
	now, err := s.Now(ctx)
	if err != nil {
		return nil, now, err
	}
	var d notificationDoc
	err = s.db.Collection(notificationCollection).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, now, models.ErrLeaseLost
	}
	if err != nil {
		return nil, now, translate(err)
	}
	if !holds(&d, lease, state, now) {
		return nil, now, models.ErrLeaseLost
	}
	return &d, now, nil
}

// holds reports whether d is in state under exactly lease, live at now.
func holds(d *notificationDoc, lease *models.Lease, state models.NotificationState, now time.Time) bool {
	return d.State == string(state) && d.LeaseToken != nil && *d.LeaseToken == lease.Token &&
		d.LeaseGeneration == lease.Generation && d.LeaseExpiresAt != nil && d.LeaseExpiresAt.After(now)
}

// fencedNotification writes set to row id while it is in state under exactly lease, still
// live, with a claimed write; otherwise models.ErrLeaseLost. set sees the row as read.
func (s *Store) fencedNotification(ctx context.Context, id string, lease *models.Lease, state models.NotificationState,
	set func(d *notificationDoc, now time.Time) bson.D) error {
	return retryClaimed(ctx, func() error {
		d, now, err := s.leasedNotification(ctx, id, lease, state)
		if err != nil {
			return err
		}
		return s.claimedSet(ctx, notificationRef(d), d.Version, set(d, now), now)
	})
}
