package repository

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// FireDeadline settles one deadline in one transaction (store.Deadlines). The task's row lock
// is taken first, as every change of the task does, so two sweeps firing the same deadline
// queue on it; the one that comes second reads the deadline settled and writes nothing. The
// settling UPDATE is guarded by state = pending all the same: zero rows is the same conflict.
func (s *Store) FireDeadline(ctx context.Context, tenant, taskID string, index int, managers []models.ParticipantRef) (models.DeadlineFiring, error) {
	var firing models.DeadlineFiring
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		firing = models.DeadlineFiring{} // inWrite may run this again
		current, err := s.lockAndLoadTask(tx, tenant, taskID, models.ReadsForTransition)
		if err != nil {
			return err
		}
		var rec deadlineRecord
		if err := tx.Where("task_id = ? AND idx = ? AND tenant_id = ?", taskID, index, tenant).Take(&rec).Error; err != nil {
			return translate(err)
		}
		d, err := sqlCodec.Deadline(&rec.DeadlineRow)
		if err != nil {
			return err
		}
		if firing, err = models.FireDeadline(current, d, managers, now); err != nil {
			return err
		}
		if err := s.settleDeadline(tx, &firing.Deadline); err != nil {
			return err
		}
		ch := firing.Change
		switch {
		case ch == nil: // skipped: settled, nothing else
			return nil
		case firing.StateChanged:
			if err := s.applyChange(tx, &current, ch, now); err != nil {
				return err
			}
		default:
			if err := s.appendFiredEvent(tx, &current, ch); err != nil {
				return err
			}
		}
		if _, err := s.insertNotifications(tx, storekit.EscalatedNotifications(&firing, now), now, false); err != nil {
			return err
		}
		if !firing.StateChanged {
			// The escalation counts in the rollup as a state-changing firing does in
			// applyChange; last, as there, so the shared rollup row is locked for the commit only.
			if metric, bucket, ok := storekit.Rollup(&current, &ch.Task, ch.Event, now); ok {
				return s.countDaily(tx, &ch.Task, metric, bucket, now)
			}
		}
		return nil
	})
	if err != nil {
		return models.DeadlineFiring{}, err
	}
	if firing.StateChanged {
		s.changed(tenant, taskID, firing.Change.Task.Revision)
	}
	return firing, nil
}

// settleDeadline marks d (as FireDeadline settled it) fired or skipped while it is pending.
func (s *Store) settleDeadline(tx *gorm.DB, d *models.Deadline) error {
	res := tx.Model(&deadlineRecord{}).
		Where("task_id = ? AND idx = ? AND tenant_id = ? AND state = ?", d.TaskID, d.Index, d.Tenant, string(models.DeadlinePending)).
		Updates(map[string]any{"state": string(d.State), "fired_at": sqlCodec.TimePtr(d.FiredAt)})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected != 1 {
		return models.Conflict(models.CodeDeadlineSettled)
	}
	return nil
}

// appendFiredEvent writes a firing that changed no state: the event at the task's revision,
// its sequence taken with a compare-and-swap on the locked row (as AppendEvent does).
func (s *Store) appendFiredEvent(tx *gorm.DB, before *models.Task, ch *models.Change) error {
	ev := ch.Event
	if ev == nil || ev.Seq != before.LastEventSeq+1 || ev.Revision != before.Revision {
		return fmt.Errorf("repository: a fired deadline's event must follow the task's sequence at its revision")
	}
	res := tx.Model(&taskRecord{}).
		Where("tenant_id = ? AND id = ? AND revision = ? AND last_event_seq = ?", before.Tenant, before.ID, before.Revision, before.LastEventSeq).
		Update("last_event_seq", ev.Seq)
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("%w: event sequence moved", errRetry)
	}
	return s.writeRows(tx, &models.Change{Event: ev})
}
