package docstore

import (
	"context"
	"errors"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/models"
)

// Invitation status changes that a write of the task decides (a verification and the sibling
// revocations it causes, a counted wrong code, an expiry found by a verification, a manager's
// revocation) are queued in the aggregate with that write's event, as effects, and applied by
// the relay to user_task_invitations (docs/document-store.md, "Why each invariant holds").
// Deciding them under the aggregate's version claim serializes every decision about one task's
// invitations, as the SQL store's task row lock does; a decision reads the invitation as stored
// with the aggregate's pending effects applied over it (currentInvitation), so it never misses
// one the relay has not applied yet. Each effect sets absolute values and only from the
// statuses it names, so applying it again changes nothing.

const effectInvitation = "invitation"

// invitationEffect is one invitation status change.
type invitationEffect struct {
	InvitationID string `bson:"invitation_id"`
	// From are the statuses the change applies to; any other leaves the invitation as it is.
	From []string `bson:"from"`
	// To is the new status ("" keeps it), Stamp the time field set with it (verified_at,
	// revoked_at or "").
	To    string `bson:"to"`
	Stamp string `bson:"stamp"`
	// CodeAttempts, when set, is the wrong-code count the invitation reaches.
	CodeAttempts *int      `bson:"code_attempts"`
	At           time.Time `bson:"at"`
	// SettleDeliveries ends the invitation's pending deliveries; EndSessions revokes its
	// guest sessions.
	SettleDeliveries bool `bson:"settle_deliveries"`
	EndSessions      bool `bson:"end_sessions"`
}

var (
	verifiable = []string{string(models.InvitationPending), string(models.InvitationDispatched)}
	// revocable: an invitation not yet used, and a verified one whose guest holds the task.
	revocable = append(slices.Clone(verifiable), string(models.InvitationVerified))
)

func invitationEffectDoc(e invitationEffect) effectDoc {
	e.At = utc(e.At)
	return effectDoc{ID: models.NewID(), Kind: effectInvitation, CreatedAt: e.At, Invitation: &e}
}

// apply applies e to d and returns the changed fields as a $set, nil when nothing changes.
func (e *invitationEffect) apply(d *invitationDoc) bson.D {
	if e == nil || d.ID != e.InvitationID || !slices.Contains(e.From, d.Status) {
		return nil
	}
	at := utc(e.At)
	var set bson.D
	if e.To != "" && d.Status != e.To {
		d.Status = e.To
		set = append(set, bson.E{Key: "status", Value: e.To})
		switch e.Stamp {
		case "verified_at":
			d.VerifiedAt = &at
		case "revoked_at":
			d.RevokedAt = &at
		}
		if e.Stamp != "" {
			set = append(set, bson.E{Key: e.Stamp, Value: at})
		}
	}
	if e.CodeAttempts != nil && d.CodeAttempts < *e.CodeAttempts {
		d.CodeAttempts = *e.CodeAttempts
		set = append(set, bson.E{Key: "code_attempts", Value: d.CodeAttempts})
	}
	if set != nil {
		d.UpdatedAt = at
		set = append(set, bson.E{Key: "updated_at", Value: at})
	}
	return set
}

// overlay applies the aggregate's pending invitation effects, in order, to d.
func overlay(cur *taskDoc, d *invitationDoc) {
	for i := range cur.PendingEffects {
		if e := &cur.PendingEffects[i]; e.Kind == effectInvitation {
			e.Invitation.apply(d)
		}
	}
}

func invitationRef(d *invitationDoc) docRef {
	return docRef{coll: invitationCollection, id: d.ID, tenant: d.TenantID, key: "invitation:" + d.ID}
}

// applyInvitationEffect applies one effect of the aggregate task: the status change under a
// claimed write of the invitation (a concurrent acknowledgement or expiry makes it read again),
// then the deliveries and sessions it ends. Every step is idempotent.
func (s *Store) applyInvitationEffect(ctx context.Context, task *taskDoc, e *invitationEffect) error {
	if e == nil {
		return &models.CorruptError{TaskID: task.ID, Reason: "an invitation effect names no invitation"}
	}
	err := retryClaimed(ctx, func() error {
		var d invitationDoc
		err := s.db.Collection(invitationCollection).FindOne(ctx, bson.D{{Key: "_id", Value: e.InvitationID},
			{Key: "tenant_id", Value: task.TenantID}}).Decode(&d)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return nil // deleted (purged) meanwhile: nothing to change
		}
		if err != nil {
			return translate(err)
		}
		set := e.apply(&d)
		if set == nil {
			return nil
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		return s.claimedSet(ctx, invitationRef(&d), d.Version, set, now)
	})
	if err != nil {
		return err
	}
	if e.SettleDeliveries {
		if err := s.settleDeliveries(ctx, task.TenantID, e.InvitationID); err != nil {
			return err
		}
	}
	if e.EndSessions {
		return s.endGuestSessions(ctx, task.TenantID, e.InvitationID, e.At)
	}
	return nil
}
