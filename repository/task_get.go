package repository

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"usertasks/models"
)

// Get loads the whole aggregate (protected content decrypted, candidates and exclusions) of a
// task in tenant. A task of another tenant is not found.
func (s *Store) Get(ctx context.Context, tenant, id string) (models.Task, error) {
	var t models.Task
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		t, err = s.loadTask(tx, "tenant_id = ? AND id = ?", tenant, id)
		return err
	})
	return t, err
}

// FindByMaterializationKey loads the task projected for key in tenant.
func (s *Store) FindByMaterializationKey(ctx context.Context, tenant, key string) (models.Task, error) {
	var t models.Task
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		t, err = s.loadTask(tx, "tenant_id = ? AND materialization_key = ?", tenant, key)
		return err
	})
	return t, err
}

// FindByBookmarkID loads the task projected from bookmarkID in tenant.
func (s *Store) FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error) {
	var t models.Task
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		t, err = s.loadTask(tx, "tenant_id = ? AND bookmark_id = ?", tenant, bookmarkID)
		return err
	})
	return t, err
}

// loadTask reads one task row and its child rows on tx.
func (s *Store) loadTask(tx *gorm.DB, where string, args ...any) (models.Task, error) {
	return s.loadTaskBy(tx, tx.Where(where, args...))
}

// loadTaskBy reads the task row that row finds, then its child rows on tx.
func (s *Store) loadTaskBy(tx, row *gorm.DB) (models.Task, error) {
	var rec taskRecord
	if err := row.Take(&rec).Error; err != nil {
		return models.Task{}, translate(err)
	}
	t, err := s.fromTaskRecord(&rec, true)
	if err != nil {
		return t, err
	}
	var cands []candidateRecord
	if err := tx.Where("task_id = ? AND tenant_id = ?", rec.ID, rec.TenantID).Order("source, provider, participant_type, participant_id, source_key").Find(&cands).Error; err != nil {
		return t, translate(err)
	}
	for _, c := range cands {
		cand := models.Candidate{
			Participant: models.ParticipantRef{Tenant: c.TenantID, Provider: c.Provider, Type: models.ParticipantType(c.ParticipantType), ID: c.ParticipantID, DisplayName: str(c.DisplayName)},
			Source:      models.CandidateSource(c.Source),
		}
		if c.SourceGroupID != nil {
			cand.SourceGroup = &models.ParticipantRef{Tenant: c.TenantID, Provider: str(c.SourceGroupProvider), Type: models.GroupParticipant, ID: *c.SourceGroupID}
		}
		if c.TaskStatus != rec.Status {
			return t, &models.CorruptError{TaskID: rec.ID, Reason: "candidate status copy differs from the task status"}
		}
		t.Assignment.Candidates = append(t.Assignment.Candidates, cand)
	}
	var excl []exclusionRecord
	if err := tx.Where("task_id = ? AND tenant_id = ?", rec.ID, rec.TenantID).Order("provider, participant_type, participant_id").Find(&excl).Error; err != nil {
		return t, translate(err)
	}
	for _, e := range excl {
		t.Assignment.Exclusions = append(t.Assignment.Exclusions, models.ParticipantRef{Tenant: e.TenantID, Provider: e.Provider, Type: models.ParticipantType(e.ParticipantType), ID: e.ParticipantID, DisplayName: str(e.DisplayName)})
	}
	return t, nil
}

// findOperation returns the stored operation with opID on a task, or nil.
func (s *Store) findOperation(tx *gorm.DB, tenant, taskID, opID string) (*models.Operation, error) {
	if opID == "" {
		return nil, nil
	}
	var rec operationRecord
	err := tx.Where("tenant_id = ? AND task_id = ? AND operation_id = ?", tenant, taskID, opID).Take(&rec).Error
	if err != nil {
		if err = translate(err); errors.Is(err, errNoRows) {
			return nil, nil
		}
		return nil, err
	}
	op, err := s.operationFromRecord(&rec)
	return &op, err
}

// Operation loads one operation record of a task.
func (s *Store) Operation(ctx context.Context, tenant, taskID, opID string) (models.Operation, error) {
	var op *models.Operation
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		op, err = s.findOperation(tx, tenant, taskID, opID)
		return err
	})
	if err != nil {
		return models.Operation{}, err
	}
	if op == nil {
		return models.Operation{}, models.ErrNotFound
	}
	return *op, nil
}

// HasActed reports whether actor appears as the actor of one of the task's events, which makes
// them a past actor who may still read the task's summary.
func (s *Store) HasActed(ctx context.Context, tenant, taskID string, actor models.ParticipantRef) (bool, error) {
	var ids []string
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Model(&eventRecord{}).
			Where("tenant_id = ? AND actor_provider = ? AND actor_type = ? AND actor_id = ? AND task_id = ?",
				tenant, actor.Provider, string(actor.Type), actor.ID, taskID).
			Order("seq").Limit(1).Pluck("id", &ids).Error)
	})
	return len(ids) > 0, err
}
