package docstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
)

// The delivery outbox's worker side on user_task_deliveries, as the resumption outbox's
// (resumption_claims.go): due pending deliveries whose lease is absent or expired by the
// database clock get a lease with a fresh token and the next lease_generation, the holder may
// acknowledge or reschedule only while its exact lease is live, and every write of a delivery
// (a lease, an acknowledgement, a settle by a revocation or verification, an expiry) is a
// claimed write, so two nodes never both lease one delivery on FerretDB either. The payload is
// opened for a dispatch attempt only.

func deliveryRef(d *deliveryDoc) docRef {
	return docRef{coll: deliveryCollection, id: d.ID, tenant: d.TenantID, key: "delivery:" + d.ID}
}

// NotifyDeliveries makes the store call fn after each commit that queued an invitation
// delivery (IssueInvitation), as repository.Store.NotifyDeliveries. nil stops it. fn must not
// block.
func (s *Store) NotifyDeliveries(fn func()) { s.issued.Set(fn) }

// deliveryQueued calls the NotifyDeliveries hook, if any. Call it only after the commit.
func (s *Store) deliveryQueued() { s.issued.Call() }

// insertDeliveryOnce inserts a queued delivery. A duplicate key is an earlier pass's insert only
// when the stored delivery is this one; another with the same idempotency key is an error that
// keeps the entry queued.
func (s *Store) insertDeliveryOnce(ctx context.Context, d deliveryDoc) error {
	_, err := s.db.Collection(deliveryCollection).InsertOne(ctx, d)
	if !mongo.IsDuplicateKeyError(err) {
		return translate(err)
	}
	var stored deliveryDoc
	err = s.db.Collection(deliveryCollection).FindOne(ctx, bson.D{{Key: "_id", Value: d.ID}}).Decode(&stored)
	if err == nil && stored.TenantID == d.TenantID && stored.TaskID == d.TaskID {
		return nil
	}
	return fmt.Errorf("docstore: a queued delivery's id or idempotency key belongs to another delivery (task %s)", d.TaskID)
}

// ClaimDeliveries leases up to limit due deliveries, of every tenant, to owner (index
// ix_deliveries_due) and opens their payloads for this dispatch attempt. A delivery another
// node claims at the same moment is left to it and the next due ones are read (SQL's SKIP
// LOCKED), a few rounds at most.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Delivery, error) {
	out, err := claimInRounds(ctx, limit, func(n int, out *[]models.Delivery) (int, error) {
		return s.claimDueDeliveries(ctx, owner, n, leaseFor, out)
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b models.Delivery) int {
		return cmp.Or(a.AvailableAt.Compare(b.AvailableAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

func (s *Store) claimDueDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration, out *[]models.Delivery) (int, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	var due []deliveryDoc
	if err := s.findAll(ctx, deliveryCollection, dueUnleased(now), dueOrder(limit), &due); err != nil {
		return 0, err
	}
	lost := 0
	for i := range due {
		d := &due[i]
		lease := models.Lease{Owner: owner, Token: models.NewID(), Generation: d.LeaseGeneration + 1, ExpiresAt: now.Add(leaseFor)}
		set := append(leaseFields(&lease), bson.E{Key: "updated_at", Value: now})
		err := s.claimedSet(ctx, deliveryRef(d), d.Version, set, now)
		if errors.Is(err, errClaimLost) {
			lost++ // another node wrote it since the read: its lease, a settle or an expiry
			continue
		}
		if err != nil {
			return lost, err
		}
		d.LeaseOwner, d.LeaseToken, d.LeaseGeneration, d.LeaseExpiresAt = &lease.Owner, &lease.Token, lease.Generation, &lease.ExpiresAt
		d.UpdatedAt = now
		got, err := s.codec().Delivery(&d.DeliveryRow, true)
		if err != nil {
			return lost, err
		}
		*out = append(*out, got)
	}
	return lost, nil
}

// AckDelivery marks a claimed delivery delivered, then its invitation dispatched (if still
// pending). A stale lease fails with models.ErrLeaseLost. The two are separate writes: a crash
// between them leaves the invitation pending, which verification, revocation and expiry treat
// exactly as dispatched.
func (s *Store) AckDelivery(ctx context.Context, d models.Delivery) error {
	err := s.fencedDeliveryWrite(ctx, d, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliveryDelivered)},
			bson.E{Key: "attempts", Value: d.Attempts + 1}, bson.E{Key: "updated_at", Value: now})
	})
	if err != nil {
		return err
	}
	return retryClaimed(ctx, func() error {
		var inv invitationDoc
		err := s.db.Collection(invitationCollection).FindOne(ctx, bson.D{{Key: "_id", Value: d.InvitationID},
			{Key: "tenant_id", Value: d.Tenant}}).Decode(&inv)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return nil
		}
		if err != nil || inv.Status != string(models.InvitationPending) {
			return translate(err)
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		return s.claimedSet(ctx, invitationRef(&inv), inv.Version, bson.D{
			{Key: "status", Value: string(models.InvitationDispatched)}, {Key: "dispatched_at", Value: now},
			{Key: "updated_at", Value: now}}, now)
	})
}

