package storekit

import (
	"context"

	"usertasks/models"
)

// CheckWorkerHealth refuses a finding a worker may not record (SetHealth): workers record
// advisory findings with a code, or the zero Health to clear one; blocking findings are not
// theirs.
func CheckWorkerHealth(h models.Health) error {
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
	return nil
}

// HealthUpdate is a worker's write of a task's finding: Health, where the task is open or
// transitional, its finding is not blocking and, when OnlyCode is set, its finding has that
// code. Anywhere else it writes nothing, which is no error (a terminal task's finding was
// cleared by its finalization; a blocking one is not the workers' to replace). Health does not
// raise the revision, so no concurrent command conflicts with it.
type HealthUpdate struct {
	Health   models.Health
	OnlyCode string
}

// SetHealth is the update that records h (the zero Health clears an advisory finding),
// refused as CheckWorkerHealth refuses h.
func SetHealth(h models.Health) (HealthUpdate, error) {
	if err := CheckWorkerHealth(h); err != nil {
		return HealthUpdate{}, err
	}
	return HealthUpdate{Health: h}, nil
}

// ClearHealth is the update that removes the advisory finding code, and nothing else: another
// finding stays.
func ClearHealth(code string) HealthUpdate { return HealthUpdate{OnlyCode: code} }

// Applies reports whether u writes the task of row r.
func (u HealthUpdate) Applies(r *TaskRow) bool {
	return models.Status(r.Status).CountsAsOpen() && Str(r.HealthSeverity) != string(models.SeverityBlocking) &&
		(u.OnlyCode == "" || Str(r.HealthCode) == u.OnlyCode)
}

// Apply writes u's finding into r.
func (u HealthUpdate) Apply(r *TaskRow) {
	r.HealthSeverity, r.HealthCode, r.HealthMessage = Opt(string(u.Health.Severity)), Opt(u.Health.Code), Opt(u.Health.Message)
}

// HealthWrite is a store's one write of a HealthUpdate to task taskID of tenant: where the
// update's rule lets it (Applies), without raising the revision, telling the change notifier of
// a written finding; a missing task is models.ErrNotFound. Its methods are the workers' health
// group of the store contract (store.Store's SetHealth and ClearHealth).
type HealthWrite func(ctx context.Context, tenant, taskID string, u HealthUpdate) error

// SetHealth records a worker's advisory finding h on an open or transitional task whose
// finding is not blocking (the zero Health clears it); a finding CheckWorkerHealth refuses is
// not written.
func (w HealthWrite) SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error {
	u, err := SetHealth(h)
	if err != nil {
		return err
	}
	return w(ctx, tenant, taskID, u)
}

// ClearHealth removes the advisory finding code from an open or transitional task, and nothing
// else.
func (w HealthWrite) ClearHealth(ctx context.Context, tenant, taskID, code string) error {
	return w(ctx, tenant, taskID, ClearHealth(code))
}
