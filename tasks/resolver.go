package tasks

import (
	"context"

	"usertasks/forms"
	"usertasks/models"
)

// PinnedResolver re-checks what a task already holds: an inline or pinned form must still
// compile, and snapshot members stay as expanded. It is the resolver when no form provider or
// participant directory is configured; providers replace it.
type PinnedResolver struct{}

// Resolve implements Resolver.
func (PinnedResolver) Resolve(_ context.Context, t models.Task) (Resolution, error) {
	switch t.Health.Code {
	case models.HealthSnapshotDirectoryMissing, models.HealthSnapshotResolutionFailed:
		return Resolution{Health: models.Health{Severity: models.SeverityBlocking, Code: models.HealthSnapshotDirectoryMissing,
			Message: "No participant directory is configured to expand the task's groups."}}, nil
	}
	f := t.Protected.Form
	if f == nil {
		return Resolution{}, nil
	}
	if !f.Resolved() {
		return Resolution{Health: models.FormProviderUnknown.Finding()}, nil
	}
	if _, err := forms.Parse(f.Schema); err != nil {
		return Resolution{Health: models.FormInvalid.Finding()}, nil
	}
	return Resolution{}, nil
}
