package store

import (
	"context"

	"usertasks/models"
)

// Absences keeps out-of-office absences (SPEC 10.5): at most one per user, keyed by tenant and
// the user's provider, type and id. Times are the database's: an absence is active while
// From ≤ the database clock < Until.
type Absences interface {
	// PutAbsence stores a as the user's one absence, replacing any other (so two never overlap),
	// and returns it as stored: UpdatedAt is the database time, CreatedAt the first put's time
	// (kept when replacing). a must pass storekit.CheckAbsence (validation error otherwise).
	PutAbsence(ctx context.Context, a models.Absence) (models.Absence, error)
	// Absence returns user's absence in tenant, whatever its times (past, active or future);
	// models.ErrNotFound without one.
	Absence(ctx context.Context, tenant string, user models.ParticipantRef) (models.Absence, error)
	// DeleteAbsence removes user's absence in tenant; models.ErrNotFound without one.
	DeleteAbsence(ctx context.Context, tenant string, user models.ParticipantRef) error
	// ActiveAbsence returns user's absence in tenant when it is active now on the database
	// clock; models.ErrNotFound when there is none or it is not active.
	ActiveAbsence(ctx context.Context, tenant string, user models.ParticipantRef) (models.Absence, error)
	// SubstitutedBy returns the users of tenant whose absence is active now on the database
	// clock and names substitute, ordered by provider and id, at most
	// models.MaxStandsInFor (the substitute's scope, SPEC 10.5); none for a malformed
	// substitute. Served by ix_absences_substitute.
	SubstitutedBy(ctx context.Context, tenant string, substitute models.ParticipantRef) ([]models.ParticipantRef, error)
}
