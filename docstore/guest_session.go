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

// Guest verification and guest sessions (SPEC 6), as repository/guest_session.go. Every expiry
// is decided with the database clock; only hashes of the invitation token and of the session
// credential are stored. Guest sessions are documents of their own (unique token_hash).

// VerifyInvitation runs one verification attempt. Every refusal is models.ErrGuestDenied,
// whatever the reason; the refusals that change state commit that change first (an invitation
// past its expiry becomes expired; a wrong code counts an attempt, and the
// models.MaxCodeAttempts-th revokes the invitation with an invitation-revoked event).
//
// Every outcome is one claimed write of the task aggregate, decided on the invitation as stored
// with the aggregate's pending effects (invitation_effect.go), so two verifications of one
// task — siblings, or one invitation twice — are decided one after the other, as the SQL
// store's task lock orders them: the first wins, the second finds its invitation verified or
// revoked. A successful one assigns the task to the guest (models.VerifyGuest, with its
// event), revokes the pending or dispatched invitations of its sibling group (each with an
// event), and queues the invitation's move to verified with the settling of its deliveries.
// The guest session is inserted before that write and deleted again when the write is refused
// or lost; the credential is returned only once the invitation reads verified. A crash in
// between leaves a session whose invitation is not verified, which models.GuestSessionLive
// refuses, and which expires.
func (s *Store) VerifyInvitation(ctx context.Context, v store.GuestVerification) (models.GuestSession, error) {
	var found invitationDoc
	err := s.db.Collection(invitationCollection).FindOne(ctx, bson.D{{Key: "token_hash", Value: v.TokenHash}}).Decode(&found)
	if err != nil {
		return models.GuestSession{}, fmt.Errorf("%w: %v", models.ErrGuestDenied, translate(err))
	}
	var (
		session  models.GuestSession
		inserted bool
		change   models.Change
		denied   bool
	)
	err = s.write(ctx, found.TenantID, found.TaskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		denied = false
		d, err := s.currentInvitation(ctx, cur, found.ID)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(verifiable, d.Status) || d.CodeAttempts >= models.MaxCodeAttempts {
			return nil, models.ErrGuestDenied
		}
		next := cur.clone()
		if !now.Before(d.ExpiresAt) {
			denied = true
			next.PendingEffects = append(next.PendingEffects, invitationEffectDoc(invitationEffect{InvitationID: d.ID,
				From: verifiable, To: string(models.InvitationExpired), At: now}))
			next.RelayDue = true
			return next, nil
		}
		inv, err := s.codec().Invitation(&d.InvitationRow)
		if err != nil {
			return nil, err
		}
		if !v.Proof(inv) {
			denied = true
			return s.countFailedAttempt(next, d, now)
		}
		task, err := s.fromDoc(cur, 0)
		if err != nil {
			return nil, err
		}
		if change, err = models.VerifyGuest(task, inv.ID, now); err != nil {
			return nil, fmt.Errorf("%w: %v", models.ErrGuestDenied, err)
		}
		if next, err = s.applyChange(cur, &task, &change, now); err != nil {
			return nil, err
		}
		next.PendingEffects = append(next.PendingEffects, invitationEffectDoc(invitationEffect{InvitationID: d.ID,
			From: verifiable, To: string(models.InvitationVerified), Stamp: "verified_at", At: now, SettleDeliveries: true}))
		if err := s.revokeSiblings(ctx, cur, next, d, now); err != nil {
			return nil, err
		}
		if !inserted {
			if session, err = s.insertGuestSession(ctx, v, now, inv); err != nil {
				return nil, err
			}
			inserted = true
		}
		return next, nil
	})
	if err == nil && !denied {
		// The relay ran after the write; the invitation reads verified unless an expiry sweep
		// took it at its very last moment, before the relay.
		d, rerr := s.invitationNow(ctx, found.TenantID, found.TaskID, found.ID)
		switch {
		case rerr != nil:
			err = rerr
		case d.Status != string(models.InvitationVerified):
			err = fmt.Errorf("%w: the invitation was %s meanwhile", models.ErrGuestDenied, d.Status)
		}
	}
	if inserted && (err != nil || denied) {
		s.dropGuestSession(ctx, session.ID)
	}
	if err := storekit.VerificationResult(err, denied); err != nil {
		return models.GuestSession{}, err
	}
	s.changed(change.Task.Tenant, change.Task.ID, change.Task.Revision)
	return session, nil
}

// countFailedAttempt queues the count of a wrong code on next; the last allowed one revokes the
// invitation, settles its deliveries and appends the system's invitation-revoked event.
func (s *Store) countFailedAttempt(next *taskDoc, d *invitationDoc, now time.Time) (*taskDoc, error) {
	attempts := d.CodeAttempts + 1
	e := invitationEffect{InvitationID: d.ID, From: verifiable, CodeAttempts: &attempts, At: now}
	if attempts >= models.MaxCodeAttempts {
		e.To, e.Stamp, e.SettleDeliveries = string(models.InvitationRevoked), "revoked_at", true
		if err := s.queueRevokedEvent(next, d.ID, models.RevokedAttemptsExhausted, now); err != nil {
			return nil, err
		}
	}
	next.PendingEffects = append(next.PendingEffects, invitationEffectDoc(e))
	next.RelayDue = true
	return next, nil
}

