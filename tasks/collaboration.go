package tasks

import (
	"context"

	"usertasks/models"
)

// SummaryReader answers who may read and write a task's comments and attachments (SPEC 10.1,
// 10.2): whoever may read its summary — managers, the assignee, non-excluded candidates, the
// completer, past actors — with the view permission, never a guest in this version. Anyone else
// gets models.ErrNotFound, as for a missing task.
func (s *Service) SummaryReader(ctx context.Context, a models.Actor, id string) (models.Task, error) {
	if a.Guest != nil || a.System || !models.ActorCan(a, models.PermView) {
		return models.Task{}, models.ErrNotFound
	}
	t, _, err := s.readable(ctx, a, id)
	return t, err
}
