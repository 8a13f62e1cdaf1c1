package handlers_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
)

func TestUpdateSchedule(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")
	patch := func(t *testing.T, u handlerstest.User, id string, body any, contract handlerstest.Contract) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodPatch, Path: handlerstest.TaskPath(id), Token: env.Token(t, u), Body: body, Contract: contract})
	}

	t.Run("OK", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		r := decodeResult(t, patch(t, max, task.ID, map[string]any{"expectedRevision": 1, "priority": 80, "dueAt": "2030-01-02T10:00:00+02:00"}, handlerstest.Conforms), http.StatusOK)
		if r.Task.Priority != 80 || r.Task.DueAt == nil || *r.Task.DueAt != "2030-01-02T08:00:00Z" || r.Revision != 2 {
			t.Errorf("result = %+v, want priority 80, due 2030-01-02T08:00:00Z (UTC), revision 2", r.Task)
		}
		t.Run("ClearDue", func(t *testing.T) {
			r := decodeResult(t, patch(t, max, task.ID, map[string]any{"expectedRevision": 2, "dueAt": nil}, handlerstest.Conforms), http.StatusOK)
			if r.Task.DueAt != nil || r.Task.Priority != 80 {
				t.Errorf("dueAt, priority = %v, %d, want null, 80", r.Task.DueAt, r.Task.Priority)
			}
		})
	})
	t.Run("ErrInvalidPriority", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{})
		for _, prio := range []int{-1, 101} {
			p := patch(t, max, task.ID, map[string]any{"expectedRevision": 1, "priority": prio}, handlerstest.Breaks).
				WantProblem(t, http.StatusUnprocessableEntity, "invalid-priority")
			if !slices.Equal(p.Fields(), []string{"priority"}) {
				t.Errorf("fields = %v, want [priority]", p.Fields())
			}
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{})
		for name, c := range map[string]struct {
			body     map[string]any
			field    string
			contract handlerstest.Contract
		}{
			"NothingToChange": {map[string]any{"expectedRevision": 1}, "priority", handlerstest.Conforms},
			"BadTime":         {map[string]any{"expectedRevision": 1, "dueAt": "tomorrow"}, "dueAt", handlerstest.Breaks},
			"NumberTime":      {map[string]any{"expectedRevision": 1, "dueAt": 5}, "dueAt", handlerstest.Breaks},
			"FloatPriority":   {map[string]any{"expectedRevision": 1, "priority": 5.5}, "priority", handlerstest.Breaks},
			"Status":          {map[string]any{"expectedRevision": 1, "status": "Completed"}, "status", handlerstest.Breaks},
		} {
			p := patch(t, max, task.ID, c.body, c.contract).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if !slices.Equal(p.Fields(), []string{c.field}) {
				t.Errorf("%s: fields = %v, want [%s]", name, p.Fields(), c.field)
			}
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		patch(t, ann, task.ID, map[string]any{"expectedRevision": 1, "priority": 1}, handlerstest.Conforms).WantProblem(t, http.StatusForbidden, "forbidden")
	})
	t.Run("ErrTransitionInProgress", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		decodeResult(t, command(t, env, ann, task.ID, "complete", map[string]any{"expectedRevision": 1, "operationId": "c", "actionKey": "Complete"}), http.StatusAccepted)
		due := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		patch(t, max, task.ID, map[string]any{"expectedRevision": 2, "dueAt": due}, handlerstest.Conforms).WantProblem(t, http.StatusConflict, "transition-in-progress")
	})
}
