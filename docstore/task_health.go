package docstore

import (
	"context"
	"slices"
	"time"

	"usertasks/models"
)

// SetHealth records a worker's advisory finding on an open or transitional task whose finding
// is not blocking, as repository.Store.SetHealth: a terminal task or a blocking finding is left
// alone without an error; a missing task is ErrNotFound. Health does not raise the revision
// (nor updated_at); a written finding is told to the change notifier with the task's revision.
func (s *Store) SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error {
	switch {
	case h.Severity == models.SeverityNone && (h.Code != "" || h.Message != ""):
		return models.InvalidField("health.severity", "is required with a code or message")
	case h.Severity == models.SeverityBlocking:
		return models.InvalidField("health.severity", "workers set advisory findings only")
	case h.Severity != models.SeverityNone && h.Severity != models.SeverityAdvisory:
		return models.InvalidField("health.severity", "must be advisory")
	case h.Severity == models.SeverityAdvisory && (h.Code == "" || len(h.Code) > models.MaxActionKeyLength):
		return models.InvalidField("health.code", "is required and at most 64 bytes")
	case len(h.Message) > models.MaxHealthMessageLength:
		return models.InvalidField("health.message", "is too long")
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
