package repository

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// Default deadline policies (migration 00020): a row per (tenant, workflow definition) that a
// delete empties rather than removes, and an audit row per revision, written in the same
// transaction as the change it records.

type deadlinePolicyRecord struct {
	storekit.DeadlinePolicyRow `gorm:"embedded"`
}

func (deadlinePolicyRecord) TableName() string { return "user_task_deadline_policies" }

type policyAuditRecord struct {
	storekit.DeadlinePolicyAuditRow `gorm:"embedded"`
}

func (policyAuditRecord) TableName() string { return "user_task_policy_audit" }

// policyKey narrows q to the row of definitionID in tenant (the primary key).
func policyKey(q *gorm.DB, tenant, definitionID string) *gorm.DB {
	return q.Where("tenant_id = ? AND workflow_definition_id = ?", tenant, definitionID)
}

// findPolicy reads the row of definitionID in tenant, deleted or not; nil when there is none.
func findPolicy(tx *gorm.DB, tenant, definitionID string) (*deadlinePolicyRecord, error) {
	var recs []deadlinePolicyRecord
	if err := policyKey(tx, tenant, definitionID).Limit(1).Find(&recs).Error; err != nil {
		return nil, translate(err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	return &recs[0], nil
}

// DeadlinePolicy returns the live policy of definitionID in tenant.
func (s *Store) DeadlinePolicy(ctx context.Context, tenant, definitionID string) (models.DeadlinePolicy, error) {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return models.DeadlinePolicy{}, models.ErrNotFound
	}
	var out models.DeadlinePolicy
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		rec, err := findPolicy(tx, tenant, definitionID)
		if err != nil {
			return err
		}
		if rec == nil || !rec.Live() {
			return models.ErrNotFound
		}
		out, err = s.codec().DeadlinePolicy(&rec.DeadlinePolicyRow)
		return err
	})
	return out, err
}

// PutDeadlinePolicy writes the next revision of the policy when the stored one is expected:
// a first put inserts (a racing first put loses on the primary key: a revision conflict), a
// later one updates guarded by the revision it read, so of two puts expecting the same
// revision one finds the row changed and writes nothing.
func (s *Store) PutDeadlinePolicy(ctx context.Context, p models.DeadlinePolicy, expected int) (models.DeadlinePolicy, error) {
	p, err := storekit.CheckDeadlinePolicy(p)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	var out models.DeadlinePolicy
	err = s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		cur, err := findPolicy(tx, p.Tenant, p.DefinitionID)
		if err != nil {
			return err
		}
		var stored *storekit.DeadlinePolicyRow
		if cur != nil {
			stored = &cur.DeadlinePolicyRow
		}
		next, err := storekit.NextPolicyRevision(stored, expected, models.DeadlinePolicyPut)
		if err != nil {
			return err
		}
		row, err := s.codec().DeadlinePolicyRow(&p, next, now)
		if err != nil {
			return err
		}
		if err := s.writePolicyRow(tx, stored, row); err != nil {
			return err
		}
		if err := translate(tx.Create(&policyAuditRecord{storekit.PolicyAuditRow(row, models.DeadlinePolicyPut)}).Error); err != nil {
			return err
		}
		out, err = s.codec().DeadlinePolicy(&row)
		return err
	})
	return out, err
}

// DeleteDeadlinePolicy empties the policy's row (keeping its revision) and records the delete.
func (s *Store) DeleteDeadlinePolicy(ctx context.Context, tenant, definitionID string, expected int, actor models.ParticipantRef) error {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return models.ErrNotFound
	}
	if err := storekit.CheckPerson(tenant, actor); err != nil {
		return err
	}
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		cur, err := findPolicy(tx, tenant, definitionID)
		if err != nil {
			return err
		}
		if cur == nil {
			return models.ErrNotFound
		}
		next, err := storekit.NextPolicyRevision(&cur.DeadlinePolicyRow, expected, models.DeadlinePolicyDelete)
		if err != nil {
			return err
		}
		row := s.codec().DeletedPolicyRow(cur.DeadlinePolicyRow, actor, next, now)
		if err := s.writePolicyRow(tx, &cur.DeadlinePolicyRow, row); err != nil {
			return err
		}
		return translate(tx.Create(&policyAuditRecord{storekit.PolicyAuditRow(row, models.DeadlinePolicyDelete)}).Error)
	})
}

