package docstore

import (
	"context"
	"slices"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// SetHealth records a worker's advisory finding on an open or transitional task whose finding
// is not blocking, as repository.Store.SetHealth: a terminal task or a blocking finding is left
// alone without an error; a missing task is ErrNotFound. Health does not raise the revision
// (nor updated_at); a written finding is told to the change notifier with the task's revision.
func (s *Store) SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error {
	if err := storekit.CheckWorkerHealth(h); err != nil {
		return err
	}
	return s.updateHealth(ctx, tenant, taskID, "", h)
}

// ClearHealth removes the advisory finding code from an open or transitional task, and
// nothing else: another finding stays. A missing task is ErrNotFound.
func (s *Store) ClearHealth(ctx context.Context, tenant, taskID, code string) error {
	return s.updateHealth(ctx, tenant, taskID, code, models.Health{})
}

// updateHealth writes h, under a version claim, where the task is not terminal, its finding
// is not blocking and, when onlyCode is set, its finding has that code.
func (s *Store) updateHealth(ctx context.Context, tenant, taskID, onlyCode string, h models.Health) error {
	written, revision := false, 0
	err := s.write(ctx, tenant, taskID, func(_ time.Time, cur *taskDoc) (*taskDoc, error) {
		written = false
		if !slices.Contains(openTransitionalStatuses, cur.Status) || str(cur.HealthSeverity) == string(models.SeverityBlocking) ||
			(onlyCode != "" && str(cur.HealthCode) != onlyCode) {
			return nil, nil
		}
		next := cur.clone()
		next.HealthSeverity, next.HealthCode, next.HealthMessage = opt(string(h.Severity)), opt(h.Code), opt(h.Message)
		written, revision = true, cur.Revision
		return next, nil
	})
	if err == nil && written {
		s.changed(tenant, taskID, revision)
	}
	return err
}