// revokeSiblings queues the revocation of the pending or dispatched invitations of d's sibling
// group, each with the system's invitation-revoked event, on next (the aggregate after the
// verification). A sibling group is issued for one task (invitations.Issue), so
// its members are the task's invitations.
func (s *Store) revokeSiblings(ctx context.Context, cur, next *taskDoc, d *invitationDoc, now time.Time) error {
	if d.SiblingGroupID == nil {
		return nil
	}
	all, err := s.taskInvitations(ctx, cur)
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b invitationDoc) int { return cmp.Compare(a.ID, b.ID) })
	for i := range all {
		sib := &all[i]
		if sib.ID == d.ID || sib.SiblingGroupID == nil || *sib.SiblingGroupID != *d.SiblingGroupID || !slices.Contains(verifiable, sib.Status) {
			continue
		}
		next.PendingEffects = append(next.PendingEffects, invitationEffectDoc(invitationEffect{InvitationID: sib.ID,
			From: verifiable, To: string(models.InvitationRevoked), Stamp: "revoked_at", At: now, SettleDeliveries: true}))
		if err := s.queueRevokedEvent(next, sib.ID, models.RevokedSiblingVerified, now); err != nil {
			return err
		}
	}
	return nil
}

// queueRevokedEvent queues the system's invitation-revoked event on next, at its next sequence.
func (s *Store) queueRevokedEvent(next *taskDoc, invitationID, reason string, now time.Time) error {
	t, err := s.fromDoc(next, 0)
	if err != nil {
		return err
	}
	ev, err := models.SystemRevokedInvitation(t, invitationID, reason, now)
	if err != nil {
		return err
	}
	next.LastEventSeq = ev.Seq
	return s.queue(next, &models.Change{Event: &ev})
}

// insertGuestSession stores the session v makes for inv.
func (s *Store) insertGuestSession(ctx context.Context, v store.GuestVerification, now time.Time, inv models.Invitation) (models.GuestSession, error) {
	session := v.Session(now, inv)
	if err := storekit.CheckGuestSession(session, inv); err != nil {
		return models.GuestSession{}, err
	}
	row, err := s.codec().GuestSessionRow(&session)
	if err != nil {
		return models.GuestSession{}, err
	}
	_, err = s.db.Collection(guestSessionCollection).InsertOne(ctx, row)
	return session, translate(err)
}

// dropGuestSession deletes a session whose verification did not succeed. Should it fail, the
// session stays unusable (its invitation is not verified for it) until it expires.
func (s *Store) dropGuestSession(ctx context.Context, id string) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	_, _ = s.db.Collection(guestSessionCollection).DeleteOne(dctx, bson.D{{Key: "_id", Value: id}})
}

// endGuestSessions revokes the live guest sessions of an invitation. Every writer of a session
// after its insert only sets revoked_at, so no claim is needed: two at once both end it.
func (s *Store) endGuestSessions(ctx context.Context, tenant, invitationID string, at time.Time) error {
	_, err := s.db.Collection(guestSessionCollection).UpdateMany(ctx,
		bson.D{{Key: "tenant_id", Value: tenant}, {Key: "invitation_id", Value: invitationID}, {Key: "revoked_at", Value: nil}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "revoked_at", Value: utc(at)}}}})
	return translate(err)
}

// GuestAccess reads the session with that credential hash, its task and its invitation (with
// the task's pending effects applied), and the database time. An unknown hash is
// models.ErrNotFound; whether the session is live is the caller's decision
// (models.GuestSessionLive).
func (s *Store) GuestAccess(ctx context.Context, tokenHash string) (store.GuestAccess, error) {
	var out store.GuestAccess
	var err error
	if out.Now, err = s.Now(ctx); err != nil {
		return out, err
	}
	var sd storekit.GuestSessionRow
	if err := s.db.Collection(guestSessionCollection).FindOne(ctx, bson.D{{Key: "token_hash", Value: tokenHash}}).Decode(&sd); err != nil {
		return out, translate(err)
	}
	if out.Session, err = s.codec().GuestSession(&sd); err != nil {
		return out, err
	}
	cur, err := s.load(ctx, taskFilter(sd.TenantID, sd.TaskID))
	if err != nil {
		return out, err
	}
	if out.Task, err = s.fromDoc(cur, 0); err != nil {
		return out, err
	}
	d, err := s.currentInvitation(ctx, cur, sd.InvitationID)
	if err != nil {
		return out, err
	}
	out.Invitation, err = s.codec().Invitation(&d.InvitationRow)
	return out, err
}

// ConsumeInvitation marks a verified invitation consumed after its guest completed the task (a
// claimed write of the invitation), then revokes its guest sessions. An invitation no longer
// verified is left as it is; the sessions are ended all the same, so calling it again after a
// crash between the two finishes the job.
func (s *Store) ConsumeInvitation(ctx context.Context, tenant, invitationID string) error {
	err := retryClaimed(ctx, func() error {
		var d invitationDoc
		err := s.db.Collection(invitationCollection).FindOne(ctx, bson.D{{Key: "_id", Value: invitationID},
			{Key: "tenant_id", Value: tenant}}).Decode(&d)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return nil
		}
		if err != nil || d.Status != string(models.InvitationVerified) {
			return translate(err)
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		return s.claimedSet(ctx, invitationRef(&d), d.Version, bson.D{{Key: "status", Value: string(models.InvitationConsumed)},
			{Key: "consumed_at", Value: now}, {Key: "updated_at", Value: now}}, now)
	})
	if err != nil {
		return err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return err
	}
	return s.endGuestSessions(ctx, tenant, invitationID, now)
}