// writePolicyRow inserts row (stored nil) or replaces stored with it, guarded by stored's
// revision: a row inserted or changed meanwhile is a revision conflict.
func (s *Store) writePolicyRow(tx *gorm.DB, stored *storekit.DeadlinePolicyRow, row storekit.DeadlinePolicyRow) error {
	if stored == nil {
		err := translate(tx.Create(&deadlinePolicyRecord{row}).Error)
		if errors.Is(err, errDuplicate) {
			return models.Conflict(models.CodeRevisionConflict)
		}
		return err
	}
	res := policyKey(tx.Model(&deadlinePolicyRecord{}), row.TenantID, row.DefinitionID).Where("revision = ?", stored.Revision).
		Updates(map[string]any{
			"deadlines_json": row.DeadlinesJSON, "revision": row.Revision, "changed_by_provider": row.ChangedByProvider,
			"changed_by_type": row.ChangedByType, "changed_by_id": row.ChangedByID, "changed_by_display": row.ChangedByDisplay,
			"updated_at": row.UpdatedAt,
		})
	if err := translate(res.Error); err != nil {
		return err
	}
	if res.RowsAffected == 0 {
		return models.Conflict(models.CodeRevisionConflict)
	}
	return nil
}

// DeadlinePolicies pages the tenant's live policies along the primary key.
func (s *Store) DeadlinePolicies(ctx context.Context, tenant, after string, limit int) ([]models.DeadlinePolicy, error) {
	if tenant == "" || len(tenant) > models.MaxTenantLength {
		return nil, nil
	}
	limit = storekit.PolicyPageLimit(limit)
	var out []models.DeadlinePolicy
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		q := tx.Where("tenant_id = ? AND deadlines_json IS NOT NULL", tenant)
		if after != "" {
			q = q.Where("workflow_definition_id > ?", after)
		}
		var recs []deadlinePolicyRecord
		if err := q.Order("workflow_definition_id").Limit(limit).Find(&recs).Error; err != nil {
			return translate(err)
		}
		out = make([]models.DeadlinePolicy, 0, len(recs))
		for i := range recs {
			p, err := s.codec().DeadlinePolicy(&recs[i].DeadlinePolicyRow)
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// DeadlinePolicyAudit reads the definition's audit rows backwards along the primary key.
func (s *Store) DeadlinePolicyAudit(ctx context.Context, tenant, definitionID string, limit int) ([]models.DeadlinePolicyChange, error) {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return []models.DeadlinePolicyChange{}, nil
	}
	limit = storekit.PolicyAuditLimit(limit)
	var out []models.DeadlinePolicyChange
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var recs []policyAuditRecord
		if err := policyKey(tx, tenant, definitionID).Order("revision DESC").Limit(limit).Find(&recs).Error; err != nil {
			return translate(err)
		}
		out = make([]models.DeadlinePolicyChange, 0, len(recs))
		for i := range recs {
			c, err := s.codec().DeadlinePolicyChange(&recs[i].DeadlinePolicyAuditRow)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return nil
	})
	return out, err
}

// policiesIn reads a definition's live policy inside tx, for the creation being written there
// (storekit.ApplyDeadlinePolicy): one primary-key read.
func (s *Store) policiesIn(tx *gorm.DB) storekit.DeadlinePolicyLookup {
	return func(tenant, definitionID string) (*models.DeadlinePolicy, error) {
		rec, err := findPolicy(tx, tenant, definitionID)
		if err != nil || rec == nil || !rec.Live() {
			return nil, err
		}
		p, err := s.codec().DeadlinePolicy(&rec.DeadlinePolicyRow)
		if err != nil {
			return nil, err
		}
		return &p, nil
	}
}
