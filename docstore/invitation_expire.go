package docstore

import (
	"context"
	"errors"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// ExpireInvitations marks up to limit pending or dispatched invitations whose expiry has passed
// (database clock) expired, and abandons their unsent deliveries (not one leased to a
// dispatcher at this moment: its holder drops it itself), as repository.Store.ExpireInvitations.
// It answers how many invitations each tenant had expired by this sweep.
//
// Per invitation, without a transaction: first its unsent deliveries are abandoned, then the
// invitation is expired, each with claimed writes that check again what they read. A crash in
// between leaves an invitation past its expiry still pending, which no verification accepts and
// the next sweep finds and finishes; the other order could leave an expired invitation whose
// link a dispatcher still sends. A verification cannot come in between: it refuses an
// invitation past its expiry by the same clock.
func (s *Store) ExpireInvitations(ctx context.Context, limit int) (map[string]int, error) {
	if limit <= 0 {
		limit = 200
	}
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	filter := bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: verifiable}}},
		{Key: "expires_at", Value: bson.D{{Key: "$lte", Value: now}}}}
	// ix_invitations_expiry (status, expires_at) serves this.
	opts := options.Find().SetSort(bson.D{{Key: "expires_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit))
	var due []invitationDoc
	if err := s.findAll(ctx, invitationCollection, filter, opts, &due); err != nil {
		return nil, err
	}
	out := map[string]int{}
	for i := range due {
		expired, err := s.expireInvitation(ctx, &due[i])
		if err != nil {
			return out, err
		}
		if expired {
			out[due[i].TenantID]++
		}
	}
	return out, nil
}

// expireInvitation abandons the unsent deliveries of d, then expires it if it is still live and
// past its expiry when read again; it reports whether this call expired it.
func (s *Store) expireInvitation(ctx context.Context, d *invitationDoc) (bool, error) {
	unleased := func(dl *outboxEntry, now time.Time) bool {
		return dl.LeaseExpiresAt == nil || !dl.LeaseExpiresAt.After(now)
	}
	err := s.moveDeliveries(ctx, d.TenantID, d.ID, unleased, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliveryAbandoned)},
			bson.E{Key: "last_error", Value: storekit.ExpiredDeliveryCode}, bson.E{Key: "updated_at", Value: now})
	})
	if err != nil {
		return false, err
	}
	expired := false
	err = retryClaimed(ctx, func() error {
		expired = false
		var cur invitationDoc
		err := s.db.Collection(invitationCollection).FindOne(ctx, bson.D{{Key: "_id", Value: d.ID}}).Decode(&cur)
		if err != nil {
			return translate(err)
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		if !slices.Contains(verifiable, cur.Status) || cur.ExpiresAt.After(now) {
			return nil
		}
		err = s.claimedSet(ctx, invitationRef(&cur), cur.Version, bson.D{
			{Key: "status", Value: string(models.InvitationExpired)}, {Key: "updated_at", Value: now}}, now)
		expired = err == nil
		return err
	})
	if errors.Is(err, models.ErrNotFound) {
		return false, nil // purged meanwhile
	}
	return expired, err
}
