package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// ExpiredDeliveryCode is the last_error of a delivery dropped because its invitation expired
// before it could be sent (storekit.ExpiredDeliveryCode).
const ExpiredDeliveryCode = storekit.ExpiredDeliveryCode

// ExpireInvitations marks up to limit pending or dispatched invitations whose expiry has passed
// (database clock) expired, and abandons their unsent deliveries (not one leased to a
// dispatcher at this moment: its holder drops it itself), so an expired link is never mailed.
// It answers how many invitations each tenant had expired. Verified, consumed and revoked
// invitations keep their status.
func (s *Store) ExpireInvitations(ctx context.Context, limit int) (map[string]int, error) {
	if limit <= 0 {
		limit = 200
	}
	out := map[string]int{}
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		clear(out)
		live := []string{string(models.InvitationPending), string(models.InvitationDispatched)}
		var rows []struct {
			ID       string `gorm:"column:id"`
			TenantID string `gorm:"column:tenant_id"`
		}
		// ix_invitations_expiry (status, expires_at) serves this.
		if err := tx.Model(&invitationRecord{}).Select("id", "tenant_id").
			Where("status IN ? AND expires_at <= ?", live, now).
			Order("expires_at, id").Limit(limit).Find(&rows).Error; err != nil {
			return translate(err)
		}
		byTenant := map[string][]string{}
		for _, r := range rows {
			byTenant[r.TenantID] = append(byTenant[r.TenantID], r.ID)
		}
		for tenant, ids := range byTenant {
			res := tx.Model(&invitationRecord{}).
				Where("tenant_id = ? AND id IN ? AND status IN ? AND expires_at <= ?", tenant, ids, live, now).
				Updates(map[string]any{"status": string(models.InvitationExpired), "updated_at": now})
			if res.Error != nil {
				return translate(res.Error)
			}
			if res.RowsAffected > 0 {
				out[tenant] = int(res.RowsAffected)
			}
			err := tx.Model(&deliveryRecord{}).
				Where("tenant_id = ? AND invitation_id IN ? AND state = ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)",
					tenant, ids, string(models.DeliveryPending), now).
				Updates(map[string]any{"state": string(models.DeliveryAbandoned), "last_error": ExpiredDeliveryCode, "updated_at": now,
					"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil}).Error
			if err != nil {
				return translate(err)
			}
		}
		return nil
	})
	return out, err
}
