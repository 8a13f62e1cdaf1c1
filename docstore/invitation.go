package docstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// IssueInvitation writes an invitation, its sealed delivery and its event with one claimed write
// of the task aggregate (docs/document-store.md, "Encrypted invitation delivery outbox and
// hashed tokens"): the invitation (token and code hashes only, the recipient sealed) and the
// delivery (the payload sealed before it leaves the process) are queued with the event, and
// the relay moves the invitation before the delivery. A task holds at most
// models.MaxInvitationsPerTask invitations; the count is read under the same claim.
func (s *Store) IssueInvitation(ctx context.Context, tenant, taskID string, build store.IssueFunc) (models.Invitation, error) {
	var inv models.Invitation
	revision := 0
	err := s.write(ctx, tenant, taskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		t, err := s.fromDoc(cur, 0)
		if err != nil {
			return nil, err
		}
		held, err := s.taskInvitations(ctx, cur)
		if err != nil {
			return nil, err
		}
		if err := storekit.CheckInvitationRoom(int64(len(held))); err != nil {
			return nil, err
		}
		var d models.Delivery
		var ev models.Event
		if inv, d, ev, err = build(now, t); err != nil {
			return nil, err
		}
		if err := storekit.CheckIssued(t, inv, d, ev); err != nil {
			return nil, err
		}
		irow, err := s.codec().InvitationRow(&inv)
		if err != nil {
			return nil, err
		}
		drow, err := s.codec().DeliveryRow(&d)
		if err != nil {
			return nil, err
		}
		next := cur.clone()
		next.PendingInvitations = append(next.PendingInvitations, invitationDoc{InvitationRow: irow})
		next.PendingDeliveries = append(next.PendingDeliveries, deliveryDoc{DeliveryRow: drow})
		next.LastEventSeq = ev.Seq
		revision = t.Revision
		return next, s.queue(next, &models.Change{Event: &ev})
	})
	if err != nil {
		return models.Invitation{}, err
	}
	// After the commit: live pages show the invitation, and this node's delivery worker sends
	// it at once instead of on its next poll.
	s.changed(tenant, taskID, revision)
	s.deliveryQueued()
	return inv, nil
}

// insertInvitationOnce inserts a queued invitation. A duplicate key is an earlier pass's insert
// only when the stored invitation is this one; a token hash another invitation holds is an
// error that keeps the entry queued (tokens are 256-bit random values: it does not happen).
func (s *Store) insertInvitationOnce(ctx context.Context, inv invitationDoc) error {
	var stored invitationDoc
	dup, err := s.insertOrRead(ctx, invitationCollection, inv.ID, inv, &stored)
	if !dup {
		return err
	}
	if err == nil && stored.TenantID == inv.TenantID && stored.TaskID == inv.TaskID && stored.TokenHash == inv.TokenHash {
		return nil
	}
	return fmt.Errorf("docstore: a queued invitation's id or token hash belongs to another invitation (task %s)", inv.TaskID)
}

// taskInvitations reads the invitations of the aggregate cur, read first: those still queued in
// it and those in the collection (the relay inserts before it pulls, so none is missed; one in
// both places is the collection's), each with cur's pending effects applied.
func (s *Store) taskInvitations(ctx context.Context, cur *taskDoc) ([]invitationDoc, error) {
	var stored []invitationDoc
	filter := bson.D{{Key: "tenant_id", Value: cur.TenantID}, {Key: "task_id", Value: cur.ID}}
	if err := s.findAll(ctx, invitationCollection, filter, nil, &stored); err != nil {
		return nil, err
	}
	for _, q := range cur.PendingInvitations {
		if !slices.ContainsFunc(stored, func(d invitationDoc) bool { return d.ID == q.ID }) {
			stored = append(stored, q)
		}
	}
	for i := range stored {
		overlay(cur, &stored[i])
	}
	return stored, nil
}

// currentInvitation reads one invitation of the aggregate cur as taskInvitations does;
// models.ErrNotFound when the task has no such invitation.
func (s *Store) currentInvitation(ctx context.Context, cur *taskDoc, id string) (*invitationDoc, error) {
	var d invitationDoc
	err := s.db.Collection(invitationCollection).FindOne(ctx, bson.D{{Key: "_id", Value: id},
		{Key: "tenant_id", Value: cur.TenantID}, {Key: "task_id", Value: cur.ID}}).Decode(&d)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		i := slices.IndexFunc(cur.PendingInvitations, func(q invitationDoc) bool { return q.ID == id })
		if i < 0 {
			return nil, models.ErrNotFound
		}
		d = cur.PendingInvitations[i]
	case err != nil:
		return nil, translate(err)
	}
	overlay(cur, &d)
	return &d, nil
}

// Invitations lists a task's invitations, newest first.
func (s *Store) Invitations(ctx context.Context, tenant, taskID string) ([]models.Invitation, error) {
	cur, err := s.pending(ctx, tenant, taskID)
	if err != nil || cur.ID == "" {
		return nil, err
	}
	docs, err := s.taskInvitations(ctx, cur)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(docs, func(a, b invitationDoc) int {
		return cmp.Or(b.IssuedAt.Compare(a.IssuedAt), cmp.Compare(b.ID, a.ID))
	})
	var out []models.Invitation
	for i := range docs {
		inv, err := s.codec().Invitation(&docs[i].InvitationRow)
		if err != nil {
			return nil, err
		}
		out = append(out, inv)
	}
	return out, nil
}

// FindInvitationByTokenHash looks an invitation up by the SHA-256 hash of its token (unique
// across tenants, index ux_invitations_token); the invitation names its tenant. It is read
// again after its aggregate, with the aggregate's pending effects applied, so it shows every
// committed status change.
func (s *Store) FindInvitationByTokenHash(ctx context.Context, tokenHash string) (models.Invitation, error) {
	var found invitationDoc
	if err := s.db.Collection(invitationCollection).FindOne(ctx, bson.D{{Key: "token_hash", Value: tokenHash}}).Decode(&found); err != nil {
		return models.Invitation{}, translate(err)
	}
	d, err := s.invitationNow(ctx, found.TenantID, found.TaskID, found.ID)
	if err != nil {
		return models.Invitation{}, err
	}
	return s.codec().Invitation(&d.InvitationRow)
}

// invitationNow reads an invitation after its task's aggregate, with the aggregate's pending
// effects applied.
func (s *Store) invitationNow(ctx context.Context, tenant, taskID, id string) (*invitationDoc, error) {
	cur, err := s.pending(ctx, tenant, taskID)
	if err != nil {
		return nil, err
	}
	cur.TenantID, cur.ID = tenant, taskID
	return s.currentInvitation(ctx, cur, id)
}
