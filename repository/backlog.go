package repository

import (
	"context"
	"database/sql"

	"gorm.io/gorm"

	"usertasks/models"
)

// Backlog reads what waits in the resumption outbox and the invitation delivery outbox, for the
// metrics. Every count is a range of the (state, available_at, id) indexes; delivered rows are
// never counted, so the read stays cheap however long the history.
func (s *Store) Backlog(ctx context.Context) (models.Backlog, error) {
	var b models.Backlog
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		b = models.Backlog{}
		now, err := s.dbNow(tx)
		if err != nil {
			return err
		}
		b.Now = now
		pending := string(models.DeliveryPending)
		var n int64
		if err := tx.Model(&resumptionRecord{}).Where("state = ?", pending).Count(&n).Error; err != nil {
			return translate(err)
		}
		b.ResumptionsPending = int(n)
		var oldest []resumptionRecord
		if err := tx.Select("id", "available_at").Where("state = ?", pending).Order("available_at, id").Limit(1).Find(&oldest).Error; err != nil {
			return translate(err)
		}
		if len(oldest) == 1 {
			b.OldestResumptionDue = oldest[0].AvailableAt.UTC()
		}
		for _, c := range []struct {
			dst   *int
			query func(*gorm.DB) *gorm.DB
		}{
			{&b.DeliveriesPending, func(q *gorm.DB) *gorm.DB { return q.Where("state = ?", pending) }},
			{&b.DeliveriesRetrying, func(q *gorm.DB) *gorm.DB { return q.Where("state = ? AND attempts > 0", pending) }},
			{&b.DeliveriesAbandoned, func(q *gorm.DB) *gorm.DB { return q.Where("state = ?", string(models.DeliveryAbandoned)) }},
		} {
			if err := c.query(tx.Model(&deliveryRecord{})).Count(&n).Error; err != nil {
				return translate(err)
			}
			*c.dst = int(n)
		}
		return nil
	})
	return b, err
}

// Pools names the store's connection pools for their statistics: "main" where one pool serves
// reads and writes, "write" and "read" for SQLite's single writer and its readers.
func (s *Store) Pools() map[string]*sql.DB {
	switch len(s.pools) {
	case 1:
		return map[string]*sql.DB{"main": s.pools[0]}
	case 2:
		return map[string]*sql.DB{"write": s.pools[0], "read": s.pools[1]}
	}
	return nil
}
