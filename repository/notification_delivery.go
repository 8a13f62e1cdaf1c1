package repository

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// The delivery worker leases pending notifications as the outboxes lease their rows
// (claimRows: state pending, due, lease free or expired; ix_notifications_due); the digest
// worker leases one recipient's rows whose email waits for the digest, whatever their state,
// through the same lease columns, so the two never hold a row at once.

func (s *Store) notificationOf(r *notificationRecord) (models.Notification, error) {
	return sqlCodec.Notification(&r.NotificationRow), nil
}

// ClaimNotifications leases up to limit due pending rows, of every tenant, to owner.
func (s *Store) ClaimNotifications(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Notification, error) {
	if limit <= 0 {
		return nil, nil
	}
	return claimDue(ctx, s, owner, limit, leaseFor, s.notificationOf)
}

// SettleNotification writes the outcome for the leased row n and frees its lease. A sent
// channel stays sent and a shown row keeps when it was first shown (n is the row as leased,
// and the fence proves nothing changed since). A pending outcome counts an attempt and makes
// the row due again after out.RetryAfter; a final one counts the attempt too.
func (s *Store) SettleNotification(ctx context.Context, n models.Notification, out models.NotificationOutcome) error {
	switch out.State {
	case models.NotificationPending, models.NotificationDone, models.NotificationDropped, models.NotificationFailed:
	default:
		return fmt.Errorf("repository: unknown notification state %q", out.State)
	}
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		set := map[string]any{
			"state": string(out.State), "attempts": n.Attempts + 1, "last_error": storekit.NotificationErrorCode(out.ErrorCode),
			"email_state":   storekit.Opt(string(keepSent(n.Email, out.Email))),
			"webhook_state": storekit.Opt(string(keepSent(n.Webhook, out.Webhook))),
			"updated_at":    now, "lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		}
		if out.State == models.NotificationPending {
			set["available_at"] = now.Add(max(out.RetryAfter, 0))
		}
		if out.Visible && n.VisibleAt == nil {
			set["visible_at"] = now
		}
		return leaseResult(fenced(tx, &notificationRecord{}, n.ID, n.Lease, now).Updates(set))
	})
}

// keepSent is a channel's state after an attempt: a sent channel stays sent.
func keepSent(before, after models.ChannelState) models.ChannelState {
	if before == models.ChannelSent {
		return before
	}
	return after
}

// digestRow is a recipient waiting for their digest, as grouped.
type digestRow struct {
	TenantID          string    `gorm:"column:tenant_id"`
	RecipientProvider string    `gorm:"column:recipient_provider"`
	RecipientType     string    `gorm:"column:recipient_type"`
	RecipientID       string    `gorm:"column:recipient_id"`
	Oldest            time.Time `gorm:"column:oldest"`
}

// DigestsWaiting lists up to limit recipients whose emails wait for their digest, each with
// its oldest waiting row, oldest first (one walk of ix_notifications_digest's email_state
// range, grouped on its next columns).
func (s *Store) DigestsWaiting(ctx context.Context, limit int) ([]store.DigestWaiting, error) {
	if limit <= 0 {
		return nil, nil
	}
	var rows []digestRow
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Model(&notificationRecord{}).
			Select("tenant_id, recipient_provider, recipient_type, recipient_id, MIN(occurred_at) AS oldest").
			Where("email_state = ?", string(models.ChannelDigest)).
			Group("tenant_id, recipient_provider, recipient_type, recipient_id").
			Order("oldest, tenant_id, recipient_provider, recipient_type, recipient_id").Limit(limit).Scan(&rows).Error)
	})
	if err != nil {
		return nil, err
	}
	out := make([]store.DigestWaiting, len(rows))
	for i, r := range rows {
		out[i] = store.DigestWaiting{Tenant: r.TenantID, Oldest: sqlCodec.Time(r.Oldest),
			Recipient: models.ParticipantRef{Tenant: r.TenantID, Provider: r.RecipientProvider, Type: models.ParticipantType(r.RecipientType), ID: r.RecipientID}}
	}
	return out, nil
}

// waitingDigest narrows q to w's rows whose email waits for the digest.
func waitingDigest(q *gorm.DB, w store.DigestWaiting) *gorm.DB {
	return q.Where("email_state = ? AND tenant_id = ? AND recipient_provider = ? AND recipient_type = ? AND recipient_id = ?",
		string(models.ChannelDigest), w.Tenant, w.Recipient.Provider, string(w.Recipient.Type), w.Recipient.ID)
}

// ClaimDigest leases up to limit of w's rows waiting for the digest that occurred before
// before and whose lease is free or expired, oldest first, in one write transaction: the ids
// are chosen, then leased with one token by an UPDATE repeating the condition, as claimRows.
func (s *Store) ClaimDigest(ctx context.Context, owner string, w store.DigestWaiting, before time.Time, limit int, leaseFor time.Duration) ([]models.Notification, error) {
	if limit <= 0 {
		return nil, nil
	}
	before = sqlCodec.Time(before)
	var out []models.Notification
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		out = nil
		free := func(q *gorm.DB) *gorm.DB {
			return waitingDigest(q, w).Where("occurred_at < ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)", before, now)
		}
		q := free(tx.Model(&notificationRecord{})).Order("occurred_at, id").Limit(limit)
		if s.dialect == migrations.Postgres || s.dialect == migrations.MySQL {
			q = q.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"})
		}
		var ids []string
		if err := q.Pluck("id", &ids).Error; err != nil {
			return translate(err)
		}
		if len(ids) == 0 {
			return nil
		}
		token := models.NewID()
		res := free(tx.Model(&notificationRecord{}).Where("id IN ?", ids)).Updates(map[string]any{
			"lease_owner": owner, "lease_token": token, "lease_generation": gorm.Expr("lease_generation + 1"),
			"lease_expires_at": now.Add(leaseFor), "updated_at": now,
		})
		if res.Error != nil || res.RowsAffected == 0 {
			return translate(res.Error)
		}
		var recs []notificationRecord
		if err := tx.Where("id IN ? AND lease_token = ?", ids, token).Order("occurred_at, id").Find(&recs).Error; err != nil {
			return translate(err)
		}
		var err error
		out, err = decodeAll(recs, s.notificationOf)
		return err
	})
	return out, err
}

// SettleDigest marks the leased digest rows digested and frees them, all or none: a row whose
// lease went stale fails the whole settlement with models.ErrLeaseLost.
func (s *Store) SettleDigest(ctx context.Context, ns []models.Notification) error {
	if len(ns) == 0 {
		return nil
	}
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		for _, n := range ns {
			l := n.Lease
			if l == nil {
				l = &models.Lease{}
			}
			res := tx.Model(&notificationRecord{}).
				Where("id = ? AND email_state = ? AND lease_token = ? AND lease_generation = ? AND lease_expires_at > ?",
					n.ID, string(models.ChannelDigest), l.Token, l.Generation, now).
				Updates(map[string]any{"email_state": string(models.ChannelDigested), "updated_at": now,
					"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil})
			if err := leaseResult(res); err != nil {
				return err
			}
		}
		return nil
	})
}
