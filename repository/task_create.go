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

// Create inserts a projected task idempotently: when a task with the same materialization key
// or bookmark id already exists in tenant, it is returned with created false and nothing is
// written. Concurrent duplicate deliveries race on the unique keys; the losers read the
// winner's task. The tenant's open-task count is checked and raised in the same transaction, on one
// of its counter stripes (tenant_counter.go).
// A created task is told to the change notifier after the commit.
func (s *Store) Create(ctx context.Context, tenant, materializationKey, bookmarkID string, build models.BuildFunc) (models.Task, bool, error) {
	if err := s.ensureTenant(ctx, tenant); err != nil {
		return models.Task{}, false, err
	}
	for attempt := 0; ; attempt++ {
		var task models.Task
		var existingID string
		created := false
		err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
			// A retried transaction starts over: nothing of a rolled-back pass may leak out.
			task, existingID, created = models.Task{}, "", false
			var ids []string
			err := tx.Model(&taskRecord{}).Where("tenant_id = ? AND (materialization_key = ? OR bookmark_id = ?)", tenant, materializationKey, bookmarkID).
				Limit(1).Pluck("id", &ids).Error
			if err != nil {
				return translate(err)
			}
			if len(ids) > 0 {
				existingID = ids[0] // read whole, from one snapshot, after this transaction
				return nil
			}
			change, err := build(now)
			if err != nil {
				return err
			}
			t := &change.Task
			if t.Tenant != tenant || t.MaterializationKey != materializationKey || t.Workflow.BookmarkID != bookmarkID {
				return fmt.Errorf("repository: projection keys differ from the task built for them")
			}
			// A projection's direct assignee who is absent: the substitute gets the task.
			if err := storekit.ApplySubstitution(nil, &change, now, s.absencesIn(tx)); err != nil {
				return err
			}
			// A projection without deadlines of its own: its definition's default policy, if any.
			if err := storekit.ApplyDeadlinePolicy(&change, s.policiesIn(tx)); err != nil {
				return err
			}
			if err := s.insertTask(tx, t, now); err != nil {
				return err
			}
			if err := s.writeRows(tx, &change); err != nil {
				return err
			}
			if err := s.insertDeadlines(tx, change.Deadlines, now); err != nil {
				return err
			}
			if err := s.writeNotifications(tx, nil, &change, now); err != nil {
				return err
			}
			// The rows many writers share (the day's rollup row, the tenant's counter stripe)
			// come last, so their locks are held for the commit only.
			if err := s.countDaily(tx, t, models.MetricCreated, 0, now); err != nil {
				return err
			}
			if t.Status.CountsAsOpen() {
				if err := s.reserveOpenTask(tx, tenant, t.ID, now); err != nil {
					return err
				}
			}
			task, created = *t, true
			return nil
		})
		if errors.Is(err, errDuplicate) && attempt < 3 {
			continue // a concurrent delivery won the unique key: read its task on the next pass
		}
		if err == nil && existingID != "" {
			task, err = s.Get(ctx, tenant, existingID)
		}
		if err == nil && created {
			s.changed(task.Tenant, task.ID, task.Revision)
		}
		return task, created, err
	}
}

func (s *Store) insertTask(tx *gorm.DB, t *models.Task, now time.Time) error {
	rec, err := s.toTaskRecord(t)
	if err != nil {
		return err
	}
	if err := tx.Create(rec).Error; err != nil {
		return translate(err)
	}
	if tags := tagRecords(t); len(tags) > 0 {
		if err := tx.Create(&tags).Error; err != nil {
			return translate(err)
		}
	}
	return s.insertAssignment(tx, t, now)
}

func (s *Store) insertAssignment(tx *gorm.DB, t *models.Task, now time.Time) error {
	if cands := candidateRecords(t, now); len(cands) > 0 {
		if err := tx.CreateInBatches(&cands, insertBatch).Error; err != nil {
			return translate(err)
		}
	}
	if excl := exclusionRecords(t, now); len(excl) > 0 {
		if err := tx.CreateInBatches(&excl, insertBatch).Error; err != nil {
			return translate(err)
		}
	}
	return nil
}

// writeRows inserts the event, operation and outbox row of a change.
func (s *Store) writeRows(tx *gorm.DB, c *models.Change) error {
	if c.Event != nil {
		if len(c.Event.Metadata) > models.MaxEventMetadataBytes {
			return models.Invalid(models.CodePayloadTooLarge, models.FieldError{Field: "metadata", Message: "event metadata is too large"})
		}
		rec := eventRecordOf(c.Event)
		if err := tx.Create(&rec).Error; err != nil {
			return translate(err)
		}
	}
	if c.Operation != nil {
		rec, err := s.operationRecordOf(c.Operation)
		if err != nil {
			return err
		}
		if err := tx.Create(&rec).Error; err != nil {
			return translate(err)
		}
	}
	if c.Resumption != nil {
		rec := resumptionRecord{sqlCodec.ResumptionRow(c.Resumption)}
		if err := tx.Create(&rec).Error; err != nil {
			return translate(err)
		}
	}
	return nil
}

// insertBatch keeps a multi-row INSERT under SQL Server's 2,100 bind parameters (14 columns
// per candidate row) and Oracle's statement limits.
const insertBatch = 100
