package repository

import (
	"context"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
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

// ClaimNotifications leases up to limit due pending rows, of every tenant, to owner; a claim
// takes at most maxInList rows (the ids it reads back are one IN list).
func (s *Store) ClaimNotifications(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Notification, error) {
	if limit <= 0 {
		return nil, nil
	}
	return claimDue(ctx, s, owner, min(limit, maxInList), leaseFor, s.notificationOf)
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
	TenantID          string     `gorm:"column:tenant_id"`
	RecipientProvider string     `gorm:"column:recipient_provider"`
	RecipientType     string     `gorm:"column:recipient_type"`
	RecipientID       string     `gorm:"column:recipient_id"`
	Oldest            aggregTime `gorm:"column:oldest"`
}

// aggregTime is a time an aggregate (MIN) returns: SQLite's driver knows a column's declared
// TIMESTAMP type only for a plain column, so there the minimum arrives as the stored text.
type aggregTime struct{ time.Time }

// Value is the time (gorm asks a scanned field's type for both directions).
func (a aggregTime) Value() (driver.Value, error) { return a.Time, nil }

// Scan reads a time, or SQLite's stored text of one.
func (a *aggregTime) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		a.Time = v
		return nil
	case []byte:
		return a.parse(string(v))
	case string:
		return a.parse(v)
	}
	return fmt.Errorf("repository: a time aggregate of type %T", src)
}

func (a *aggregTime) parse(s string) error {
	for _, layout := range sqlite3.SQLiteTimestampFormats {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			a.Time = t
			return nil
		}
	}
	return fmt.Errorf("repository: %q is not a stored time", s)
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
		out[i] = store.DigestWaiting{Tenant: r.TenantID, Oldest: sqlCodec.Time(r.Oldest.Time),
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
// are chosen, then leased with one token by an UPDATE repeating the condition, as claimRows —
// in chunks of one IN list each, so a period of more rows than an IN list holds still goes out
// in one digest.
func (s *Store) ClaimDigest(ctx context.Context, owner string, w store.DigestWaiting, before time.Time, limit int, leaseFor time.Duration) ([]models.Notification, error) {
	if limit <= 0 {
		return nil, nil
	}
	before = sqlCodec.Time(before)
	var out []models.Notification
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		out = nil
		token := models.NewID()
		for len(out) < limit {
			chunk := min(limit-len(out), maxInList)
			got, err := s.claimDigestChunk(tx, owner, token, w, before, now, chunk, leaseFor)
			if err != nil {
				return err
			}
			out = append(out, got...)
			if len(got) < chunk {
				break
			}
		}
		return nil
	})
	return out, err
}

// claimDigestChunk leases up to n more of w's free digest rows with token; the rows an earlier
// chunk leased are no longer free, so the chunks never overlap.
func (s *Store) claimDigestChunk(tx *gorm.DB, owner, token string, w store.DigestWaiting, before, now time.Time, n int, leaseFor time.Duration) ([]models.Notification, error) {
	free := func(q *gorm.DB) *gorm.DB {
		return waitingDigest(q, w).Where("occurred_at < ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)", before, now)
	}
	q := free(tx.Model(&notificationRecord{})).Order("occurred_at, id").Limit(n)
	if s.dialect == migrations.Postgres || s.dialect == migrations.MySQL {
		q = q.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"})
	}
	var ids []string
	if err := q.Pluck("id", &ids).Error; err != nil {
		return nil, translate(err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	res := free(tx.Model(&notificationRecord{}).Where("id IN ?", ids)).Updates(map[string]any{
		"lease_owner": owner, "lease_token": token, "lease_generation": gorm.Expr("lease_generation + 1"),
		"lease_expires_at": now.Add(leaseFor), "updated_at": now,
	})
	if res.Error != nil || res.RowsAffected == 0 {
		return nil, translate(res.Error)
	}
	var recs []notificationRecord
	if err := tx.Where("id IN ? AND lease_token = ?", ids, token).Order("occurred_at, id").Find(&recs).Error; err != nil {
		return nil, translate(err)
	}
	return decodeAll(recs, s.notificationOf)
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
