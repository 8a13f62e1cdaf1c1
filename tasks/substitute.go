package tasks

import (
	"context"

	"usertasks/models"
)

// standingIn returns a with StandsInFor: the users whose absence, active on the database clock
// now, names a as substitute (SPEC 10.5). Only a signed-in person stands in; a guest or the
// system never does. The absence is read once per request, before the command's transaction:
// an absence that ends or is removed while the request runs still counts for that request.
func (s *Service) standingIn(ctx context.Context, a models.Actor) (models.Actor, error) {
	if a.System || a.Guest != nil || a.Subject.Type != models.UserParticipant || a.Subject.ID == "" {
		return a, nil
	}
	absent, err := s.store.SubstitutedBy(ctx, a.Tenant, a.Subject)
	if err != nil {
		return a, err
	}
	a.StandsInFor = absent
	return a, nil
}

// readableStandingIn is t for a substitute whose own relationship does not show it: visible
// when a, standing in for the absent users, may read its summary; ErrNotFound otherwise.
func (s *Service) readableStandingIn(ctx context.Context, a models.Actor, t models.Task) (models.Task, TaskView, error) {
	sub, err := s.standingIn(ctx, a)
	if err != nil {
		return models.Task{}, TaskView{}, err
	}
	if len(sub.StandsInFor) == 0 {
		return models.Task{}, TaskView{}, models.ErrNotFound
	}
	v, ok, err := visibleView(ctx, t, sub, func(ctx context.Context) (bool, error) {
		return s.store.HasActed(ctx, a.Tenant, t.ID, a.Subject)
	})
	if err != nil {
		return models.Task{}, TaskView{}, err
	}
	if !ok {
		return models.Task{}, TaskView{}, models.ErrNotFound
	}
	return t, v, nil
}
