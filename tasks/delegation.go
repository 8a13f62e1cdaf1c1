package tasks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"usertasks/directory"
	"usertasks/models"
)

// DelegateInput is a delegation: the task goes to To, a user of the caller's tenant.
type DelegateInput struct {
	Common
	To     models.ParticipantRef // Tenant is filled from the actor
	Reason string
}

// Delegate handles delegate (SPEC 10.5): the assignee or a manager hands an Assigned task to
// another user, who must be known to the directory when one is configured.
func (s *Service) Delegate(ctx context.Context, a models.Actor, id string, in DelegateInput) (res Result, err error) {
	ctx, done := s.observe(ctx, models.OpDelegate)
	defer done(&res, &err)
	// The assignee delegates with the permission to work on tasks, a manager with the one to
	// assign them; a guest never.
	if a.Guest != nil || !(models.ActorCan(a, models.PermClaim) || models.ActorCan(a, models.PermAssign)) {
		return Result{}, models.ErrForbidden
	}
	to := in.To
	to.Tenant = a.Tenant // wire participants never carry a tenant
	if to.Provider == "" {
		to.Provider = models.DefaultProvider
	}
	to, err = s.knownDelegate(ctx, a, id, to)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx, a, id, in.OperationID, models.ReadsForTransition, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		return models.Delegate(t, in.command(models.OpDelegate, a, prior), to, in.Reason, now)
	})
}

// ReturnInput is a return of a delegated task.
type ReturnInput struct {
	Common
	Reason string
}

// Return handles return (SPEC 10.5): the delegate gives the task back to its delegator.
func (s *Service) Return(ctx context.Context, a models.Actor, id string, in ReturnInput) (Result, error) {
	return s.command(ctx, a, id, in.Common, models.OpReturn, models.PermClaim, func(t models.Task, cmd models.Command, now time.Time) (models.Change, error) {
		return models.Return(t, cmd, in.Reason, now)
	})
}

// knownDelegate checks a delegate against the directory before any write, as knownAssignee
// does an assignee: unknown → 422 unknown-participant, known → the directory's name. It asks
// only for a caller who may delegate the task (its manager or assignee), so everyone else
// still gets the transition's 404; a malformed reference, or the caller themselves, is left to
// the transition's validation.
func (s *Service) knownDelegate(ctx context.Context, a models.Actor, id string, to models.ParticipantRef) (models.ParticipantRef, error) {
	want := to
	if want.Type == "" {
		want.Type = models.UserParticipant
	}
	if s.dir == nil || !want.Valid() || want.Type != models.UserParticipant || want.IsGuest() ||
		models.TextProblem(want.ID, models.Identifier) != "" || models.TextProblem(want.Provider, models.Identifier) != "" || want.Same(a.Subject) {
		return to, nil
	}
	if err := possibleID(id); err != nil {
		return to, err
	}
	current, err := s.store.Get(ctx, a.Tenant, id)
	if err != nil {
		return to, err
	}
	if r := models.Relate(current, a, false); !r.Manager && !r.Assignee {
		return to, nil
	}
	found, err := directory.Find(ctx, s.dir, a.Tenant, want)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return to, models.Invalid(models.CodeUnknownParticipant, models.FieldError{Field: "to", Message: "is not in the directory"})
	case err != nil:
		// The directory's own error may name hosts or people: keep it out of the answer.
		return to, fmt.Errorf("%w: check the delegate: %v", models.ErrDirectoryUnavailable, err)
	}
	if found.DisplayName != "" {
		to.DisplayName = found.DisplayName
	}
	return to, nil
}
