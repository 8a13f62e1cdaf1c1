package docstore

import (
	"context"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// SetHealth records a worker's advisory finding on an open or transitional task whose finding
// is not blocking (storekit.HealthWrite.SetHealth), as repository.Store.SetHealth: a terminal
// task or a blocking finding is left alone without an error; a missing task is ErrNotFound.
func (s *Store) SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error {
	return storekit.HealthWrite(s.updateHealth).SetHealth(ctx, tenant, taskID, h)
}

// ClearHealth removes the advisory finding code from an open or transitional task, and
// nothing else (storekit.HealthWrite.ClearHealth). A missing task is ErrNotFound.
func (s *Store) ClearHealth(ctx context.Context, tenant, taskID, code string) error {
	return storekit.HealthWrite(s.updateHealth).ClearHealth(ctx, tenant, taskID, code)
}

// updateHealth writes u under a version claim where its rule lets it. Health does not raise
// the revision (nor updated_at); a written finding is told to the change notifier with the
// task's revision.
func (s *Store) updateHealth(ctx context.Context, tenant, taskID string, u storekit.HealthUpdate) error {
	written, revision := false, 0
	err := s.write(ctx, tenant, taskID, func(_ time.Time, cur *taskDoc) (*taskDoc, error) {
		written = false
		if !u.Applies(&cur.TaskRow) {
			return nil, nil
		}
		next := cur.clone()
		u.Apply(&next.TaskRow)
		written, revision = true, cur.Revision
		return next, nil
	})
	if err == nil && written {
		s.changed(tenant, taskID, revision)
	}
	return err
}
