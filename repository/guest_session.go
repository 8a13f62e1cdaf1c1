package repository

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// Guest verification and guest sessions (SPEC 6). Every decision about expiry is taken with the
// database clock. Only hashes of the invitation token and of the session credential are stored.

type guestSessionRecord struct {
	storekit.GuestSessionRow `gorm:"embedded"`
}

func (guestSessionRecord) TableName() string { return "user_task_guest_sessions" }

// VerifyInvitation runs one verification attempt. Every refusal is models.ErrGuestDenied,
// whatever the reason; the refusals that change state commit that change first:
//   - an invitation past its expiry becomes expired;
//   - a failed proof counts an attempt, and the models.MaxCodeAttempts-th revokes the
//     invitation for good (status revoked, with an invitation-revoked event).
//
// A successful one, in one transaction with the task locked: the task goes to the guest
// (models.VerifyGuest, guarded by revision, with its invitation-verified event), the invitation
// becomes verified, its pending or dispatched siblings are revoked (each with an event), and the
// guest session is created. The task is locked before the invitation, so two siblings
// verifying at once queue on the task: the first wins, the second finds its invitation revoked.
func (s *Store) VerifyInvitation(ctx context.Context, v store.GuestVerification) (models.GuestSession, error) {
	var (
		session models.GuestSession
		change  models.Change
		denied  bool
	)
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		denied = false
		inv, err := s.lockInvitation(tx, v.TokenHash)
		if err != nil {
			return err
		}
		if inv.Status != models.InvitationPending && inv.Status != models.InvitationDispatched {
			return models.ErrGuestDenied
		}
		if !now.Before(inv.ExpiresAt) {
			denied = true
			return setInvitationStatus(tx, inv, models.InvitationExpired, "", now)
		}
		if inv.CodeAttempts >= models.MaxCodeAttempts {
			return models.ErrGuestDenied // revoked with its last attempt; never reached
		}
		if !v.Proof(inv) {
			denied = true
			return s.countFailedAttempt(tx, inv, now)
		}
		task, err := s.loadTask(tx, "tenant_id = ? AND id = ?", inv.Tenant, inv.TaskID)
		if err != nil {
			return err
		}
		if change, err = models.VerifyGuest(task, inv.ID, now); err != nil {
			return fmt.Errorf("%w: %v", models.ErrGuestDenied, err)
		}
		if err := s.applyChange(tx, &task, &change, now); err != nil {
			return err
		}
		if err := setInvitationStatus(tx, inv, models.InvitationVerified, "verified_at", now); err != nil {
			return err
		}
		// The guest holds the link already (an acknowledgement may have been lost): nothing
		// more is sent for this invitation.
		if err := settleDeliveries(tx, inv.Tenant, inv.ID, now); err != nil {
			return err
		}
		if err := s.revokeSiblings(tx, inv, now); err != nil {
			return err
		}
		session = v.Session(now, inv)
		if err := storekit.CheckGuestSession(session, inv); err != nil {
			return err
		}
		row, err := s.codec().GuestSessionRow(&session)
		if err != nil {
			return err
		}
		return translate(tx.Create(&guestSessionRecord{GuestSessionRow: row}).Error)
	})
	if err := storekit.VerificationResult(err, denied); err != nil {
		return models.GuestSession{}, err
	}
	s.changed(change.Task.Tenant, change.Task.ID, change.Task.Revision)
	return session, nil
}

// lockInvitation finds the invitation by its token hash, then locks its task and itself, in
// that order (the order every writer of a task's invitations keeps), and reads it again.
func (s *Store) lockInvitation(tx *gorm.DB, tokenHash string) (models.Invitation, error) {
	var rec invitationRecord
	if err := tx.Where("token_hash = ?", tokenHash).Take(&rec).Error; err != nil {
		return models.Invitation{}, translate(err)
	}
	if err := s.lockTask(tx, rec.TenantID, rec.TaskID); err != nil {
		return models.Invitation{}, err
	}
	if s.dialect != migrations.SQLite {
		res := tx.Model(&invitationRecord{}).Where("tenant_id = ? AND id = ?", rec.TenantID, rec.ID).
			Update("code_attempts", gorm.Expr("code_attempts"))
		if res.Error != nil {
			return models.Invitation{}, translate(res.Error)
		}
		var locked invitationRecord
		if err := tx.Where("tenant_id = ? AND id = ?", rec.TenantID, rec.ID).Take(&locked).Error; err != nil {
			return models.Invitation{}, translate(err)
		}
		rec = locked
	}
	return s.codec().Invitation(&rec.InvitationRow)
}

// setInvitationStatus moves a verifiable invitation to status, stamping column (if any).
func setInvitationStatus(tx *gorm.DB, inv models.Invitation, status models.InvitationStatus, column string, now time.Time) error {
	set := map[string]any{"status": string(status), "updated_at": now}
	if column != "" {
		set[column] = now
	}
	res := tx.Model(&invitationRecord{}).
		Where("tenant_id = ? AND id = ? AND status IN ?", inv.Tenant, inv.ID, verifiableStatuses).Updates(set)
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("%w: invitation status moved", errRetry)
	}
	return nil
}

