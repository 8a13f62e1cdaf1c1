package repository

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// The queries and small writes of the background workers (SPEC 7): the due sweep, the
// resumption outbox beyond claiming, and reconciliation. Every time-dependent predicate reads
// the database clock; none of them bumps a task's revision except through Mutate.

// transitionKinds are the operations that enter a transitional status and write an outbox row.
var transitionKinds = []string{string(models.OpComplete), string(models.OpTimeout), string(models.OpCancel)}

// DueTasks returns up to limit open tasks, of every tenant, whose due date has passed by the
// database clock and that still need the sweep: the timeout is enabled, or the task is not yet
// flagged overdue. Pages are ordered by status, due date and id; pass the last task of a page
// as after for the next (nil for the first). Each status is one walk of ix_tasks_due_sweep
// (status, due_at, id) in index order that stops after the page, so a page costs the same
// however many tasks are overdue (ordered by id, it sorted all of them: 45,000 at the scale
// target). Items carry safe columns only.
func (s *Store) DueTasks(ctx context.Context, limit int, after *models.Task) ([]models.Task, error) {
	limit = storekit.WorkerPageLimit(limit)
	var out []models.Task
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		statuses := openStatuses
		if after != nil {
			i := slices.Index(statuses, string(after.Status))
			if i < 0 || after.DueAt == nil {
				return fmt.Errorf("due sweep: the page cursor %q is not an open task with a due date", after.ID)
			}
			statuses = statuses[i:]
		}
		var recs []taskRecord
		for i, status := range statuses {
			q := tx.Model(&taskRecord{}).Select(summaryColumns).
				Where("status = ? AND due_at IS NOT NULL AND due_at <= ? AND (timeout_enabled = ? OR is_overdue = ?)",
					status, now, true, false)
			if i == 0 && after != nil {
				due := sqlCodec.Time(*after.DueAt)
				// due_at >= ? bounds the index range; the OR only filters its first entries.
				q = q.Where("due_at >= ? AND (due_at > ? OR id > ?)", due, due, after.ID)
			}
			var page []taskRecord
			if err := q.Order("due_at").Order("id").Limit(limit - len(recs)).Find(&page).Error; err != nil {
				return translate(err)
			}
			if recs = append(recs, page...); len(recs) == limit {
				break
			}
		}
		var err error
		out, err = s.safeTasks(recs)
		return err
	})
	return out, err
}

// ReconcileTasks returns up to limit open or transitional tasks of tenant that nothing has
// changed within skipTouchedWithin by the database clock, ordered by id after afterID. Items
// carry safe columns only.
func (s *Store) ReconcileTasks(ctx context.Context, tenant string, skipTouchedWithin time.Duration, afterID string, limit int) ([]models.Task, error) {
	limit = storekit.WorkerPageLimit(limit)
	var out []models.Task
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		var recs []taskRecord
		err := tx.Model(&taskRecord{}).Select(summaryColumns).
			Where("tenant_id = ? AND status IN ? AND updated_at <= ? AND id > ?",
				tenant, openTransitionalStatuses, now.Add(-skipTouchedWithin), afterID).
			Order("id").Limit(limit).Find(&recs).Error
		if err != nil {
			return translate(err)
		}
		out, err = s.safeTasks(recs)
		return err
	})
	return out, err
}

// KnownBookmarks reports which of bookmarkIDs have a task in tenant, whatever its status.
func (s *Store) KnownBookmarks(ctx context.Context, tenant string, bookmarkIDs []string) (map[string]bool, error) {
	known := make(map[string]bool, len(bookmarkIDs))
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		for start := 0; start < len(bookmarkIDs); start += maxInList {
			chunk := bookmarkIDs[start:min(start+maxInList, len(bookmarkIDs))]
			var ids []string
			err := tx.Model(&taskRecord{}).Where("tenant_id = ? AND bookmark_id IN ?", tenant, chunk).Pluck("bookmark_id", &ids).Error
			if err != nil {
				return translate(err)
			}
			for _, id := range ids {
				known[id] = true
			}
		}
		return nil
	})
	return known, err
}

// Tenants lists every tenant that has had a task, in order.
func (s *Store) Tenants(ctx context.Context) ([]string, error) {
	var out []string
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Model(&tenantRecord{}).Order("tenant_id").Pluck("tenant_id", &out).Error)
	})
	return out, err
}

// SetHealth records an advisory finding on an open or transitional task
// (storekit.HealthWrite.SetHealth): the revision, the event sequence and updated_at stay as
// they are. A missing task is ErrNotFound.
func (s *Store) SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error {
	return storekit.HealthWrite(s.updateHealth).SetHealth(ctx, tenant, taskID, h)
}

// ClearHealth removes the advisory finding code from an open or transitional task, and
// nothing else (storekit.HealthWrite.ClearHealth). A missing task is ErrNotFound.
func (s *Store) ClearHealth(ctx context.Context, tenant, taskID, code string) error {
	return storekit.HealthWrite(s.updateHealth).ClearHealth(ctx, tenant, taskID, code)
}

