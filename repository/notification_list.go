package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
)

// The in-app list (SPEC 10.3): one recipient's shown rows (visible_at set), newest first, in
// ix_notifications_inbox's order (tenant_id, recipient_provider, recipient_type, recipient_id,
// occurred_at, id) walked backwards, the keyset cursor after (occurred_at, id).

// inboxOf narrows q to recipient's shown rows in tenant.
func inboxOf(q *gorm.DB, tenant string, recipient models.ParticipantRef) *gorm.DB {
	return q.Where("tenant_id = ? AND recipient_provider = ? AND recipient_type = ? AND recipient_id = ? AND visible_at IS NOT NULL",
		tenant, recipient.Provider, string(recipient.Type), recipient.ID)
}

// Notifications is a page of q.Recipient's in-app list with their unread count, in one
// snapshot.
func (s *Store) Notifications(ctx context.Context, q models.NotificationQuery) (models.NotificationPage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = models.DefaultPageSize
	}
	limit = min(limit, models.MaxPageSize)
	var page models.NotificationPage
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		page = models.NotificationPage{}
		list := inboxOf(tx.Model(&notificationRecord{}), q.Tenant, q.Recipient)
		if q.UnreadOnly {
			list = list.Where("read_at IS NULL")
		}
		if a := q.After; a != nil {
			at := sqlCodec.Time(a.OccurredAt)
			// occurred_at <= ? bounds the index range; the OR only filters its first entries.
			list = list.Where("occurred_at <= ? AND (occurred_at < ? OR id < ?)", at, at, a.ID)
		}
		var recs []notificationRecord
		if err := list.Order("occurred_at DESC, id DESC").Limit(limit + 1).Find(&recs).Error; err != nil {
			return translate(err)
		}
		if len(recs) > limit {
			recs = recs[:limit]
			last := recs[limit-1]
			page.Next = &models.NotificationCursor{OccurredAt: sqlCodec.Time(last.OccurredAt), ID: last.ID}
		}
		page.Items = make([]models.Notification, len(recs))
		for i := range recs {
			page.Items[i], _ = s.notificationOf(&recs[i])
		}
		var n int64
		if err := inboxOf(tx.Model(&notificationRecord{}), q.Tenant, q.Recipient).Where("read_at IS NULL").Count(&n).Error; err != nil {
			return translate(err)
		}
		page.Unread = int(n)
		return nil
	})
	return page, err
}

// UnreadNotifications counts recipient's shown, unread rows, at most limit of them (the
// database stops there where it reads the bounded shape; SQL Server and Oracle count them all
// and the number is capped here). A limit of 0 or less counts them all.
func (s *Store) UnreadNotifications(ctx context.Context, tenant string, recipient models.ParticipantRef, limit int) (int, error) {
	var n int64
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		unread := func() *gorm.DB {
			return inboxOf(tx.Session(&gorm.Session{NewDB: true}).Model(&notificationRecord{}), tenant, recipient).Where("read_at IS NULL")
		}
		if limit > 0 && s.walksIndexes() {
			return translate(tx.Table("(?) capped", unread().Select("1 AS one").Limit(limit)).Count(&n).Error)
		}
		return translate(unread().Count(&n).Error)
	})
	if limit > 0 && n > int64(limit) {
		n = int64(limit)
	}
	return int(n), err
}

// MarkNotificationsRead marks recipient's shown, unread rows read at the database's time: the
// ids given (another recipient's or tenant's ids, and unknown ones, match nothing), or all.
func (s *Store) MarkNotificationsRead(ctx context.Context, tenant string, recipient models.ParticipantRef, ids []string, all bool) (int, error) {
	if !all && len(ids) == 0 {
		return 0, nil
	}
	changed := 0
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		changed = 0
		mark := func(q *gorm.DB) error {
			res := inboxOf(q.Model(&notificationRecord{}), tenant, recipient).Where("read_at IS NULL").
				Updates(map[string]any{"read_at": now, "updated_at": now})
			changed += int(res.RowsAffected)
			return translate(res.Error)
		}
		if all {
			return mark(tx)
		}
		for start := 0; start < len(ids); start += maxInList {
			if err := mark(tx.Where("id IN ?", ids[start:min(start+maxInList, len(ids))])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return changed, nil
}
