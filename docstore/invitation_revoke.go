package docstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/store"
)

// RevokeInvitation revokes one invitation of a task, as repository.Store.RevokeInvitation: with
// one claimed write of the aggregate it appends the invitation-revoked event and queues the
// status change (from pending, dispatched or verified only), which the relay applies with the
// settling of the invitation's pending deliveries and the revocation of its guest sessions. The
// decision reads the invitation with the aggregate's pending effects under the aggregate's
// claim, so a verification or another revocation that won is never overwritten. The task itself
// is left as it is.
func (s *Store) RevokeInvitation(ctx context.Context, tenant, taskID, invitationID string, build store.RevokeFunc) (models.Invitation, error) {
	var inv models.Invitation
	err := s.write(ctx, tenant, taskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		t, err := s.fromDoc(cur, 0)
		if err != nil {
			return nil, err
		}
		d, err := s.currentInvitation(ctx, cur, invitationID)
		if err != nil {
			return nil, err
		}
		if inv, err = s.codec().Invitation(&d.InvitationRow); err != nil {
			return nil, err
		}
		ev, err := build(now, t, inv)
		if err != nil {
			return nil, err
		}
		if ev.Seq != t.LastEventSeq+1 || ev.TaskID != taskID || ev.Tenant != tenant {
			return nil, fmt.Errorf("docstore: an appended event must follow the task's sequence")
		}
		if !slices.Contains(revocable, d.Status) {
			return nil, models.Conflict(models.CodeInvitationNotRevocable)
		}
		next := cur.clone()
		next.LastEventSeq = ev.Seq
		next.PendingEffects = append(next.PendingEffects, invitationEffectDoc(invitationEffect{InvitationID: d.ID,
			From: revocable, To: string(models.InvitationRevoked), Stamp: "revoked_at", At: now,
			SettleDeliveries: true, EndSessions: true}))
		inv.Status, inv.RevokedAt, inv.UpdatedAt = models.InvitationRevoked, &now, now
		return next, s.queue(next, &models.Change{Event: &ev})
	})
	if err != nil {
		return models.Invitation{}, err
	}
	return inv, nil
}

// InvitationDeliveries lists the deliveries of a task's invitations for the managers' listing:
// state, attempts, last error code and times, those still queued in the aggregate and those in
// the collection, in creation order. The payload is neither read nor opened.
func (s *Store) InvitationDeliveries(ctx context.Context, tenant, taskID string) ([]models.Delivery, error) {
	cur, err := s.pending(ctx, tenant, taskID)
	if err != nil || cur.ID == "" {
		return []models.Delivery{}, err
	}
	var docs []deliveryDoc
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID}}
	noPayload := options.Find().SetProjection(bson.D{{Key: "payload_enc", Value: 0}})
	if err := s.findAll(ctx, deliveryCollection, filter, noPayload, &docs); err != nil {
		return nil, err
	}
	for _, q := range cur.PendingDeliveries {
		if !slices.ContainsFunc(docs, func(d deliveryDoc) bool { return d.ID == q.ID }) {
			docs = append(docs, q)
		}
	}
	slices.SortFunc(docs, func(a, b deliveryDoc) int { return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID)) })
	out := make([]models.Delivery, 0, len(docs))
	for i := range docs {
		d, err := s.codec().Delivery(&docs[i].DeliveryRow, false)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
