package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// Invitations keep only the token's hash; the raw token (and a verification code) travels to
// the dispatcher through the delivery outbox, sealed, and is opened only for a dispatch attempt.

// IssueInvitation writes an invitation, its sealed delivery and its event in one transaction.
// A task holds at most models.MaxInvitationsPerTask invitations.
func (s *Store) IssueInvitation(ctx context.Context, tenant, taskID string, build store.IssueFunc) (models.Invitation, error) {
	var inv models.Invitation
	revision := 0
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		t, err := s.reserveEventSeq(tx, tenant, taskID)
		if err != nil {
			return err
		}
		var count int64
		if err := tx.Model(&invitationRecord{}).Where("tenant_id = ? AND task_id = ?", tenant, taskID).Count(&count).Error; err != nil {
			return translate(err)
		}
		if err := storekit.CheckInvitationRoom(count); err != nil {
			return err
		}
		var d models.Delivery
		var ev models.Event
		if inv, d, ev, err = build(now, t); err != nil {
			return err
		}
		if err := storekit.CheckIssued(t, inv, d, ev); err != nil {
			return err
		}
		irow, err := s.codec().InvitationRow(&inv)
		if err != nil {
			return err
		}
		if err := tx.Create(&invitationRecord{InvitationRow: irow}).Error; err != nil {
			return translate(err)
		}
		drow, err := s.codec().DeliveryRow(&d)
		if err != nil {
			return err
		}
		if err := tx.Create(&deliveryRecord{DeliveryRow: drow}).Error; err != nil {
			return translate(err)
		}
		revision = t.Revision
		return s.writeRows(tx, &models.Change{Event: &ev})
	})
	if err == nil {
		// After the commit: live pages show the invitation, and this node's delivery worker
		// sends it at once instead of on its next poll.
		s.changed(tenant, taskID, revision)
		s.deliveryQueued()
	}
	return inv, err
}

// reserveEventSeq takes the task's next event sequence number (locking the row) and returns
// the task as it was before, without protected content.
func (s *Store) reserveEventSeq(tx *gorm.DB, tenant, taskID string) (models.Task, error) {
	res := tx.Model(&taskRecord{}).Where("tenant_id = ? AND id = ?", tenant, taskID).
		Update("last_event_seq", gorm.Expr("last_event_seq + 1"))
	if res.Error != nil {
		return models.Task{}, translate(res.Error)
	}
	if res.RowsAffected != 1 {
		return models.Task{}, errNoRows
	}
	var rec taskRecord
	if err := tx.Where("tenant_id = ? AND id = ?", tenant, taskID).Take(&rec).Error; err != nil {
		return models.Task{}, translate(err)
	}
	rec.LastEventSeq--
	return s.fromTaskRecord(&rec, false)
}

// FindInvitationByTokenHash looks an invitation up by the SHA-256 hash of its token. The hash
// is unique across tenants; the invitation names its tenant.
func (s *Store) FindInvitationByTokenHash(ctx context.Context, tokenHash string) (models.Invitation, error) {
	var inv models.Invitation
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var rec invitationRecord
		if err := tx.Where("token_hash = ?", tokenHash).Take(&rec).Error; err != nil {
			return translate(err)
		}
		var err error
		inv, err = s.codec().Invitation(&rec.InvitationRow)
		return err
	})
	return inv, err
}

// Invitations lists a task's invitations, newest first.
func (s *Store) Invitations(ctx context.Context, tenant, taskID string) ([]models.Invitation, error) {
	var recs []invitationRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Where("tenant_id = ? AND task_id = ?", tenant, taskID).Order("issued_at DESC, id DESC").Find(&recs).Error)
	})
	if err != nil {
		return nil, err
	}
	return decodeAll(recs, func(r *invitationRecord) (models.Invitation, error) { return s.codec().Invitation(&r.InvitationRow) })
}

// ClaimDeliveries leases up to limit due deliveries to owner and opens their payloads for
// this dispatch attempt only.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Delivery, error) {
	return claimDue(ctx, s, owner, limit, leaseFor, func(r *deliveryRecord) (models.Delivery, error) {
		return s.codec().Delivery(&r.DeliveryRow, true)
	})
}

// AckDelivery marks a claimed delivery delivered and its invitation dispatched, together.
// A stale lease fails with ErrLeaseLost.
func (s *Store) AckDelivery(ctx context.Context, d models.Delivery) error {
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := fenced(tx, &deliveryRecord{}, d.ID, d.Lease, now).Updates(map[string]any{
			"state": string(models.DeliveryDelivered), "updated_at": now, "attempts": d.Attempts + 1,
			"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		if err := leaseResult(res); err != nil {
			return err
		}
		err := tx.Model(&invitationRecord{}).
			Where("tenant_id = ? AND id = ? AND status = ?", d.Tenant, d.InvitationID, string(models.InvitationPending)).
			Updates(map[string]any{"status": string(models.InvitationDispatched), "dispatched_at": now, "updated_at": now}).Error
		return translate(err)
	})
}

// RetryDelivery records a failed attempt: due again after delay, or abandoned when abandon is
// set (the dispatcher's retry schedule is exhausted). A stale lease fails with ErrLeaseLost.
func (s *Store) RetryDelivery(ctx context.Context, d models.Delivery, delay time.Duration, errCode string, abandon bool) (int, error) {
	attempts := d.Attempts + 1
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		state := models.DeliveryPending
		if abandon {
			state = models.DeliveryAbandoned
		}
		res := fenced(tx, &deliveryRecord{}, d.ID, d.Lease, now).Updates(map[string]any{
			"state": string(state), "attempts": attempts, "available_at": now.Add(delay), "last_error": storekit.Opt(errCode),
			"updated_at": now, "lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		return leaseResult(res)
	})
	return attempts, err
}
