package repository

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// Both outbox tables (resumptions and invitation deliveries) are claimed the same way: due
// pending rows whose lease is absent or expired by the database clock get a new lease with a
// fresh token (one per claim) and the next generation, through an UPDATE that repeats the due
// condition. A holder can only acknowledge or reschedule while its exact lease (row, token,
// generation, unexpired) is still live.

// claimRows leases up to limit due rows of model's table to owner in one UPDATE: a token for
// the claim, the next generation of each row, the expiry by the database clock. The UPDATE
// repeats the due condition, so a row another node leased since the SELECT (where SKIP LOCKED
// is missing) stays theirs; the claim's rows are then those carrying its token. One UPDATE for
// the batch, where each row had its own until issue 27: a full batch of 50 sent 52 statements
// while holding the rows' locks, 3 now.
func (s *Store) claimRows(tx *gorm.DB, model any, now time.Time, owner string, limit int, leaseFor time.Duration) (string, []string, error) {
	due := func(q *gorm.DB) *gorm.DB {
		return q.Where("state = ? AND available_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)", string(models.DeliveryPending), now, now)
	}
	q := due(tx.Model(model).Select("id")).Order("available_at, id").Limit(limit)
	if s.dialect == migrations.Postgres || s.dialect == migrations.MySQL {
		// Skip rows another node is claiming; elsewhere the due condition of the UPDATE below
		// alone keeps claims exclusive.
		q = q.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"})
	}
	var ids []string
	if err := q.Pluck("id", &ids).Error; err != nil {
		return "", nil, translate(err)
	}
	if len(ids) == 0 {
		return "", nil, nil
	}
	token := models.NewID()
	res := due(tx.Model(model).Where("id IN ?", ids)).Updates(map[string]any{
		"lease_owner": owner, "lease_token": token, "lease_generation": gorm.Expr("lease_generation + 1"),
		"lease_expires_at": now.Add(leaseFor), "updated_at": now,
	})
	if res.Error != nil {
		return "", nil, translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return "", nil, nil
	}
	return token, ids, nil
}

// claimDue leases up to limit due rows of R's table to owner (claimRows), reads the leased rows
// back in due order and decodes them, in one write transaction.
func claimDue[R, T any](ctx context.Context, s *Store, owner string, limit int, leaseFor time.Duration, decode func(*R) (T, error)) ([]T, error) {
	var out []T
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		out = nil
		token, ids, err := s.claimRows(tx, new(R), now, owner, limit, leaseFor)
		if err != nil || len(ids) == 0 {
			return err
		}
		var recs []R
		if err := tx.Where("id IN ? AND lease_token = ?", ids, token).Order("available_at, id").Find(&recs).Error; err != nil {
			return translate(err)
		}
		out, err = decodeAll(recs, decode)
		return err
	})
	return out, err
}

// fenced narrows an update to the exact live lease.
func fenced(tx *gorm.DB, model any, id string, l *models.Lease, now time.Time) *gorm.DB {
	if l == nil {
		l = &models.Lease{}
	}
	return tx.Model(model).Where("id = ? AND state = ? AND lease_token = ? AND lease_generation = ? AND lease_expires_at > ?",
		id, string(models.DeliveryPending), l.Token, l.Generation, now)
}

func resumptionFromRecord(r *resumptionRecord) models.Resumption {
	return sqlCodec.Resumption(&r.ResumptionRow)
}

// ClaimResumptions leases up to limit due resumption rows, of every tenant, to owner.
func (s *Store) ClaimResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Resumption, error) {
	return claimDue(ctx, s, owner, limit, leaseFor, func(r *resumptionRecord) (models.Resumption, error) {
		return resumptionFromRecord(r), nil
	})
}

// AckResumption marks a claimed row delivered. A stale lease fails with ErrLeaseLost.
func (s *Store) AckResumption(ctx context.Context, r models.Resumption) error {
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := fenced(tx, &resumptionRecord{}, r.ID, r.Lease, now).Updates(map[string]any{
			"state": string(models.DeliveryDelivered), "delivered_at": now, "updated_at": now,
			"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		return leaseResult(res)
	})
}

// RetryResumption records a failed attempt and makes the row due again after delay; it
// returns the attempt count. A stale lease fails with ErrLeaseLost.
func (s *Store) RetryResumption(ctx context.Context, r models.Resumption, delay time.Duration, errCode string) (int, error) {
	attempts := r.Attempts + 1
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := fenced(tx, &resumptionRecord{}, r.ID, r.Lease, now).Updates(map[string]any{
			"attempts": attempts, "available_at": now.Add(delay), "last_error": storekit.Opt(errCode), "updated_at": now,
			"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		return leaseResult(res)
	})
	return attempts, err
}

// Resumptions lists a task's outbox rows, oldest first.
func (s *Store) Resumptions(ctx context.Context, tenant, taskID string) ([]models.Resumption, error) {
	var recs []resumptionRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Where("tenant_id = ? AND task_id = ?", tenant, taskID).Order("created_at, id").Find(&recs).Error)
	})
	out := make([]models.Resumption, 0, len(recs))
	for i := range recs {
		out = append(out, resumptionFromRecord(&recs[i]))
	}
	return out, err
}

func leaseResult(res *gorm.DB) error {
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected != 1 {
		return models.ErrLeaseLost
	}
	return nil
}
