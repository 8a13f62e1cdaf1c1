package tasks

import (
	"context"

	"usertasks/models"
)

// visibleView is t as a sees it, and whether the read policy (SPEC 4: models.Relate,
// models.CanReadSummary) lets a see it at all. acted answers whether a acted on t before (the
// past-actor relation); it is asked only when no other relation decides, as it costs a query.
// Every reader of a single task decides through here: Detail, Events, Reveal, the page's
// completion and the live-update stream.
func visibleView(ctx context.Context, t models.Task, a models.Actor, acted func(context.Context) (bool, error)) (TaskView, bool, error) {
	if a.Guest != nil && a.Guest.TaskID != t.ID {
		return TaskView{}, false, nil
	}
	v := viewOf(t, a, false)
	if models.CanReadSummary(t, a, v.Relation) {
		return v, true, nil
	}
	// Past actor is the one relation left: only people with the view permission, and blocking
	// health hides the task from them anyway.
	if a.Guest != nil || t.Health.Blocking() || !models.ActorCan(a, models.PermView) {
		return TaskView{}, false, nil
	}
	ok, err := acted(ctx)
	if err != nil || !ok {
		return TaskView{}, false, err
	}
	v = viewOf(t, a, true)
	return v, models.CanReadSummary(t, a, v.Relation), nil
}

// actedCacheSize bounds one Watch's memory of the tasks its caller acted on.
const actedCacheSize = 1024

// Watch decides, change by change, which tasks one live-update stream's caller may see: the
// read policy of Detail applied to each changed task as loaded. Not safe for concurrent use;
// each stream has its own.
type Watch struct {
	s     *Service
	actor models.Actor
	acted map[string]bool // tasks the caller is known to have acted on (that never becomes false)
}

// Watch authorizes a live-update stream for a: 401 without a tenant and a subject (or for the
// system), 403 without the view permission (a guest's grant is its session).
func (s *Service) Watch(a models.Actor) (*Watch, error) {
	if a.Tenant == "" || a.Subject.ID == "" || a.System {
		return nil, models.ErrUnauthorized
	}
	if a.Guest == nil && !models.ActorCan(a, models.PermView) {
		return nil, models.ErrForbidden
	}
	return &Watch{s: s, actor: a, acted: map[string]bool{}}, nil
}

// Sees reports whether the caller may see t now. An answer the store cannot give is no: the
// stream then says nothing, not even that something changed.
func (w *Watch) Sees(ctx context.Context, t models.Task) bool {
	a := w.actor
	_, ok, err := visibleView(ctx, t, a, func(ctx context.Context) (bool, error) {
		if w.acted[t.ID] {
			return true, nil
		}
		acted, err := w.s.store.HasActed(ctx, a.Tenant, t.ID, a.Subject)
		if acted {
			if len(w.acted) >= actedCacheSize {
				clear(w.acted)
			}
			w.acted[t.ID] = true
		}
		return acted, err
	})
	return ok && err == nil
}