// updateHealth writes u with a guarded UPDATE: its rule (storekit.HealthUpdate) is the WHERE
// clause. A written finding is told to the change notifier after the commit, with the task's
// revision (health does not bump it).
func (s *Store) updateHealth(ctx context.Context, tenant, taskID string, u storekit.HealthUpdate) error {
	written, revision := false, 0
	err := s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		written = false
		q := tx.Model(&taskRecord{}).
			Where("tenant_id = ? AND id = ? AND status IN ? AND (health_severity IS NULL OR health_severity <> ?)",
				tenant, taskID, openTransitionalStatuses, string(models.SeverityBlocking))
		if u.OnlyCode != "" {
			q = q.Where("health_code = ?", u.OnlyCode)
		}
		h := u.Health
		res := q.Updates(map[string]any{
			"health_severity": storekit.Opt(string(h.Severity)), "health_code": storekit.Opt(h.Code), "health_message": storekit.Opt(h.Message),
		})
		if res.Error != nil {
			return translate(res.Error)
		}
		// Read in the same transaction: the revision the notifier hears, and whether the task
		// exists at all when the guard matched nothing.
		var cur taskRecord
		if err := tx.Select("revision").Where("tenant_id = ? AND id = ?", tenant, taskID).Take(&cur).Error; err != nil {
			return translate(err)
		}
		written, revision = res.RowsAffected > 0, cur.Revision
		return nil
	})
	if err == nil && written {
		s.changed(tenant, taskID, revision)
	}
	return err
}

// AcceptedOperation returns the task's accepted complete, timeout or cancel operation, with its
// protected payload: what a resumption stimulus is built from. ErrNotFound when there is none
// (the task is open, finalized, or its transition lost its record).
func (s *Store) AcceptedOperation(ctx context.Context, tenant, taskID string) (*models.Operation, error) {
	var op *models.Operation
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var recs []operationRecord
		err := tx.Where("tenant_id = ? AND task_id = ? AND state = ? AND kind IN ?",
			tenant, taskID, string(models.OperationAccepted), transitionKinds).
			Order("created_at DESC, id DESC").Limit(1).Find(&recs).Error
		if err != nil {
			return translate(err)
		}
		if len(recs) == 0 {
			return models.ErrNotFound
		}
		o, err := s.operationFromRecord(&recs[0])
		op = &o
		return err
	})
	if err != nil {
		return nil, err
	}
	return op, nil
}

// RequeueResumption makes the outbox row of a transitional task's operation due again when it
// was delivered (or abandoned) without the runtime ever removing the bookmark: a stale
// transition. It reports whether a row was requeued; a row that is still pending is left to
// its own schedule (false). The attempt count stays, so back-off continues where it was. A
// task that is no longer transitional is not requeued (false). No row at all is ErrNotFound.
func (s *Store) RequeueResumption(ctx context.Context, tenant, taskID, operationID string) (bool, error) {
	var requeued bool
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		requeued = false
		res := tx.Model(&resumptionRecord{}).
			Where("tenant_id = ? AND task_id = ? AND operation_id = ? AND state IN ?", tenant, taskID, operationID,
				[]string{string(models.DeliveryDelivered), string(models.DeliveryAbandoned)}).
			Where("EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.tenant_id = ? AND t.status IN ?)",
				tenant, transitionalStatuses).
			Updates(map[string]any{
				"state": string(models.DeliveryPending), "available_at": now, "delivered_at": nil, "updated_at": now,
				"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
			})
		if res.Error != nil {
			return translate(res.Error)
		}
		if res.RowsAffected > 0 {
			requeued = true
			return nil
		}
		var n int64
		err := tx.Model(&resumptionRecord{}).Where("tenant_id = ? AND task_id = ? AND operation_id = ?", tenant, taskID, operationID).Count(&n).Error
		if err != nil {
			return translate(err)
		}
		if n == 0 {
			return models.ErrNotFound
		}
		return nil
	})
	return requeued, err
}

// ReleaseResumption gives a claimed row back without counting an attempt (a node shutting down
// mid-batch). A stale lease fails with ErrLeaseLost.
func (s *Store) ReleaseResumption(ctx context.Context, r models.Resumption) error {
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := fenced(tx, &resumptionRecord{}, r.ID, r.Lease, now).Updates(map[string]any{
			"updated_at": now, "lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		return leaseResult(res)
	})
}

// SettleResumption closes a claimed row whose task is already terminal, so it is never claimed
// again. A stale lease fails with ErrLeaseLost.
func (s *Store) SettleResumption(ctx context.Context, r models.Resumption) error {
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := fenced(tx, &resumptionRecord{}, r.ID, r.Lease, now).Updates(map[string]any{
			"state": string(models.DeliverySettled), "updated_at": now,
			"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil,
		})
		return leaseResult(res)
	})
}

// safeTasks decodes summary records.
func (s *Store) safeTasks(recs []taskRecord) ([]models.Task, error) {
	return decodeAll(recs, func(r *taskRecord) (models.Task, error) { return s.fromTaskRecord(r, false) })
}
