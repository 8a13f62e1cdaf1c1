package docstore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
)

// The relay (docs/document-store.md, "Collections and the relay") moves what a write queued in
// the aggregate to its collection: pending events to user_task_events, finished operations to
// user_task_operations, pending resumptions to user_task_resumptions, pending invitations and
// deliveries to user_task_invitations and user_task_deliveries, and applies the pending effects. Each entry is inserted first (E11000 on its unique key means it is there already,
// and counts as done), then removed from the aggregate by a claimed write. A crash between
// the two leaves the entry in both places, which the merged reads show once and the next pass
// settles; nothing is lost because nothing leaves the aggregate before it is in its collection.

// RelayPass relays up to limit aggregates that wait for the relay (index ix_tasks_relay) and
// reports how many it visited. It is safe to run at any time and on any number of nodes.
func (s *Store) RelayPass(ctx context.Context, limit int) (int, error) {
	var due []struct {
		ID       string `bson:"_id"`
		TenantID string `bson:"tenant_id"`
	}
	opts := options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: "tenant_id", Value: 1}}).SetLimit(int64(limit))
	if err := s.findAll(ctx, Aggregate, bson.D{{Key: "relay_due", Value: true}}, opts, &due); err != nil {
		return 0, err
	}
	for i, d := range due {
		if err := s.relayTask(ctx, d.TenantID, d.ID); err != nil {
			return i, err
		}
	}
	return len(due), nil
}

// relayTask relays one aggregate. Losing the version claim to a concurrent write is no
// failure: that write's own relay moves what this one saw, and more.
func (s *Store) relayTask(ctx context.Context, tenant, id string) error {
	cur, err := s.load(ctx, taskFilter(tenant, id))
	if errors.Is(err, models.ErrNotFound) {
		return nil
	}
	if err != nil || !cur.RelayDue {
		return err
	}
	if s.crash != nil {
		if err := s.crash(beforeRelay); err != nil {
			return err
		}
	}
	next := cur.clone()
	for _, e := range cur.PendingEvents {
		if err := s.insertOnce(ctx, eventCollection, e); err != nil {
			return err
		}
	}
	next.PendingEvents, next.Operations = nil, nil
	for _, o := range cur.Operations {
		if o.State == string(models.OperationAccepted) {
			next.Operations = append(next.Operations, o) // open operations stay (stale scans read them here)
			continue
		}
		if err := s.insertOnce(ctx, operationCollection, o); err != nil {
			return err
		}
	}
	for _, r := range cur.PendingResumptions {
		if err := s.insertResumptionOnce(ctx, r); err != nil {
			return err
		}
	}
	next.PendingResumptions = nil
	// Invitations before deliveries: no guest is sent a token before its invitation is
	// findable by token_hash. Both before the effects, which may change them.
	for _, inv := range cur.PendingInvitations {
		if err := s.insertInvitationOnce(ctx, inv); err != nil {
			return err
		}
	}
	next.PendingInvitations = nil
	for _, d := range cur.PendingDeliveries {
		if err := s.insertDeliveryOnce(ctx, d); err != nil {
			return err
		}
	}
	next.PendingDeliveries = nil
	// A notification whose key is taken is there already: an earlier pass, or a worker's row.
	if _, err := s.insertNotifications(ctx, cur.PendingNotifications); err != nil {
		return err
	}
	next.PendingNotifications = nil
	// Comments before the effects, which may erase one.
	if err := s.relayComments(ctx, cur); err != nil {
		return err
	}
	next.PendingComments = nil
	for _, e := range cur.PendingEffects {
		if err := s.applyEffect(ctx, cur, e); err != nil {
			return err
		}
	}
	next.PendingEffects = nil
	if s.crash != nil {
		if err := s.crash(afterRelayInsert); err != nil {
			return err
		}
	}
	next.RelayDue = next.relayDue()
	now, err := s.Now(ctx)
	if err != nil {
		return err
	}
	if err := s.commit(ctx, cur, next, now); !errors.Is(err, errClaimLost) {
		return err
	}
	return nil
}

// insertOnce inserts doc into collection; a duplicate key means an earlier pass inserted it.
// (Events and operations: their unique keys hold the task id, so a duplicate is the task's own.)
func (s *Store) insertOnce(ctx context.Context, collection string, doc any) error {
	_, err := s.db.Collection(collection).InsertOne(ctx, doc)
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return translate(err)
}

// insertOrRead inserts doc into collection. On a duplicate key it reads the stored document of
// id into stored instead and answers dup with the read's error (mongo.ErrNoDocuments: the
// duplicate is on another key), for the caller to decide whether an earlier pass inserted doc.
func (s *Store) insertOrRead(ctx context.Context, collection, id string, doc, stored any) (dup bool, err error) {
	_, err = s.db.Collection(collection).InsertOne(ctx, doc)
	if !mongo.IsDuplicateKeyError(err) {
		return false, translate(err)
	}
	return true, s.db.Collection(collection).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(stored)
}

// applyEffect applies one effect of d. Effects are idempotent: their filters match only what
// they have not changed yet.
func (s *Store) applyEffect(ctx context.Context, d *taskDoc, e effectDoc) error {
	switch e.Kind {
	case effectSettleResumptions:
		return s.settleResumptions(ctx, d.TenantID, d.ID, e.Exclude, e.CreatedAt)
	case effectReleasePlace:
		return s.releasePlace(ctx, d.TenantID, d.ID)
	case effectCountDaily:
		return s.applyCountDaily(ctx, d, e.Count)
	case effectInvitation:
		return s.applyInvitationEffect(ctx, d, e.Invitation)
	case effectEraseComment:
		return s.eraseComment(ctx, d, e)
	}
	return &models.CorruptError{TaskID: d.ID, Reason: "unknown pending effect " + e.Kind}
}
