package handlers_test

import (
	"net/http"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

func TestRetryResolution(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")
	broken := models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormResolutionFailed, Message: "The form could not be resolved."}

	t.Run("OK", func(t *testing.T) {
		// The pinned form compiles, so the retry clears the blocking finding and candidates see the task again.
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Form: approvalForm, Health: broken})
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID), Token: env.Token(t, ann)}).
			WantProblem(t, http.StatusNotFound, "not-found")
		r := decodeResult(t, command(t, env, max, task.ID, "retry-resolution", map[string]any{"expectedRevision": 1, "operationId": "retry-1"}), http.StatusAccepted)
		if r.Status != "completed" || r.OperationID != "retry-1" || r.Revision != 2 || r.Task.HealthSeverity != nil || r.Task.HealthCode != nil {
			t.Errorf("result = %+v, want completed at revision 2 with the health cleared", r)
		}
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID), Token: env.Token(t, ann)}).WantStatus(t, http.StatusOK)
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		command(t, env, ann, task.ID, "retry-resolution", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusForbidden, "forbidden")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		supervisor := handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermView, models.PermSupervise}}
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		command(t, env, supervisor, task.ID, "retry-resolution", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusNotFound, "not-found")
		command(t, env, max, models.NewID(), "retry-resolution", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusNotFound, "not-found")
	})
	t.Run("ErrRevisionConflict", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Health: broken, Form: approvalForm})
		command(t, env, max, task.ID, "retry-resolution", map[string]any{"expectedRevision": 3}).WantProblem(t, http.StatusConflict, "revision-conflict")
	})
}
