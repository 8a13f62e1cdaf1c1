package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/models"
)

// Claimed writes of documents outside the task aggregate (web sessions, leases, resumption
// outbox entries): each such document carries `version`, and every write of it claims the next
// version in user_task_claims first, exactly as the aggregate's writes do
// (docs/document-store.md, "What FerretDB 1.x does not make atomic"). FerretDB writes the whole
// document computed from its own read, so without the claim two writers that read the same
// version both land and the later one silently undoes the other's fields.

// docRef names one claimed document: its collection, its _id, the tenant that owns it ("" for
// the tenant-free leases) and the key its claims are filed under.
type docRef struct {
	coll   string
	id     string
	tenant string
	key    string
}

// atVersion is the filter of ref's document at version v. Documents the relay inserted
// (resumptions) carry no version field until their first claimed write: version 0 matches them.
func (r docRef) atVersion(v int64) bson.D {
	f := bson.D{{Key: "_id", Value: r.id}}
	if v == 0 {
		return append(f, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "version", Value: bson.D{{Key: "$exists", Value: false}}}},
			bson.D{{Key: "version", Value: int64(0)}},
		}})
	}
	return append(f, bson.E{Key: "version", Value: v})
}

// claimedSet applies set ($set) to ref's document that was read at version from, under a claim
// of version from+1. errClaimLost when another writer holds that version (the caller re-reads
// and decides again); a claim whose writer left it behind for longer than ClaimGrace is rolled
// forward first, so a dead writer blocks the document for ClaimGrace at most. Once the claim is
// held the write is the claim's, as for the aggregate: if the filter then matches nothing, the
// document is gone (deleted meanwhile) or a roll-forward applied this very write.
func (s *Store) claimedSet(ctx context.Context, ref docRef, from int64, set bson.D, now time.Time) error {
	set = append(set, bson.E{Key: "version", Value: from + 1})
	b, err := bson.Marshal(set)
	raw := bson.Raw(b)
	if err != nil {
		return err
	}
	claim := claimDoc{ID: claimID(ref.tenant, ref.key, from+1), TenantID: ref.tenant, TaskID: ref.key,
		Version: from + 1, Set: raw, CreatedAt: now}
	if _, err := s.claims().InsertOne(ctx, claim); err != nil {
		if !mongo.IsDuplicateKeyError(err) {
			return translate(err)
		}
		if err := s.rollForwardDoc(ctx, ref, from, now); err != nil {
			return err
		}
		return errClaimLost
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	_, err = s.db.Collection(ref.coll).UpdateOne(wctx, ref.atVersion(from), bson.D{{Key: "$set", Value: raw}})
	return translate(err)
}

// rollForwardDoc applies the claim of version from+1 of ref's document when it is older than
// ClaimGrace (its writer died between the claim and the write); a younger claim is left to its
// writer.
func (s *Store) rollForwardDoc(ctx context.Context, ref docRef, from int64, now time.Time) error {
	var c claimDoc
	err := s.claims().FindOne(ctx, bson.D{{Key: "_id", Value: claimID(ref.tenant, ref.key, from+1)}}).Decode(&c)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil
	}
	if err != nil {
		return translate(err)
	}
	if now.Sub(c.CreatedAt) < s.cfg.ClaimGrace {
		return nil
	}
	_, err = s.db.Collection(ref.coll).UpdateOne(ctx, ref.atVersion(from), bson.D{{Key: "$set", Value: c.Set}})
	return translate(err)
}

// retryClaimed runs write until it does not lose a claim, waiting a little between attempts.
func retryClaimed(ctx context.Context, write func() error) error {
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		err := write()
		if !errors.Is(err, errClaimLost) {
			return err
		}
		if err := backoff(ctx, attempt); err != nil {
			return err
		}
	}
	return fmt.Errorf("docstore: a document stayed contended for %d attempts: %w", maxAttempts, models.ErrBusy)
}
