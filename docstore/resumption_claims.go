package docstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
)

// The resumption outbox's worker side on user_task_resumptions, where the relay moves the
// entries a mutation queued, under the lease rules both outboxes share (outbox_lease.go).
// Several nodes claim the same entries and a finalization settles them meanwhile, so every write
// of an entry is a claimed write (doc_claim.go): without it two nodes could both lease one entry
// (FerretDB checks the generation when it reads, not when it writes) and a claim could write
// back the pending state a settle had just replaced. An entry still waiting in its aggregate
// (the relay has not moved it) is not claimable yet: the relay runs right after the write that
// queued it.

// resumptionRow is an entry as stored in its collection, with the version of its claimed
// writes (absent, 0, until the first).
type resumptionRow struct {
	Doc     resumptionDoc `bson:",inline"`
	Version int64         `bson:"version"`
}

func (r *resumptionRow) entry() outboxEntry {
	return outboxEntry{ID: r.Doc.ID, TenantID: r.Doc.TenantID, State: r.Doc.State, LeaseColumns: r.Doc.LeaseColumns, Version: r.Version}
}

func resumptionRef(r *resumptionRow) docRef {
	e := r.entry()
	return resumptionOutbox.ref(&e)
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
	return claimDue(ctx, s, resumptionOutbox, owner, limit, leaseFor, func(r *resumptionRow, lease models.Lease, now time.Time) error {
		got := resumptionOf(&r.Doc)
		got.Lease, got.UpdatedAt = &lease, now
		*out = append(*out, got)
		return nil
	})
}

// AckResumption marks a claimed entry delivered. A stale lease fails with models.ErrLeaseLost.
func (s *Store) AckResumption(ctx context.Context, r models.Resumption) error {
	return s.fencedWrite(ctx, resumptionOutbox, r.ID, r.Lease, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliveryDelivered)},
			bson.E{Key: "delivered_at", Value: now}, bson.E{Key: "updated_at", Value: now})
	})
}

// RetryResumption records a failed attempt and makes the entry due again after delay; it
// returns the attempt count. A stale lease fails with models.ErrLeaseLost.
func (s *Store) RetryResumption(ctx context.Context, r models.Resumption, delay time.Duration, errCode string) (int, error) {
	attempts := r.Attempts + 1
	err := s.fencedWrite(ctx, resumptionOutbox, r.ID, r.Lease, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "attempts", Value: attempts}, bson.E{Key: "available_at", Value: now.Add(delay)},
			bson.E{Key: "last_error", Value: storekit.Opt(errCode)}, bson.E{Key: "updated_at", Value: now})
	})
	return attempts, err
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
	return s.setEach(ctx, resumptionOutbox, filter, nil, func(time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliverySettled)}, bson.E{Key: "updated_at", Value: at})
	})
}
