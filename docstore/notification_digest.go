package docstore

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/store"
)

// The digest worker's side (index ix_notifications_digest: email_state, tenant, recipient,
// occurred_at): settled rows whose email waits for the recipient's digest are leased per
// recipient, sent as one mail, then marked digested. The leases are the outboxes' (a fresh
// token, the next generation, every write claimed) on rows that are already done.

// digestWaiting selects the rows whose email waits for a digest.
var digestWaiting = bson.E{Key: "email_state", Value: string(models.ChannelDigest)}

// DigestsWaiting lists up to limit recipients with emails waiting for their digest, each with
// the time of its oldest waiting row, oldest first (then by tenant and recipient).
func (s *Store) DigestsWaiting(ctx context.Context, limit int) ([]store.DigestWaiting, error) {
	if limit <= 0 {
		return nil, nil
	}
	pipeline := bson.A{
		bson.D{{Key: "$match", Value: bson.D{digestWaiting}}},
		bson.D{{Key: "$group", Value: bson.D{
			{Key: "_id", Value: bson.D{{Key: "tenant", Value: "$tenant_id"}, {Key: "provider", Value: "$recipient_provider"},
				{Key: "type", Value: "$recipient_type"}, {Key: "id", Value: "$recipient_id"}}},
			{Key: "oldest", Value: bson.D{{Key: "$min", Value: "$occurred_at"}}},
		}}},
		bson.D{{Key: "$sort", Value: bson.D{{Key: "oldest", Value: 1}, {Key: "_id.tenant", Value: 1}, {Key: "_id.provider", Value: 1},
			{Key: "_id.type", Value: 1}, {Key: "_id.id", Value: 1}}}},
		bson.D{{Key: "$limit", Value: limit}},
	}
	cur, err := s.db.Collection(notificationCollection).Aggregate(ctx, pipeline)
	if err != nil {
		return nil, translate(err)
	}
	var groups []struct {
		Key struct {
			Tenant   string `bson:"tenant"`
			Provider string `bson:"provider"`
			Type     string `bson:"type"`
			ID       string `bson:"id"`
		} `bson:"_id"`
		Oldest time.Time `bson:"oldest"`
	}
	if err := cur.All(ctx, &groups); err != nil {
		return nil, translate(err)
	}
	out := make([]store.DigestWaiting, 0, len(groups))
	for _, g := range groups {
		out = append(out, store.DigestWaiting{Tenant: g.Key.Tenant, Oldest: utc(g.Oldest),
			Recipient: models.ParticipantRef{Tenant: g.Key.Tenant, Provider: g.Key.Provider, Type: models.ParticipantType(g.Key.Type), ID: g.Key.ID}})
	}
	// In the documented order whatever order the server sorted ties in.
	slices.SortStableFunc(out, func(a, b store.DigestWaiting) int {
		return cmp.Or(a.Oldest.Compare(b.Oldest), cmp.Compare(a.Tenant, b.Tenant), cmp.Compare(a.Recipient.Provider, b.Recipient.Provider),
			cmp.Compare(a.Recipient.Type, b.Recipient.Type), cmp.Compare(a.Recipient.ID, b.Recipient.ID))
	})
	return out, nil
}

// ClaimDigest leases up to limit of w's rows waiting for the digest that occurred before
// before, oldest first, whose lease is free or expired. A row another node leases at the same
// moment is left to it and the next ones are read, a few rounds at most.
func (s *Store) ClaimDigest(ctx context.Context, owner string, w store.DigestWaiting, before time.Time, limit int, leaseFor time.Duration) ([]models.Notification, error) {
	if limit <= 0 {
		return nil, nil
	}
	out, err := claimInRounds(ctx, limit, func(n int, out *[]models.Notification) (int, error) {
		now, err := s.Now(ctx)
		if err != nil {
			return 0, err
		}
		f := bson.D{digestWaiting, {Key: "tenant_id", Value: w.Tenant}, {Key: "recipient_provider", Value: w.Recipient.Provider},
			{Key: "recipient_type", Value: string(w.Recipient.Type)}, {Key: "recipient_id", Value: w.Recipient.ID},
			{Key: "occurred_at", Value: bson.D{{Key: "$lt", Value: utc(before)}}},
			{Key: "$or", Value: bson.A{bson.D{{Key: "lease_expires_at", Value: nil}},
				bson.D{{Key: "lease_expires_at", Value: bson.D{{Key: "$lte", Value: now}}}}}}}
		var docs []notificationDoc
		opts := options.Find().SetSort(bson.D{{Key: "occurred_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(n))
		if err := s.findAll(ctx, notificationCollection, f, opts, &docs); err != nil {
			return 0, err
		}
		lost := 0
		for i := range docs {
			d := &docs[i]
			lease := models.Lease{Owner: owner, Token: models.NewID(), Generation: d.LeaseGeneration + 1, ExpiresAt: now.Add(leaseFor)}
			err := s.claimedSet(ctx, notificationRef(d), d.Version, append(leaseFields(&lease), bson.E{Key: "updated_at", Value: now}), now)
			if errors.Is(err, errClaimLost) {
				lost++
				continue
			}
			if err != nil {
				return lost, err
			}
			setLease(&d.NotificationRow, &lease)
			d.UpdatedAt = now
			*out = append(*out, docCodec.Notification(&d.NotificationRow))
		}
		return lost, nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b models.Notification) int {
		return cmp.Or(a.OccurredAt.Compare(b.OccurredAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// SettleDigest marks leased digest rows as sent in a digest (email digested) and frees them.
// Every lease is checked before anything is written, so a row whose lease went stale fails the
// whole call with models.ErrLeaseLost and writes nothing. Without a transaction, a lease that
// goes stale between that check and its row's write (or a crash half-way) leaves the rest
// waiting: they go out again in the next digest, the only duplicate this store can give, and
// only after the lease expired while the worker was still settling.
func (s *Store) SettleDigest(ctx context.Context, ns []models.Notification) error {
	for _, n := range ns {
		if _, _, err := s.leasedNotification(ctx, n.ID, n.Lease, models.NotificationDone); err != nil {
			return err
		}
	}
	for _, n := range ns {
		err := s.fencedNotification(ctx, n.ID, n.Lease, models.NotificationDone, func(_ *notificationDoc, now time.Time) bson.D {
			return append(leaseFields(nil), bson.E{Key: "email_state", Value: string(models.ChannelDigested)},
				bson.E{Key: "updated_at", Value: now})
		})
		if err != nil {
			return err
		}
	}
	return nil
}