// RetryDelivery records a failed attempt: due again after delay, or abandoned when abandon is
// set. A stale lease fails with models.ErrLeaseLost.
func (s *Store) RetryDelivery(ctx context.Context, d models.Delivery, delay time.Duration, errCode string, abandon bool) (int, error) {
	attempts := d.Attempts + 1
	state := models.DeliveryPending
	if abandon {
		state = models.DeliveryAbandoned
	}
	err := s.fencedDeliveryWrite(ctx, d, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(state)}, bson.E{Key: "attempts", Value: attempts},
			bson.E{Key: "available_at", Value: now.Add(delay)}, bson.E{Key: "last_error", Value: opt(errCode)},
			bson.E{Key: "updated_at", Value: now})
	})
	return attempts, err
}

// fencedDeliveryWrite writes d's delivery while it is pending under d's exact, live lease, under
// a claimed write; otherwise models.ErrLeaseLost.
func (s *Store) fencedDeliveryWrite(ctx context.Context, d models.Delivery, set func(now time.Time) bson.D) error {
	if d.Lease == nil {
		return models.ErrLeaseLost
	}
	return retryClaimed(ctx, func() error {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		var row deliveryDoc
		err = s.db.Collection(deliveryCollection).FindOne(ctx, bson.D{{Key: "_id", Value: d.ID}}).Decode(&row)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return models.ErrLeaseLost
		}
		if err != nil {
			return translate(err)
		}
		if row.State != string(models.DeliveryPending) || row.LeaseToken == nil || *row.LeaseToken != d.Lease.Token ||
			row.LeaseGeneration != d.Lease.Generation || row.LeaseExpiresAt == nil || !row.LeaseExpiresAt.After(now) {
			return models.ErrLeaseLost
		}
		return s.claimedSet(ctx, deliveryRef(&row), row.Version, set(now), now)
	})
}

// settleDeliveries ends the pending deliveries of an invitation that was revoked or verified:
// no link goes out any more, and a dispatcher still holding one loses its lease.
func (s *Store) settleDeliveries(ctx context.Context, tenant, invitationID string) error {
	return s.moveDeliveries(ctx, tenant, invitationID, nil, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliverySettled)}, bson.E{Key: "updated_at", Value: now})
	})
}

// moveDeliveries writes set to each pending delivery of the invitation that keep accepts (all
// when nil), each under a claimed write; one another writer changed meanwhile is read and judged
// again. Idempotent: the deliveries written are no longer pending.
func (s *Store) moveDeliveries(ctx context.Context, tenant, invitationID string, keep func(d *deliveryDoc, now time.Time) bool, set func(now time.Time) bson.D) error {
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "invitation_id", Value: invitationID},
		{Key: "state", Value: string(models.DeliveryPending)}}
	return retryClaimed(ctx, func() error {
		var rows []deliveryDoc
		if err := s.findAll(ctx, deliveryCollection, filter, options.Find(), &rows); err != nil {
			return err
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		lost := false
		for i := range rows {
			if keep != nil && !keep(&rows[i], now) {
				continue
			}
			err := s.claimedSet(ctx, deliveryRef(&rows[i]), rows[i].Version, set(now), now)
			if errors.Is(err, errClaimLost) {
				lost = true
				continue
			}
			if err != nil {
				return err
			}
		}
		if lost {
			return errClaimLost
		}
		return nil
	})
}
