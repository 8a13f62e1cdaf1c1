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

	"usertasks/models"
	"usertasks/storekit"
)

// The delivery outbox's worker side on user_task_deliveries, under the lease rules both
// outboxes share (outbox_lease.go): every write of a delivery (a lease, an acknowledgement, a
// settle by a revocation or verification, an expiry) is a claimed write, so two nodes never both
// lease one delivery on FerretDB either. The payload is opened for a dispatch attempt only.

func (d *deliveryDoc) entry() outboxEntry {
	return outboxEntry{ID: d.ID, TenantID: d.TenantID, State: d.State, LeaseColumns: d.LeaseColumns, Version: d.Version}
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
	var stored deliveryDoc
	dup, err := s.insertOrRead(ctx, deliveryCollection, d.ID, d, &stored)
	if !dup {
		return err
	}
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

// claimDueDeliveries reads up to limit due deliveries and leases each to owner, appending the
// leased ones, their payloads opened, to out; it reports how many it lost to other writers.
func (s *Store) claimDueDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration, out *[]models.Delivery) (int, error) {
	return claimDue(ctx, s, deliveryOutbox, owner, limit, leaseFor, func(d *deliveryDoc, lease models.Lease, now time.Time) error {
		d.LeaseOwner, d.LeaseToken, d.LeaseGeneration, d.LeaseExpiresAt = &lease.Owner, &lease.Token, lease.Generation, &lease.ExpiresAt
		d.UpdatedAt = now
		got, err := s.codec().Delivery(&d.DeliveryRow, true)
		if err != nil {
			return err
		}
		*out = append(*out, got)
		return nil
	})
}

// AckDelivery marks a claimed delivery delivered, then its invitation dispatched (if still
// pending). A stale lease fails with models.ErrLeaseLost. The two are separate writes: a crash
// between them leaves the invitation pending, which verification, revocation and expiry treat
// exactly as dispatched.
func (s *Store) AckDelivery(ctx context.Context, d models.Delivery) error {
	err := s.fencedWrite(ctx, deliveryOutbox, d.ID, d.Lease, func(now time.Time) bson.D {
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
	err := s.fencedWrite(ctx, deliveryOutbox, d.ID, d.Lease, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(state)}, bson.E{Key: "attempts", Value: attempts},
			bson.E{Key: "available_at", Value: now.Add(delay)}, bson.E{Key: "last_error", Value: storekit.Opt(errCode)},
			bson.E{Key: "updated_at", Value: now})
	})
	return attempts, err
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
func (s *Store) moveDeliveries(ctx context.Context, tenant, invitationID string, keep func(e *outboxEntry, now time.Time) bool, set func(now time.Time) bson.D) error {
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "invitation_id", Value: invitationID},
		{Key: "state", Value: string(models.DeliveryPending)}}
	return s.setEach(ctx, deliveryOutbox, filter, keep, set)
}
