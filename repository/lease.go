package repository

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// AcquireLease takes the named singleton lease (reconciliation, due sweep) for ttl when it is
// free or expired by the database clock. Held by another live owner: ErrLeaseLost.
func (s *Store) AcquireLease(ctx context.Context, name, owner string, ttl time.Duration) (models.Lease, error) {
	var lease models.Lease
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		var rec leaseRecord
		err := translate(tx.Where("lease_name = ?", name).Take(&rec).Error)
		taken := err == nil
		if !taken && !errors.Is(err, errNoRows) {
			return err
		}
		var cur *storekit.LeaseRow
		if taken {
			cur = &rec.LeaseRow
		}
		if lease, err = s.codec().NextLease(cur, owner, now, ttl); err != nil {
			return err
		}
		if !taken {
			err := translate(tx.Create(&leaseRecord{LeaseRow: s.codec().LeaseRow(name, lease, now)}).Error)
			if errors.Is(err, errDuplicate) {
				return fmt.Errorf("%w: lease created concurrently", errRetry)
			}
			return err
		}
		res := tx.Model(&leaseRecord{}).Where("lease_name = ? AND lease_generation = ?", name, rec.LeaseGeneration).
			Updates(map[string]any{"lease_owner": owner, "lease_token": lease.Token, "lease_generation": lease.Generation,
				"lease_expires_at": lease.ExpiresAt, "updated_at": now})
		return leaseResult(res)
	})
	return lease, err
}

// RenewLease extends a live lease by ttl from now; a lost or expired lease is ErrLeaseLost.
func (s *Store) RenewLease(ctx context.Context, name string, l models.Lease, ttl time.Duration) (models.Lease, error) {
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		l.ExpiresAt = now.Add(ttl)
		res := tx.Model(&leaseRecord{}).
			Where("lease_name = ? AND lease_token = ? AND lease_generation = ? AND lease_expires_at > ?", name, l.Token, l.Generation, now).
			Updates(map[string]any{"lease_expires_at": l.ExpiresAt, "updated_at": now})
		return leaseResult(res)
	})
	return l, err
}

// ReleaseLease gives a lease up at once so another node can take it.
func (s *Store) ReleaseLease(ctx context.Context, name string, l models.Lease) error {
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := tx.Model(&leaseRecord{}).Where("lease_name = ? AND lease_token = ? AND lease_generation = ?", name, l.Token, l.Generation).
			Updates(map[string]any{"lease_expires_at": now, "updated_at": now})
		return leaseResult(res)
	})
}
