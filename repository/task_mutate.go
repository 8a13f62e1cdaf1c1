package repository

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// Mutate applies one command as a single transaction: the task row guarded by
// revision = change.ExpectedRevision, the candidate status copies, rewritten candidates and
// exclusions when the assignment changed, the event, the operation and the outbox row, and on
// finalization the settlement of the accepted operation and its outbox rows. Zero rows
// matched by the guard is a revision conflict, never a silent no-op.
//
// A command with an operation id that loses a race is decided once more on fresh state: if
// the winner was the same operation, the decision replays it instead of reporting a conflict.
//
// The stored operation of the id is looked up only when the decision on the task as it stands
// fails (a replay's stale revision or changed status): the common, first-time command skips
// that read while it holds the task's lock. A replay the decision would accept anyway writes
// its operation row again, which the operation's unique key refuses; the retry then looks the
// operation up first.
// A conflict the decision itself reported after that lookup is final: the lookup ran under the
// task's lock, after every commit that could have stored the operation, so deciding again in a
// second transaction (locking the row once more behind the other claimers) would read the same.
// Only a conflict found after the decision (the operation's unique key, the guarded UPDATE) is
// decided once more.
// A committed change (not a replay) is told to the change notifier after the commit.
func (s *Store) Mutate(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc) (models.Change, error) {
	change, decided, err := s.mutateOnce(ctx, tenant, taskID, operationID, decide, false)
	if operationID != "" && isRevisionConflict(err) && !decided {
		change, _, err = s.mutateOnce(ctx, tenant, taskID, operationID, decide, true)
	}
	if err == nil && change.Replay == nil {
		s.changed(change.Task.Tenant, change.Task.ID, change.Task.Revision)
	}
	return change, err
}

// lockAndLoadTask takes the task row's write lock before anything of the task is read, and
// loads the task. Where each statement reads its own snapshot (READ COMMITTED on PostgreSQL,
// SQL Server and Oracle), a commit landing between reading the task and its candidates would
// otherwise show a torn aggregate; with the lock held nothing of the task can change under the
// transaction. PostgreSQL and MariaDB lock and read the row in one statement (SELECT … FOR
// UPDATE, a current read on InnoDB, so the snapshot of the child reads begins after the lock);
// SQL Server and Oracle lock it with a no-op UPDATE first; SQLite's IMMEDIATE transaction holds
// the database.
//
// Only the protected columns of parts are read and decrypted (columnsReading): a claim reads
// none of the payloads.
func (s *Store) lockAndLoadTask(tx *gorm.DB, tenant, taskID string, parts models.ProtectedParts) (models.Task, error) {
	locked := s.dialect == migrations.Postgres || s.dialect == migrations.MySQL
	if !locked {
		if err := s.lockTask(tx, tenant, taskID); err != nil {
			return models.Task{}, err
		}
	}
	row := tx.Where("tenant_id = ? AND id = ?", tenant, taskID)
	if locked {
		row = row.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate})
	}
	if cols := columnsReading(parts); cols != nil {
		row = row.Select(cols)
	}
	return s.loadTaskBy(tx, row)
}

// lockTask takes the task row's write lock with a no-op UPDATE, which locks on every dialect;
// SQLite's IMMEDIATE transaction holds the database already.
func (s *Store) lockTask(tx *gorm.DB, tenant, taskID string) error {
	if s.dialect == migrations.SQLite {
		return nil
	}
	res := tx.Model(&taskRecord{}).Where("tenant_id = ? AND id = ?", tenant, taskID).
		Update("revision", gorm.Expr("revision"))
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return errNoRows
	}
	return nil
}

func isRevisionConflict(err error) bool {
	return models.ErrorCode(err) == models.CodeRevisionConflict
}

// mutateOnce runs one attempt; decided reports that an error is the decision's own, taken
// with the stored operation looked up.
func (s *Store) mutateOnce(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc, lookupFirst bool) (change models.Change, decided bool, err error) {
	parts := models.ProtectedReads(ctx)
	err = s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		decided = false // inWrite may run this again
		current, err := s.lockAndLoadTask(tx, tenant, taskID, parts)
		if err != nil {
			return err
		}
		var prior *models.Operation
		if lookupFirst {
			if prior, err = s.findOperation(tx, tenant, taskID, operationID); err != nil {
				return err
			}
		}
		change, err = decide(now, current, prior)
		if err != nil && !lookupFirst && operationID != "" {
			stored, ferr := s.findOperation(tx, tenant, taskID, operationID)
			if ferr != nil {
				return ferr
			}
			if stored != nil {
				change, err = decide(now, current, stored)
			}
		}
		if err != nil || change.Replay != nil {
			decided = err != nil && (lookupFirst || operationID != "")
			return err
		}
		// An assignment to an absent user goes to the substitute (SPEC 10.5).
		if err := storekit.ApplySubstitution(&current, &change, now, s.absencesIn(tx)); err != nil {
			return err
		}
		return s.applyChange(tx, &current, &change, now)
	})
	if errors.Is(err, errDuplicate) {
		// The operation id was taken by a concurrent commit of the same task.
		return change, false, models.Conflict(models.CodeRevisionConflict)
	}
	return change, decided, err
}

