package repository

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// Invitations keep only the token's hash; the raw token (and a verification code) travels to
// the dispatcher through the delivery outbox, sealed, and is opened only for a dispatch attempt.

const (
	colRecipient       = "recipient_enc"
	colDeliveryPayload = "payload_enc"
)

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
		if count >= models.MaxInvitationsPerTask {
			return models.InvalidField("invitations", fmt.Sprintf("a task holds at most %d invitations", models.MaxInvitationsPerTask))
		}
		var d models.Delivery
		var ev models.Event
		if inv, d, ev, err = build(now, t); err != nil {
			return err
		}
		if inv.Tenant != tenant || inv.TaskID != taskID || d.InvitationID != inv.ID || d.Tenant != tenant || d.TaskID != taskID {
			return fmt.Errorf("repository: invitation rows name another task")
		}
		if ev.Seq != t.LastEventSeq+1 || ev.TaskID != taskID {
			return fmt.Errorf("repository: an appended event must follow the task's sequence")
		}
		irec, err := s.invitationRecordOf(&inv)
		if err != nil {
			return err
		}
		if err := tx.Create(&irec).Error; err != nil {
			return translate(err)
		}
		drec, err := s.deliveryRecordOf(&d)
		if err != nil {
			return err
		}
		if err := tx.Create(&drec).Error; err != nil {
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
		inv, err = s.invitationFromRecord(&rec)
		return err
	})
	return inv, err
}

// Invitations lists a task's invitations, newest first.
func (s *Store) Invitations(ctx context.Context, tenant, taskID string) ([]models.Invitation, error) {
	var out []models.Invitation
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var recs []invitationRecord
		if err := tx.Where("tenant_id = ? AND task_id = ?", tenant, taskID).Order("issued_at DESC, id DESC").Find(&recs).Error; err != nil {
			return translate(err)
		}
		for i := range recs {
			inv, err := s.invitationFromRecord(&recs[i])
			if err != nil {
				return err
			}
			out = append(out, inv)
		}
		return nil
	})
	return out, err
}

// ClaimDeliveries leases up to limit due deliveries to owner and opens their payloads for
// this dispatch attempt only.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Delivery, error) {
	var out []models.Delivery
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		out = nil
		leases, err := s.claimRows(tx, &deliveryRecord{}, now, owner, limit, leaseFor)
		if err != nil || len(leases) == 0 {
			return err
		}
		ids := make([]string, 0, len(leases))
		for id := range leases {
			ids = append(ids, id)
		}
		var recs []deliveryRecord
		if err := tx.Where("id IN ?", ids).Order("available_at, id").Find(&recs).Error; err != nil {
			return translate(err)
		}
		for i := range recs {
			d, err := s.deliveryFromRecord(&recs[i])
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	return out, err
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
			"state": string(state), "attempts": attempts, "available_at": now.Add(delay), "last_error": opt(errCode),
			"updated_at": now, "lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		return leaseResult(res)
	})
	return attempts, err
}

func (s *Store) invitationRecordOf(inv *models.Invitation) (invitationRecord, error) {
	actions, err := json.Marshal(inv.AllowedActions)
	if err != nil {
		return invitationRecord{}, err
	}
	by := storekit.RefColumnsOf(inv.IssuedBy)
	rec := invitationRecord{
		ID: inv.ID, TenantID: inv.Tenant, TaskID: inv.TaskID, SiblingGroupID: opt(inv.SiblingGroupID),
		VerifierName: inv.VerifierName, AllowedActions: string(actions), BearerOnly: inv.BearerOnly,
		TokenHash: inv.TokenHash, CodeHash: opt(inv.CodeHash), CodeAttempts: inv.CodeAttempts, Status: string(inv.Status),
		IssuedByProvider: by.Provider, IssuedByType: by.Type, IssuedByID: by.ID,
		IssuedAt: utc(inv.IssuedAt), ExpiresAt: utc(inv.ExpiresAt), DispatchedAt: utcPtr(inv.DispatchedAt),
		VerifiedAt: utcPtr(inv.VerifiedAt), ConsumedAt: utcPtr(inv.ConsumedAt), RevokedAt: utcPtr(inv.RevokedAt),
		UpdatedAt: utc(inv.UpdatedAt),
	}
	rec.RecipientEnc, err = s.seal(inv.ID, colRecipient, []byte(inv.Recipient))
	return rec, err
}

func (s *Store) invitationFromRecord(r *invitationRecord) (models.Invitation, error) {
	inv := models.Invitation{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, SiblingGroupID: str(r.SiblingGroupID),
		VerifierName: r.VerifierName, BearerOnly: r.BearerOnly, TokenHash: r.TokenHash, CodeHash: str(r.CodeHash),
		CodeAttempts: r.CodeAttempts, Status: models.InvitationStatus(r.Status),
		IssuedBy: storekit.RefFrom(r.TenantID, r.IssuedByProvider, r.IssuedByType, r.IssuedByID, nil),
		IssuedAt: utc(r.IssuedAt), ExpiresAt: utc(r.ExpiresAt), DispatchedAt: utcPtr(r.DispatchedAt),
		VerifiedAt: utcPtr(r.VerifiedAt), ConsumedAt: utcPtr(r.ConsumedAt), RevokedAt: utcPtr(r.RevokedAt),
		UpdatedAt: utc(r.UpdatedAt),
	}
	if err := json.Unmarshal([]byte(r.AllowedActions), &inv.AllowedActions); err != nil {
		return inv, &models.CorruptError{TaskID: r.TaskID, Reason: "invitation allowed actions do not decode"}
	}
	recipient, err := s.open(r.TaskID, r.ID, colRecipient, r.RecipientEnc)
	inv.Recipient = string(recipient)
	return inv, err
}

func (s *Store) deliveryRecordOf(d *models.Delivery) (deliveryRecord, error) {
	payload, err := s.seal(d.ID, colDeliveryPayload, d.Payload)
	if err != nil {
		return deliveryRecord{}, err
	}
	if payload == nil {
		return deliveryRecord{}, fmt.Errorf("repository: a delivery needs a payload")
	}
	rec := deliveryRecord{
		ID: d.ID, TenantID: d.Tenant, TaskID: d.TaskID, InvitationID: d.InvitationID, Dispatcher: d.Dispatcher,
		PayloadEnc: *payload, Attempts: d.Attempts, State: string(models.DeliveryPending),
		AvailableAt: utc(d.AvailableAt), ExpiresAt: utc(d.ExpiresAt), LastError: opt(d.LastError),
		IdempotencyKey: d.IdempotencyKey, CreatedAt: utc(d.CreatedAt), UpdatedAt: utc(d.UpdatedAt),
	}
	if len(d.Metadata) > 0 {
		rec.Metadata = opt(string(d.Metadata))
	}
	return rec, nil
}

func (s *Store) deliveryFromRecord(r *deliveryRecord) (models.Delivery, error) {
	d := models.Delivery{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, InvitationID: r.InvitationID, Dispatcher: r.Dispatcher,
		Attempts: r.Attempts, State: models.DeliveryState(r.State), AvailableAt: utc(r.AvailableAt),
		ExpiresAt: utc(r.ExpiresAt), LastError: str(r.LastError), IdempotencyKey: r.IdempotencyKey,
		Lease: leaseOf(r.LeaseColumns), CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt),
	}
	if r.Metadata != nil {
		d.Metadata = json.RawMessage(*r.Metadata)
	}
	var err error
	d.Payload, err = s.open(r.TaskID, r.ID, colDeliveryPayload, &r.PayloadEnc)
	return d, err
}