var verifiableStatuses = []string{string(models.InvitationPending), string(models.InvitationDispatched)}

// countFailedAttempt records a failed proof; the last allowed one revokes the invitation.
func (s *Store) countFailedAttempt(tx *gorm.DB, inv models.Invitation, now time.Time) error {
	attempts := inv.CodeAttempts + 1
	set := map[string]any{"code_attempts": attempts, "updated_at": now}
	if attempts >= models.MaxCodeAttempts {
		set["status"], set["revoked_at"] = string(models.InvitationRevoked), now
	}
	res := tx.Model(&invitationRecord{}).
		Where("tenant_id = ? AND id = ? AND code_attempts = ?", inv.Tenant, inv.ID, inv.CodeAttempts).Updates(set)
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("%w: invitation attempts moved", errRetry)
	}
	if attempts < models.MaxCodeAttempts {
		return nil
	}
	if err := settleDeliveries(tx, inv.Tenant, inv.ID, now); err != nil {
		return err
	}
	return s.appendRevokedEvent(tx, inv, models.RevokedAttemptsExhausted, now)
}

// revokeSiblings revokes the pending or dispatched invitations of inv's sibling group.
func (s *Store) revokeSiblings(tx *gorm.DB, inv models.Invitation, now time.Time) error {
	if inv.SiblingGroupID == "" {
		return nil
	}
	var recs []invitationRecord
	err := tx.Select("id", "tenant_id", "task_id").
		Where("tenant_id = ? AND sibling_group_id = ? AND id <> ? AND status IN ?", inv.Tenant, inv.SiblingGroupID, inv.ID, verifiableStatuses).
		Order("id").Find(&recs).Error
	if err != nil {
		return translate(err)
	}
	for _, r := range recs {
		sib := models.Invitation{ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID}
		if err := setInvitationStatus(tx, sib, models.InvitationRevoked, "revoked_at", now); err != nil {
			return err
		}
		if err := settleDeliveries(tx, sib.Tenant, sib.ID, now); err != nil {
			return err
		}
		if err := s.appendRevokedEvent(tx, sib, models.RevokedSiblingVerified, now); err != nil {
			return err
		}
	}
	return nil
}

// appendRevokedEvent appends the system's invitation-revoked event to the invitation's task.
func (s *Store) appendRevokedEvent(tx *gorm.DB, inv models.Invitation, reason string, now time.Time) error {
	t, err := s.reserveEventSeq(tx, inv.Tenant, inv.TaskID)
	if err != nil {
		return err
	}
	ev, err := models.SystemRevokedInvitation(t, inv.ID, reason, now)
	if err != nil {
		return err
	}
	return s.writeRows(tx, &models.Change{Event: &ev})
}

// GuestAccess reads the session with that credential hash, its invitation and its task. An
// unknown hash is models.ErrNotFound; whether the session is still alive is the caller's
// decision (models.GuestSessionLive), taken with Now.
func (s *Store) GuestAccess(ctx context.Context, tokenHash string) (store.GuestAccess, error) {
	var out store.GuestAccess
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		if out.Now, err = s.dbNow(tx); err != nil {
			return err
		}
		var srec guestSessionRecord
		if err := tx.Where("token_hash = ?", tokenHash).Take(&srec).Error; err != nil {
			return translate(err)
		}
		if out.Session, err = s.codec().GuestSession(&srec.GuestSessionRow); err != nil {
			return err
		}
		var irec invitationRecord
		if err := tx.Where("tenant_id = ? AND id = ?", srec.TenantID, srec.InvitationID).Take(&irec).Error; err != nil {
			return translate(err)
		}
		if out.Invitation, err = s.codec().Invitation(&irec.InvitationRow); err != nil {
			return err
		}
		var trec taskRecord
		if err := tx.Where("tenant_id = ? AND id = ?", srec.TenantID, srec.TaskID).Take(&trec).Error; err != nil {
			return translate(err)
		}
		out.Task, err = s.fromTaskRecord(&trec, false)
		return err
	})
	return out, err
}

// ConsumeInvitation marks a verified invitation consumed after its guest completed the task, and
// revokes its guest sessions. An invitation no longer verified is left as it is.
func (s *Store) ConsumeInvitation(ctx context.Context, tenant, invitationID string) error {
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		err := tx.Model(&invitationRecord{}).
			Where("tenant_id = ? AND id = ? AND status = ?", tenant, invitationID, string(models.InvitationVerified)).
			Updates(map[string]any{"status": string(models.InvitationConsumed), "consumed_at": now, "updated_at": now}).Error
		if err != nil {
			return translate(err)
		}
		err = tx.Model(&guestSessionRecord{}).
			Where("tenant_id = ? AND invitation_id = ? AND revoked_at IS NULL", tenant, invitationID).
			Update("revoked_at", now).Error
		return translate(err)
	})
}
