package repository

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// Get loads the whole aggregate (protected content decrypted, candidates and exclusions) of a
// task in tenant. A task of another tenant is not found.
func (s *Store) Get(ctx context.Context, tenant, id string) (models.Task, error) {
	return s.readTask(ctx, "tenant_id = ? AND id = ?", tenant, id)
}

// FindByMaterializationKey loads the task projected for key in tenant.
func (s *Store) FindByMaterializationKey(ctx context.Context, tenant, key string) (models.Task, error) {
	return s.readTask(ctx, "tenant_id = ? AND materialization_key = ?", tenant, key)
}

// FindByBookmarkID loads the task projected from bookmarkID in tenant.
func (s *Store) FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error) {
	return s.readTask(ctx, "tenant_id = ? AND bookmark_id = ?", tenant, bookmarkID)
}

// readTask loads the task that where finds (loadTask) in a read transaction of its own.
func (s *Store) readTask(ctx context.Context, where string, args ...any) (models.Task, error) {
	var t models.Task
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		t, err = s.loadTask(tx, where, args...)
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
	return t, loadAssignment(tx, &t)
}

// loadAssignment reads t's candidates and exclusions on tx into t.
func loadAssignment(tx *gorm.DB, t *models.Task) error {
	var rows []assignmentRow
	if err := tx.Raw(assignmentRows, t.ID, t.Tenant, t.ID, t.Tenant).Scan(&rows).Error; err != nil {
		return translate(err)
	}
	for _, r := range rows {
		if r.RowKind == exclusionRow {
			t.Assignment.Exclusions = append(t.Assignment.Exclusions, r.Participant(t.Tenant))
			continue
		}
		if storekit.Str(r.TaskStatus) != string(t.Status) {
			return &models.CorruptError{TaskID: t.ID, Reason: "candidate status copy differs from the task status"}
		}
		t.Assignment.Candidates = append(t.Assignment.Candidates, r.Candidate(t.Tenant))
	}
	return nil
}

// assignmentRows reads a task's candidates and exclusions in one statement (one round trip
// fewer while a mutation holds the task's lock): candidates first, each kind in its stored order.
// The identifiers are unquoted lower case, which every dialect's tables answer to.
const assignmentRows = `SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, ` +
	`source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = ? AND tenant_id = ? ` +
	`UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL ` +
	`FROM user_task_exclusions WHERE task_id = ? AND tenant_id = ? ` +
	`ORDER BY row_kind, source, provider, participant_type, participant_id, source_key`

const exclusionRow = 1

// assignmentRow is a row of assignmentRows: an exclusion leaves the candidate-only columns NULL
// (read as empty).
type assignmentRow struct {
	RowKind               int `gorm:"column:row_kind"`
	storekit.CandidateRow `gorm:"embedded"`
	TaskStatus            *string `gorm:"column:task_status"`
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