func (s *Store) applyChange(tx *gorm.DB, before *models.Task, c *models.Change, now time.Time) error {
	t := &c.Task
	if t.ID != before.ID || t.Tenant != before.Tenant {
		return fmt.Errorf("repository: a change may not move a task")
	}
	if c.ExpectedRevision != before.Revision {
		return models.Conflict(models.CodeRevisionConflict)
	}
	rec, cols, err := s.changedTaskRecord(before, t)
	if err != nil {
		return err
	}
	// Only the changed columns are written (the revision always is). The guard also pins the
	// event sequence: an event appended meanwhile (which does not bump the revision) makes
	// the whole decision run again on fresh state.
	res := tx.Model(rec).Select(cols).
		Where("tenant_id = ? AND revision = ? AND last_event_seq = ?", t.Tenant, c.ExpectedRevision, before.LastEventSeq).Updates(rec)
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected != 1 {
		var current taskRecord
		err := tx.Select("revision").Where("tenant_id = ? AND id = ?", t.Tenant, t.ID).Take(&current).Error
		if err == nil && current.Revision == c.ExpectedRevision {
			return fmt.Errorf("%w: event sequence moved", errRetry)
		}
		return models.Conflict(models.CodeRevisionConflict)
	}
	if c.AssignmentChanged {
		if err := tx.Where("task_id = ? AND tenant_id = ?", t.ID, t.Tenant).Delete(&candidateRecord{}).Error; err != nil {
			return translate(err)
		}
		if err := tx.Where("task_id = ? AND tenant_id = ?", t.ID, t.Tenant).Delete(&exclusionRecord{}).Error; err != nil {
			return translate(err)
		}
		if err := s.insertAssignment(tx, t, now); err != nil {
			return err
		}
	} else if t.Status != before.Status {
		err := tx.Model(&candidateRecord{}).Where("task_id = ? AND tenant_id = ?", t.ID, t.Tenant).
			Updates(map[string]any{"task_status": string(t.Status), "updated_at": now}).Error
		if err != nil {
			return translate(err)
		}
	}
	if c.Finalize {
		if err := s.settle(tx, t, now); err != nil {
			return err
		}
	}
	if err := s.writeRows(tx, c); err != nil {
		return err
	}
	if err := s.writeNotifications(tx, before, c, now); err != nil {
		return err
	}
	// The rows many writers share (the tenant's counter stripe, the day's rollup row) come
	// last, so their locks are held for the commit only.
	if before.Status.CountsAsOpen() && !t.Status.CountsAsOpen() {
		if err := s.releaseOpenTask(tx, t.Tenant, t.ID, now); err != nil {
			return err
		}
	}
	if metric, bucket, ok := storekit.Rollup(before, t, c.Event, now); ok {
		return s.countDaily(tx, t, metric, bucket, now)
	}
	return nil
}

// settle completes the task's accepted operations and settles its pending outbox rows, so
// nothing more is delivered for a finalized task.
func (s *Store) settle(tx *gorm.DB, t *models.Task, now time.Time) error {
	err := tx.Model(&operationRecord{}).
		Where("tenant_id = ? AND task_id = ? AND state = ?", t.Tenant, t.ID, string(models.OperationAccepted)).
		Updates(map[string]any{"state": string(models.OperationCompleted), "completed_at": now, "updated_at": now}).Error
	if err != nil {
		return translate(err)
	}
	err = tx.Model(&resumptionRecord{}).
		Where("tenant_id = ? AND task_id = ? AND state = ?", t.Tenant, t.ID, string(models.DeliveryPending)).
		Updates(map[string]any{"state": string(models.DeliverySettled), "updated_at": now,
			"lease_owner": nil, "lease_token": nil, "lease_expires_at": nil}).Error
	return translate(err)
}

// AppendEvent appends an event without bumping the revision. The task's event sequence is
// advanced with its own compare-and-swap so sequences stay unique and monotonic. Nothing a
// list or a detail shows changes, so the change notifier is not told.
func (s *Store) AppendEvent(ctx context.Context, tenant, taskID string, build models.AppendFunc) (models.Event, error) {
	var ev models.Event
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		// Taking the next sequence number first locks the row on every dialect, so concurrent
		// appends and mutations queue instead of colliding on (task, seq).
		t, err := s.reserveEventSeq(tx, tenant, taskID)
		if err != nil {
			return err
		}
		if ev, err = build(now, t); err != nil {
			return err
		}
		if ev.Seq != t.LastEventSeq+1 || ev.TaskID != t.ID || ev.Tenant != t.Tenant || ev.Revision != t.Revision {
			return fmt.Errorf("repository: an appended event must follow the task's sequence at its revision")
		}
		return s.writeRows(tx, &models.Change{Event: &ev})
	})
	return ev, err
}

// Events returns up to limit events of a task with a sequence above afterSeq, in order.
func (s *Store) Events(ctx context.Context, tenant, taskID string, afterSeq, limit int) ([]models.Event, error) {
	if limit <= 0 || limit > models.MaxPageSize {
		limit = models.MaxPageSize
	}
	var recs []eventRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Where("tenant_id = ? AND task_id = ? AND seq > ?", tenant, taskID, afterSeq).
			Order("seq").Limit(limit).Find(&recs).Error)
	})
	out := make([]models.Event, 0, len(recs))
	for i := range recs {
		out = append(out, eventFromRecord(&recs[i]))
	}
	return out, err
}
