package tasks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"usertasks/directory"
	"usertasks/models"
)

// AbsenceStore is what the absence endpoints need of the store (store.Absences, and the
// database clock that decides whether an absence is active).
type AbsenceStore interface {
	Now(ctx context.Context) (time.Time, error)
	PutAbsence(ctx context.Context, a models.Absence) (models.Absence, error)
	Absence(ctx context.Context, tenant string, user models.ParticipantRef) (models.Absence, error)
	DeleteAbsence(ctx context.Context, tenant string, user models.ParticipantRef) error
	// SubstitutedBy: whom a substitute stands in for now (substitute.go).
	SubstitutedBy(ctx context.Context, tenant string, substitute models.ParticipantRef) ([]models.ParticipantRef, error)
}

// AbsenceInput is an absence as a request states it (SPEC 10.5).
type AbsenceInput struct {
	From, Until time.Time
	Substitute  models.ParticipantRef // Tenant is filled from the actor
}

// AbsenceView is an absence and whether it is active now on the database clock.
type AbsenceView struct {
	models.Absence
	Active bool
}

// Absence returns the absence of who (nil: the caller); ErrNotFound without one.
func (s *Service) Absence(ctx context.Context, a models.Actor, who *models.ParticipantRef) (AbsenceView, error) {
	user, err := s.absentUser(ctx, a, who)
	if err != nil {
		return AbsenceView{}, err
	}
	ab, err := s.store.Absence(ctx, a.Tenant, user)
	if err != nil {
		return AbsenceView{}, err
	}
	return s.absenceView(ctx, ab)
}

// PutAbsence sets the absence of who (nil: the caller), replacing the one they had: until after
// from and at most 365 days later, the substitute a user other than them, known to the directory
// when one is configured (422 unknown-participant).
func (s *Service) PutAbsence(ctx context.Context, a models.Actor, who *models.ParticipantRef, in AbsenceInput) (AbsenceView, error) {
	user, err := s.absentUser(ctx, a, who)
	if err != nil {
		return AbsenceView{}, err
	}
	sub := in.Substitute
	sub.Tenant = a.Tenant
	if sub.Provider == "" {
		sub.Provider = models.DefaultProvider
	}
	ab, err := models.NewAbsence(a.Tenant, user, in.From, in.Until, sub)
	if err != nil {
		return AbsenceView{}, err
	}
	if ab.Substitute, err = s.knownUser(ctx, a.Tenant, ab.Substitute, "substitute"); err != nil {
		return AbsenceView{}, err
	}
	stored, err := s.store.PutAbsence(ctx, ab)
	if err != nil {
		return AbsenceView{}, err
	}
	return s.absenceView(ctx, stored)
}

// DeleteAbsence ends the absence of who (nil: the caller); ErrNotFound without one.
func (s *Service) DeleteAbsence(ctx context.Context, a models.Actor, who *models.ParticipantRef) error {
	user, err := s.absentUser(ctx, a, who)
	if err != nil {
		return err
	}
	return s.store.DeleteAbsence(ctx, a.Tenant, user)
}

// absentUser is whose absence a request names: the caller (nil), a signed-in person who may
// view tasks; or, for a manager of the tenant only, another user of the tenant (403 for anyone
// else), who must be known to the directory when one is configured (404 otherwise).
func (s *Service) absentUser(ctx context.Context, a models.Actor, who *models.ParticipantRef) (models.ParticipantRef, error) {
	if a.Guest != nil || a.System || a.Subject.ID == "" || a.Subject.IsGuest() {
		return models.ParticipantRef{}, models.ErrForbidden
	}
	if who == nil {
		if !models.ActorCan(a, models.PermView) {
			return models.ParticipantRef{}, models.ErrForbidden
		}
		me := a.Subject
		me.DisplayName = ""
		return me, nil
	}
	if !a.Manager {
		return models.ParticipantRef{}, models.ErrForbidden
	}
	user := *who
	user.Tenant, user.Type, user.DisplayName = a.Tenant, models.UserParticipant, ""
	if user.Provider == "" {
		user.Provider = models.DefaultProvider
	}
	if models.TextProblem(user.ID, models.Identifier) != "" || models.TextProblem(user.Provider, models.Identifier) != "" ||
		user.ID == "" || len(user.ID) > models.MaxParticipantIDLength || len(user.Provider) > models.MaxProviderLength || user.IsGuest() {
		return models.ParticipantRef{}, models.ErrNotFound
	}
	if s.dir != nil {
		if _, err := s.knownUser(ctx, a.Tenant, user, "user"); err != nil {
			if errors.Is(err, models.ErrInvalid) {
				return models.ParticipantRef{}, models.ErrNotFound
			}
			return models.ParticipantRef{}, err
		}
	}
	return user, nil
}

// knownUser checks a user against the directory when one is configured: unknown → 422
// unknown-participant on field; known → the directory's name.
func (s *Service) knownUser(ctx context.Context, tenant string, p models.ParticipantRef, field string) (models.ParticipantRef, error) {
	if s.dir == nil {
		return p, nil
	}
	found, err := directory.Find(ctx, s.dir, tenant, p)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return p, models.Invalid(models.CodeUnknownParticipant, models.FieldError{Field: field, Message: "is not in the directory"})
	case err != nil:
		// The directory's own error may name hosts or people: keep it out of the answer.
		return p, fmt.Errorf("%w: check the %s: %v", models.ErrDirectoryUnavailable, field, err)
	}
	if found.DisplayName != "" {
		p.DisplayName = found.DisplayName
	}
	return p, nil
}

// absenceView adds whether ab is active now, on the database clock.
func (s *Service) absenceView(ctx context.Context, ab models.Absence) (AbsenceView, error) {
	now, err := s.store.Now(ctx)
	if err != nil {
		return AbsenceView{}, err
	}
	return AbsenceView{Absence: ab, Active: ab.ActiveAt(now)}, nil
}
