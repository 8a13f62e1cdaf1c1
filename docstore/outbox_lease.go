package docstore

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// The lease rules both outboxes share (resumptions, resumption_claims.go; deliveries,
// delivery_claims.go), as on SQL: due pending entries whose lease is absent or expired by the
// database clock get a lease with a fresh token and the next generation, the holder may write
// an entry only while its exact lease is live, and every write of an entry is a claimed write
// (doc_claim.go), so two nodes never both lease one entry on FerretDB either.

// outbox is one outbox collection and the key its entries' claims are filed under.
type outbox struct {
	coll string
	key  string
}

var (
	resumptionOutbox = outbox{coll: resumptionCollection, key: "resumption:"}
	deliveryOutbox   = outbox{coll: deliveryCollection, key: "delivery:"}
)

// outboxEntry is what the lease rules read of an entry: its state, its lease and the version of
// its claimed writes (absent, 0, until the first).
type outboxEntry struct {
	ID                    string `bson:"_id"`
	TenantID              string `bson:"tenant_id"`
	State                 string `bson:"state"`
	storekit.LeaseColumns `bson:",inline"`
	Version               int64 `bson:"version"`
}

// ref names e's document in o for its claims.
func (o outbox) ref(e *outboxEntry) docRef {
	return docRef{coll: o.coll, id: e.ID, tenant: e.TenantID, key: o.key + e.ID}
}

// entryDoc is a pointer to an outbox document as its claims read it.
type entryDoc[T any] interface {
	*T
	entry() outboxEntry
}

// leaseFields is the $set of a lease (nil: no lease).
func leaseFields(l *models.Lease) bson.D {
	if l == nil {
		return bson.D{{Key: "lease_owner", Value: nil}, {Key: "lease_token", Value: nil}, {Key: "lease_expires_at", Value: nil}}
	}
	return bson.D{{Key: "lease_owner", Value: l.Owner}, {Key: "lease_token", Value: l.Token},
		{Key: "lease_generation", Value: l.Generation}, {Key: "lease_expires_at", Value: l.ExpiresAt}}
}

// dueUnleased selects the pending outbox entries (resumptions, deliveries) due at now whose
// lease is absent or expired.
func dueUnleased(now time.Time) bson.D {
	return bson.D{{Key: "state", Value: string(models.DeliveryPending)},
		{Key: "available_at", Value: bson.D{{Key: "$lte", Value: now}}},
		{Key: "$or", Value: bson.A{bson.D{{Key: "lease_expires_at", Value: nil}},
			bson.D{{Key: "lease_expires_at", Value: bson.D{{Key: "$lte", Value: now}}}}}}}
}

// dueOrder reads the first limit due entries (the ix_*_due indexes' order).
func dueOrder(limit int) *options.FindOptionsBuilder {
	return options.Find().SetSort(bson.D{{Key: "available_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit))
}

// claimInRounds runs claim for what is still missing of limit until a round loses no entry to
// another node (SQL's SKIP LOCKED: the next due ones are read instead), 8 rounds at most. It
// returns what was leased, and the error that stopped it.
func claimInRounds[T any](ctx context.Context, limit int, claim func(n int, out *[]T) (lost int, err error)) ([]T, error) {
	var out []T
	var err error
	for round := 1; round <= 8 && len(out) < limit; round++ {
		var lost int
		if lost, err = claim(limit-len(out), &out); err != nil || lost == 0 {
			break
		}
		if err = backoff(ctx, round); err != nil {
			break
		}
	}
	return out, err
}

// claimDue reads up to limit due entries of o and leases each to owner for leaseFor under a
// claimed write, handing each leased document, as read, to leased with its new lease; it
// reports how many it lost to other writers (a lease, a settle or an expiry since the read).
func claimDue[T any, P entryDoc[T]](ctx context.Context, s *Store, o outbox, owner string, limit int, leaseFor time.Duration,
	leased func(doc *T, lease models.Lease, now time.Time) error) (int, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	var due []T
	if err := s.findAll(ctx, o.coll, dueUnleased(now), dueOrder(limit), &due); err != nil {
		return 0, err
	}
	lost := 0
	for i := range due {
		e := P(&due[i]).entry()
		lease := models.Lease{Owner: owner, Token: models.NewID(), Generation: e.LeaseGeneration + 1, ExpiresAt: now.Add(leaseFor)}
		set := append(leaseFields(&lease), bson.E{Key: "updated_at", Value: now})
		err := s.claimedSet(ctx, o.ref(&e), e.Version, set, now)
		if errors.Is(err, errClaimLost) {
			lost++
			continue
		}
		if err != nil {
			return lost, err
		}
		if err := leased(&due[i], lease, now); err != nil {
			return lost, err
		}
	}
	return lost, nil
}

// fencedWrite writes set to o's entry id while it is pending under exactly lease, still live,
// under a claimed write; otherwise models.ErrLeaseLost.
func (s *Store) fencedWrite(ctx context.Context, o outbox, id string, lease *models.Lease, set func(now time.Time) bson.D) error {
	if lease == nil {
		return models.ErrLeaseLost
	}
	return retryClaimed(ctx, func() error {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		var e outboxEntry
		err = s.db.Collection(o.coll).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&e)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return models.ErrLeaseLost
		}
		if err != nil {
			return translate(err)
		}
		if e.State != string(models.DeliveryPending) || e.LeaseToken == nil || *e.LeaseToken != lease.Token ||
			e.LeaseGeneration != lease.Generation || e.LeaseExpiresAt == nil || !e.LeaseExpiresAt.After(now) {
			return models.ErrLeaseLost
		}
		return s.claimedSet(ctx, o.ref(&e), e.Version, set(now), now)
	})
}

// setEach writes set to each entry of o that filter selects and keep accepts (all when nil),
// each under a claimed write; when another writer changed one meanwhile, the entries are read
// and judged again. Idempotent where set moves an entry out of filter.
func (s *Store) setEach(ctx context.Context, o outbox, filter bson.D, keep func(e *outboxEntry, now time.Time) bool,
	set func(now time.Time) bson.D) error {
	return retryClaimed(ctx, func() error {
		var rows []outboxEntry
		if err := s.findAll(ctx, o.coll, filter, options.Find(), &rows); err != nil {
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
			err := s.claimedSet(ctx, o.ref(&rows[i]), rows[i].Version, set(now), now)
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
