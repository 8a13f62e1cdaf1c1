package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

func TestCancel(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")

	t.Run("OK", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, CancellationEnabled: true})
		r := decodeResult(t, command(t, env, max, task.ID, "cancel", map[string]any{"expectedRevision": 1, "operationId": "cancel-1", "reason": "duplicate"}), http.StatusAccepted)
		if r.Status != "accepted" || r.Task.Status != "Cancelling" || r.Revision != 2 {
			t.Errorf("result = %+v, want accepted, Cancelling, revision 2", r)
		}
		if outbox, err := env.Store.Resumptions(context.Background(), "acme", task.ID); err != nil || len(outbox) != 1 {
			t.Errorf("outbox = %d rows, %v, want 1", len(outbox), err)
		}
	})
	t.Run("ErrCancellationDisabled", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		command(t, env, max, task.ID, "cancel", map[string]any{"expectedRevision": 1, "operationId": "cancel-2", "reason": "duplicate"}).
			WantProblem(t, http.StatusUnprocessableEntity, "cancellation-disabled")
	})
	t.Run("ErrReasonRequired", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, CancellationEnabled: true})
		p := command(t, env, max, task.ID, "cancel", map[string]any{"expectedRevision": 1, "operationId": "cancel-3", "reason": "   "}).
			WantProblem(t, http.StatusUnprocessableEntity, "reason-required")
		if !slices.Equal(p.Fields(), []string{"reason"}) {
			t.Errorf("fields = %v, want [reason]", p.Fields())
		}
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "cancel"), Token: env.Token(t, max),
			Body: map[string]any{"expectedRevision": 1, "operationId": "cancel-4"}, Contract: handlerstest.Breaks})
		resp.WantProblem(t, http.StatusUnprocessableEntity, "reason-required")
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{CancellationEnabled: true})
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "cancel"), Token: env.Token(t, max),
			Body: map[string]any{"expectedRevision": 1, "reason": "duplicate"}, Contract: handlerstest.Breaks})
		if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{"operationId"}) {
			t.Errorf("fields = %v, want [operationId]", p.Fields())
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", CancellationEnabled: true})
		command(t, env, ann, task.ID, "cancel", map[string]any{"expectedRevision": 1, "operationId": "c-5", "reason": "no"}).
			WantProblem(t, http.StatusForbidden, "forbidden")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", CancellationEnabled: true})
		canceller := handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermView, models.PermCancel}}
		command(t, env, canceller, task.ID, "cancel", map[string]any{"expectedRevision": 1, "operationId": "c-6", "reason": "no"}).
			WantProblem(t, http.StatusNotFound, "not-found")
	})
}
