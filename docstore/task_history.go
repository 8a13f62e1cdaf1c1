package docstore

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// The reads of what the relay moves (docs/document-store.md, "Queries never see a gap"): each
// reads the aggregate first and the collection second, and merges by key. The relay inserts
// before it pulls, so an entry missing from the aggregate read is already in the collection;
// one found in both is shown once.

const (
	eventCollection      = "user_task_events"
	operationCollection  = "user_task_operations"
	resumptionCollection = "user_task_resumptions"
)

// Events returns up to limit events of a task with a sequence above afterSeq, in order.
func (s *Store) Events(ctx context.Context, tenant, taskID string, afterSeq, limit int) ([]models.Event, error) {
	if limit <= 0 || limit > models.MaxPageSize {
		limit = models.MaxPageSize
	}
	d, err := s.pending(ctx, tenant, taskID)
	if err != nil {
		return nil, err
	}
	bySeq := map[int]eventDoc{}
	for _, e := range d.PendingEvents {
		if e.Seq > afterSeq {
			bySeq[e.Seq] = e
		}
	}
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID},
		{Key: "seq", Value: bson.D{{Key: "$gt", Value: afterSeq}}}}
	var stored []eventDoc
	if err := s.findAll(ctx, eventCollection, filter, options.Find().SetSort(bson.D{{Key: "seq", Value: 1}}).SetLimit(int64(limit)), &stored); err != nil {
		return nil, err
	}
	for _, e := range stored {
		bySeq[e.Seq] = e
	}
	seqs := make([]int, 0, len(bySeq))
	for seq := range bySeq {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	out := make([]models.Event, 0, min(limit, len(seqs)))
	for _, seq := range seqs[:min(limit, len(seqs))] {
		e := bySeq[seq]
		out = append(out, eventOf(&e))
	}
	return out, nil
}

// HasActed reports whether actor appears as the actor of one of the task's events, which makes
// them a past actor who may still read the task's summary.
func (s *Store) HasActed(ctx context.Context, tenant, taskID string, actor models.ParticipantRef) (bool, error) {
	d, err := s.pending(ctx, tenant, taskID)
	if err != nil {
		return false, err
	}
	for _, e := range d.PendingEvents {
		if storekit.Str(e.ActorProvider) == actor.Provider && storekit.Str(e.ActorType) == string(actor.Type) && e.ActorID != nil && *e.ActorID == actor.ID {
			return true, nil
		}
	}
	var found struct {
		ID string `bson:"_id"`
	}
	err = s.db.Collection(eventCollection).FindOne(ctx, bson.D{{Key: "tenant_id", Value: tenant},
		{Key: "actor_provider", Value: actor.Provider}, {Key: "actor_type", Value: string(actor.Type)},
		{Key: "actor_id", Value: actor.ID}, {Key: "task_id", Value: taskID}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Decode(&found)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, translate(err)
}

// Resumptions lists a task's outbox entries, oldest first. An entry in both places (moved, not
// yet pulled) is shown as it stands in the collection, unless the aggregate's copy has left
// pending there (settled by a finalization whose effect the relay has not applied yet).
func (s *Store) Resumptions(ctx context.Context, tenant, taskID string) ([]models.Resumption, error) {
	d, err := s.pending(ctx, tenant, taskID)
	if err != nil {
		return nil, err
	}
	var stored []resumptionDoc
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID}}
	if err := s.findAll(ctx, resumptionCollection, filter, options.Find(), &stored); err != nil {
		return nil, err
	}
	byID := map[string]resumptionDoc{}
	for _, r := range stored {
		byID[r.ID] = r
	}
	for _, r := range d.PendingResumptions {
		if c, ok := byID[r.ID]; !ok || (c.State == string(models.DeliveryPending) && r.State != c.State) {
			byID[r.ID] = r
		}
	}
	out := make([]models.Resumption, 0, len(byID))
	for _, r := range byID {
		out = append(out, resumptionOf(&r))
	}
	slices.SortFunc(out, func(a, b models.Resumption) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// findAll runs a find on collection and decodes every document into out.
func (s *Store) findAll(ctx context.Context, collection string, filter bson.D, opts *options.FindOptionsBuilder, out any) error {
	cur, err := s.db.Collection(collection).Find(ctx, filter, opts)
	if err != nil {
		return translate(err)
	}
	return translate(cur.All(ctx, out))
}
