package docstore

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
)

// deliveryCollection is the invitation delivery outbox, where the relay moves the deliveries
// IssueInvitation queued (delivery_claims.go).
const deliveryCollection = "user_task_deliveries"

// Backlog reads what waits in the resumption and invitation delivery outboxes, for the
// metrics, as repository.Store.Backlog: counts by state (the (state, available_at, _id)
// indexes), and the pending resumptions still in aggregates the relay has not reached
// (unrelayedResumptions), so a resumption is counted from its commit on.
func (s *Store) Backlog(ctx context.Context) (models.Backlog, error) {
	var b models.Backlog
	now, err := s.Now(ctx)
	if err != nil {
		return b, err
	}
	b.Now = now
	pending := bson.D{{Key: "state", Value: string(models.DeliveryPending)}}
	n, oldest, err := s.pendingResumptions(ctx, pending, "available_at")
	if err != nil {
		return b, err
	}
	b.ResumptionsPending = n
	if oldest != nil {
		b.OldestResumptionDue = *oldest
	}
	for _, c := range []struct {
		dst    *int
		filter bson.D
	}{
		{&b.DeliveriesPending, pending},
		{&b.DeliveriesRetrying, append(pending[:1:1], bson.E{Key: "attempts", Value: bson.D{{Key: "$gt", Value: 0}}})},
		{&b.DeliveriesAbandoned, bson.D{{Key: "state", Value: string(models.DeliveryAbandoned)}}},
	} {
		n, err := s.db.Collection(deliveryCollection).CountDocuments(ctx, c.filter)
		if err != nil {
			return b, translate(err)
		}
		*c.dst = int(n)
	}
	return b, nil
}

// pendingResumptions counts the pending resumptions that match filter (a state filter, with or
// without tenant_id), in the collection and still in aggregates, and returns the earliest
// value of the time field oldestBy among them (nil when none).
func (s *Store) pendingResumptions(ctx context.Context, filter bson.D, oldestBy string) (int, *time.Time, error) {
	n, err := s.db.Collection(resumptionCollection).CountDocuments(ctx, filter)
	if err != nil {
		return 0, nil, translate(err)
	}
	var oldest *time.Time
	var first resumptionDoc
	err = s.db.Collection(resumptionCollection).FindOne(ctx, filter,
		options.FindOne().SetSort(bson.D{{Key: oldestBy, Value: 1}, {Key: "_id", Value: 1}})).Decode(&first)
	switch {
	case err == nil:
		at := timeOf(&first, oldestBy)
		oldest = &at
	case !errors.Is(err, mongo.ErrNoDocuments):
		return 0, nil, translate(err)
	}
	tenant := ""
	for _, e := range filter {
		if e.Key == "tenant_id" {
			tenant, _ = e.Value.(string)
		}
	}
	rest, err := s.unrelayedResumptions(ctx, tenant)
	if err != nil {
		return 0, nil, err
	}
	for i := range rest {
		if at := timeOf(&rest[i], oldestBy); oldest == nil || at.Before(*oldest) {
			oldest = &at
		}
	}
	return int(n) + len(rest), oldest, nil
}

func timeOf(r *resumptionDoc, field string) time.Time {
	if field == "created_at" {
		return utc(r.CreatedAt)
	}
	return utc(r.AvailableAt)
}

// unrelayedResumptions returns the pending resumptions still waiting in aggregates (of tenant,
// or of all tenants for "") that are not in user_task_resumptions yet. The relay inserts before
// it pulls, so an entry is in one place or both, never neither; those in both are left out.
func (s *Store) unrelayedResumptions(ctx context.Context, tenant string) ([]resumptionDoc, error) {
	filter := bson.D{{Key: "relay_due", Value: true}}
	if tenant != "" {
		filter = append(filter, bson.E{Key: "tenant_id", Value: tenant})
	}
	var due []taskDoc
	opts := options.Find().SetProjection(bson.D{{Key: "pending_resumptions", Value: 1}, {Key: "tenant_id", Value: 1}})
	if err := s.findAll(ctx, Aggregate, filter, opts, &due); err != nil {
		return nil, err
	}
	var queued []resumptionDoc
	ids := bson.A{}
	for _, d := range due {
		for _, r := range d.PendingResumptions {
			if r.State == string(models.DeliveryPending) {
				queued = append(queued, r)
				ids = append(ids, r.ID)
			}
		}
	}
	if len(queued) == 0 {
		return nil, nil
	}
	var moved []struct {
		ID string `bson:"_id"`
	}
	err := s.findAll(ctx, resumptionCollection, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}), &moved)
	if err != nil {
		return nil, err
	}
	in := make(map[string]bool, len(moved))
	for _, m := range moved {
		in[m.ID] = true
	}
	out := queued[:0]
	for _, r := range queued {
		if !in[r.ID] {
			out = append(out, r)
		}
	}
	return out, nil
}
