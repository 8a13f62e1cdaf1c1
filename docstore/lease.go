package docstore

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/models"
	"usertasks/storekit"
)

// Named singleton leases (reconciliation, due sweep) as documents of user_task_leases, _id the
// lease's name, fenced as on SQL by a fresh token and a generation raised by every take-over.
// Every node contends for the same document, so each write is a claimed write (doc_claim.go):
// FerretDB's update does not check its filter again when it writes, and two nodes taking an
// expired lease at once would otherwise both succeed.

const leaseCollection = "user_task_leases"

type leaseDoc struct {
	storekit.LeaseRow `bson:",inline"`
	Version           int64 `bson:"version"`
}

func leaseRef(name string) docRef {
	return docRef{coll: leaseCollection, id: name, key: "lease:" + name}
}

// readLease reads the named lease; models.ErrNotFound when it was never taken.
func (s *Store) readLease(ctx context.Context, name string) (*leaseDoc, error) {
	var d leaseDoc
	if err := s.db.Collection(leaseCollection).FindOne(ctx, bson.D{{Key: "_id", Value: name}}).Decode(&d); err != nil {
		return nil, translate(err)
	}
	return &d, nil
}

// AcquireLease takes the named lease for ttl when it is free or expired by the database clock.
// Held by another live owner: models.ErrLeaseLost.
func (s *Store) AcquireLease(ctx context.Context, name, owner string, ttl time.Duration) (models.Lease, error) {
	var lease models.Lease
	err := retryClaimed(ctx, func() error {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		d, err := s.readLease(ctx, name)
		taken := err == nil
		if !taken && !errors.Is(err, models.ErrNotFound) {
			return err
		}
		var cur *storekit.LeaseRow
		if taken {
			cur = &d.LeaseRow
		}
		if lease, err = s.codec().NextLease(cur, owner, now, ttl); err != nil {
			return err
		}
		if !taken {
			_, err := s.db.Collection(leaseCollection).InsertOne(ctx, leaseDoc{LeaseRow: s.codec().LeaseRow(name, lease, now)})
			if mongo.IsDuplicateKeyError(err) {
				return errClaimLost // created concurrently: read it and decide again
			}
			return translate(err)
		}
		return s.claimedSet(ctx, leaseRef(name), d.Version, bson.D{{Key: "lease_owner", Value: owner},
			{Key: "lease_token", Value: lease.Token}, {Key: "lease_generation", Value: lease.Generation},
			{Key: "lease_expires_at", Value: lease.ExpiresAt}, {Key: "updated_at", Value: now}}, now)
	})
	if err != nil {
		return models.Lease{}, err
	}
	return lease, nil
}

// RenewLease extends a live lease by ttl from now; a lost or expired lease is models.ErrLeaseLost.
func (s *Store) RenewLease(ctx context.Context, name string, l models.Lease, ttl time.Duration) (models.Lease, error) {
	err := s.fencedLeaseWrite(ctx, name, l, true, func(now time.Time) bson.D {
		l.ExpiresAt = now.Add(ttl)
		return bson.D{{Key: "lease_expires_at", Value: l.ExpiresAt}, {Key: "updated_at", Value: now}}
	})
	return l, err
}

// ReleaseLease gives a lease up at once so another node can take it.
func (s *Store) ReleaseLease(ctx context.Context, name string, l models.Lease) error {
	return s.fencedLeaseWrite(ctx, name, l, false, func(now time.Time) bson.D {
		return bson.D{{Key: "lease_expires_at", Value: now}, {Key: "updated_at", Value: now}}
	})
}

// fencedLeaseWrite writes the named lease while it is still l (its token and generation, and
// live when live is set), under a claimed write; otherwise models.ErrLeaseLost.
func (s *Store) fencedLeaseWrite(ctx context.Context, name string, l models.Lease, live bool, set func(now time.Time) bson.D) error {
	return retryClaimed(ctx, func() error {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		d, err := s.readLease(ctx, name)
		if errors.Is(err, models.ErrNotFound) {
			return models.ErrLeaseLost
		}
		if err != nil {
			return err
		}
		if d.LeaseToken != l.Token || d.LeaseGeneration != l.Generation || (live && !utc(d.LeaseExpiresAt).After(now)) {
			return models.ErrLeaseLost
		}
		return s.claimedSet(ctx, leaseRef(name), d.Version, set(now), now)
	})
}
