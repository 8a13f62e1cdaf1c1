package repository

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/store"
)

// revocable are the statuses a revocation moves to revoked: an invitation not yet used, and a
// verified one whose guest holds the task (revoking ends the guest's session).
var revocable = []string{string(models.InvitationPending), string(models.InvitationDispatched), string(models.InvitationVerified)}

// RevokeInvitation revokes one invitation of a task in one transaction: the invitation's status
// (guarded, so a verification or another revocation that won the race is not overwritten), its
// pending delivery settled (a dispatcher still holding the row loses its lease and no link goes
// out after the revocation commits), its guest sessions revoked, and the event appended. The
// task itself is left as it is: a guest who held it stays its assignee until a manager acts.
func (s *Store) RevokeInvitation(ctx context.Context, tenant, taskID, invitationID string, build store.RevokeFunc) (models.Invitation, error) {
	var inv models.Invitation
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		t, err := s.reserveEventSeq(tx, tenant, taskID)
		if err != nil {
			return err
		}
		var rec invitationRecord
		if err := tx.Where("tenant_id = ? AND task_id = ? AND id = ?", tenant, taskID, invitationID).Take(&rec).Error; err != nil {
			return translate(err)
		}
		if inv, err = s.codec().Invitation(&rec.InvitationRow); err != nil {
			return err
		}
		ev, err := build(now, t, inv)
		if err != nil {
			return err
		}
		if ev.Seq != t.LastEventSeq+1 || ev.TaskID != taskID || ev.Tenant != tenant {
			return fmt.Errorf("repository: an appended event must follow the task's sequence")
		}
		res := tx.Model(&invitationRecord{}).
			Where("tenant_id = ? AND id = ? AND status IN ?", tenant, invitationID, revocable).
			Updates(map[string]any{"status": string(models.InvitationRevoked), "revoked_at": now, "updated_at": now})
		if res.Error != nil {
			return translate(res.Error)
		}
		if res.RowsAffected != 1 {
			return models.Conflict(models.CodeInvitationNotRevocable)
		}
		if err := settleDeliveries(tx, tenant, invitationID, now); err != nil {
			return err
		}
		err = tx.Table("user_task_guest_sessions").
			Where("tenant_id = ? AND invitation_id = ? AND revoked_at IS NULL", tenant, invitationID).
			Update("revoked_at", now).Error
		if err != nil {
			return translate(err)
		}
		inv.Status, inv.RevokedAt, inv.UpdatedAt = models.InvitationRevoked, &now, now
		return s.writeRows(tx, &models.Change{Event: &ev})
	})
	return inv, err
}

// InvitationDeliveries lists the delivery rows of a task's invitations for the managers'
// listing: state, attempts, last error code and times. The payload is neither read nor opened.
func (s *Store) InvitationDeliveries(ctx context.Context, tenant, taskID string) ([]models.Delivery, error) {
	var recs []deliveryRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Omit("payload_enc").Where("tenant_id = ? AND task_id = ?", tenant, taskID).
			Order("created_at, id").Find(&recs).Error)
	})
	if err != nil {
		return nil, err
	}
	return decodeAll(recs, func(r *deliveryRecord) (models.Delivery, error) { return s.codec().Delivery(&r.DeliveryRow, false) })
}

// settleDeliveries ends the pending delivery of a revoked invitation: no link goes out after a
// revocation, and a dispatcher still holding the row loses its lease.
func settleDeliveries(tx *gorm.DB, tenant, invitationID string, now time.Time) error {
	err := tx.Model(&deliveryRecord{}).
		Where("tenant_id = ? AND invitation_id = ? AND state = ?", tenant, invitationID, string(models.DeliveryPending)).
		Updates(map[string]any{"state": string(models.DeliverySettled), "updated_at": now,
			"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil}).Error
	return translate(err)
}
