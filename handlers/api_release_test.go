package handlers_test

import (
	"net/http"
	"testing"

	"usertasks/handlers/handlerstest"
)

func TestRelease(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, bob, max := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob"), handlerstest.Manager("acme", "max")

	t.Run("OK", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Candidates: []string{"bob"}})
		r := decodeResult(t, command(t, env, ann, task.ID, "release", map[string]any{"expectedRevision": 1, "reason": "on leave"}), http.StatusOK)
		if r.Status != "completed" || r.Task.Status != "Available" || r.Task.Assignee != nil || r.Revision != 2 {
			t.Errorf("result = %+v, want Available without assignee at revision 2", r)
		}
	})
	t.Run("OKToUnassigned", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		r := decodeResult(t, command(t, env, ann, task.ID, "release", map[string]any{"expectedRevision": 1}), http.StatusOK)
		if r.Task.Status != "Unassigned" {
			t.Errorf("status = %s, want Unassigned (no candidates left)", r.Task.Status)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Candidates: []string{"bob"}})
		for _, u := range []handlerstest.User{bob, max} {
			command(t, env, u, task.ID, "release", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusNotFound, "not-found")
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "release"), Token: env.Token(t, ann),
			Body: map[string]any{"expectedRevision": 1, "reason": string(make([]byte, 1001))}, Contract: handlerstest.Breaks})
		resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
	})
}
