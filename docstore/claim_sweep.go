package docstore

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// claimSweepAge is how old a version claim must be before SweepClaims deletes it: far past
// ClaimGrace (after which any reader rolls an unapplied claim forward) and past the 15 s bound
// on a claimed write, so no writer can still be between its claim and its write.
const claimSweepAge = time.Hour

// SweepClaims deletes the version claims older than claimSweepAge (and ten ClaimGraces) and
// reports how many. Every write leaves one, so without this user_task_claims grows with every
// write. A claim that old was applied by its writer, rolled forward by a reader, or belongs to a
// writer that died and whose document nobody has read or written since; dropping that last kind
// drops a write its client was never told had succeeded (the writer answers only once its
// write landed), as a rolled-back transaction would be. Versions are never reused all the same:
// a document at version v is written at v+1 only by the holder of a claim of v+1, and an
// applied claim's document is past it. Resumption-id reservations (outbox_id.go) carry no
// version and stay.
func (s *Store) SweepClaims(ctx context.Context) (int64, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	before := now.Add(-max(claimSweepAge, 10*s.cfg.ClaimGrace))
	res, err := s.claims().DeleteMany(ctx, bson.D{
		{Key: "version", Value: bson.D{{Key: "$exists", Value: true}}},
		{Key: "created_at", Value: bson.D{{Key: "$lt", Value: before}}},
	})
	if err != nil {
		return 0, translate(err)
	}
	return res.DeletedCount, nil
}
