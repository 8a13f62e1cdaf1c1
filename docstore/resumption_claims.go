package docstore

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
)

// The resumption outbox's worker side on user_task_resumptions, where the relay moves the
// entries a mutation queued: due pending entries whose lease is absent or expired by the
// database clock get a lease with a fresh token and the next generation; the holder may
// acknowledge or reschedule only while its exact lease is live, as on SQL. Several nodes claim
// the same entries and a finalization settles them meanwhile, so every write of an entry is a
// claimed write (doc_claim.go): without it two nodes could both lease one entry (FerretDB
// checks the generation when it reads, not when it writes) and a claim could write back the
// pending state a settle had just replaced. An entry still waiting in its aggregate (the relay
// has not moved it) is not claimable yet: the relay runs right after the write that queued it.

// resumptionRow is an entry as stored in its collection, with the version of its claimed
// writes (absent, 0, until the first).
type resumptionRow struct {
	Doc     resumptionDoc `bson:",inline"`
	Version int64         `bson:"version"`
}

func resumptionRef(r *resumptionRow) docRef {
	return docRef{coll: resumptionCollection, id: r.Doc.ID, tenant: r.Doc.TenantID, key: "resumption:" + r.Doc.ID}
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

// ClaimResumptions leases up to limit due entries, of every tenant, to owner (index
// ix_resumptions_due). An entry another node claims at the same moment is left to it, and the
// next due ones are read instead (SQL's SKIP LOCKED), a few rounds at most.
func (s *Store) ClaimResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Resumption, error) {
	out, err := claimInRounds(ctx, limit, func(n int, out *[]models.Resumption) (int, error) {
		return s.claimDueResumptions(ctx, owner, n, leaseFor, out)
	})
	// In due order, as SQL returns them, whichever round leased them.
	slices.SortFunc(out, func(a, b models.Resumption) int {
		return cmp.Or(a.AvailableAt.Compare(b.AvailableAt), cmp.Compare(a.ID, b.ID))
	})
	return out, err
}

// claimDueResumptions reads up to limit due entries and leases each to owner, appending the
// leased ones to out; it reports how many it lost to other writers.
func (s *Store) claimDueResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration, out *[]models.Resumption) (int, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	var due []resumptionRow
	if err := s.findAll(ctx, resumptionCollection, dueUnleased(now), dueOrder(limit), &due); err != nil {
		return 0, err
	}
	lost := 0
	for i := range due {
		r := &due[i]
		lease := models.Lease{Owner: owner, Token: models.NewID(), Generation: r.Doc.LeaseGeneration + 1, ExpiresAt: now.Add(leaseFor)}
		set := append(leaseFields(&lease), bson.E{Key: "updated_at", Value: now})
		err := s.claimedSet(ctx, resumptionRef(r), r.Version, set, now)
		if errors.Is(err, errClaimLost) {
			lost++ // another node wrote it since the read: its lease, or a settle
			continue
		}
		if err != nil {
			return lost, err
		}
		got := resumptionOf(&r.Doc)
		got.Lease, got.UpdatedAt = &lease, now
		*out = append(*out, got)
	}
	return lost, nil
}

// AckResumption marks a claimed entry delivered. A stale lease fails with models.ErrLeaseLost.
func (s *Store) AckResumption(ctx context.Context, r models.Resumption) error {
	return s.fencedResumptionWrite(ctx, r, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliveryDelivered)},
			bson.E{Key: "delivered_at", Value: now}, bson.E{Key: "updated_at", Value: now})
	})
}

// RetryResumption records a failed attempt and makes the entry due again after delay; it
// returns the attempt count. A stale lease fails with models.ErrLeaseLost.
func (s *Store) RetryResumption(ctx context.Context, r models.Resumption, delay time.Duration, errCode string) (int, error) {
	attempts := r.Attempts + 1
	err := s.fencedResumptionWrite(ctx, r, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "attempts", Value: attempts}, bson.E{Key: "available_at", Value: now.Add(delay)},
			bson.E{Key: "last_error", Value: opt(errCode)}, bson.E{Key: "updated_at", Value: now})
	})
	return attempts, err
}

// fencedResumptionWrite writes r's entry while it is pending under r's exact, live lease, under
// a claimed write; otherwise models.ErrLeaseLost.
func (s *Store) fencedResumptionWrite(ctx context.Context, r models.Resumption, set func(now time.Time) bson.D) error {
	if r.Lease == nil {
		return models.ErrLeaseLost
	}
	return retryClaimed(ctx, func() error {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		var row resumptionRow
		err = s.db.Collection(resumptionCollection).FindOne(ctx, bson.D{{Key: "_id", Value: r.ID}}).Decode(&row)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return models.ErrLeaseLost
		}
		if err != nil {
			return translate(err)
		}
		if d := row.Doc; d.State != string(models.DeliveryPending) || d.LeaseToken == nil || *d.LeaseToken != r.Lease.Token ||
			d.LeaseGeneration != r.Lease.Generation || d.LeaseExpiresAt == nil || !d.LeaseExpiresAt.After(now) {
			return models.ErrLeaseLost
		}
		return s.claimedSet(ctx, resumptionRef(&row), row.Version, set(now), now)
	})
}

// settleResumptions settles the task's pending entries in user_task_resumptions but those in
// exclude (a finalization's effect, applied by the relay), each under a claimed write; an entry
// a node claims meanwhile is read again and settled all the same. Idempotent: settled entries
// no longer match.
func (s *Store) settleResumptions(ctx context.Context, tenant, taskID string, exclude []string, at time.Time) error {
	ids := bson.A{}
	for _, id := range exclude {
		ids = append(ids, id)
	}
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID},
		{Key: "state", Value: string(models.DeliveryPending)}, {Key: "_id", Value: bson.D{{Key: "$nin", Value: ids}}}}
	return retryClaimed(ctx, func() error {
		var rows []resumptionRow
		if err := s.findAll(ctx, resumptionCollection, filter, options.Find(), &rows); err != nil {
			return err
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		lost := false
		for i := range rows {
			set := append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliverySettled)}, bson.E{Key: "updated_at", Value: at})
			err := s.claimedSet(ctx, resumptionRef(&rows[i]), rows[i].Version, set, now)
			if errors.Is(err, errClaimLost) {
				lost = true
				continue
			}
			if err != nil {
				return err
			}
		}
		if lost {
			return errClaimLost // read the ones written meanwhile again
		}
		return nil
	})
}
