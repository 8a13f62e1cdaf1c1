package handlers_test

import (
	"net/http"
	"slices"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

func TestAssign(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")

	t.Run("OK", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		r := decodeResult(t, command(t, env, max, task.ID, "assign", map[string]any{
			"expectedRevision": 1, "assignee": map[string]any{"type": "user", "provider": "default", "id": "cat", "displayName": "Cat"}, "reason": "expert",
		}), http.StatusOK)
		if a := r.Task.Assignee; r.Task.Status != "Assigned" || a == nil || a.ID != "cat" || a.DisplayName != "Cat" {
			t.Errorf("result = %+v, want Assigned to cat", r)
		}
		if r.Task.HealthCode != nil {
			t.Errorf("healthCode = %q, want null", *r.Task.HealthCode)
		}
	})
	t.Run("OKReassignWithDefaults", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		r := decodeResult(t, command(t, env, max, task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "dan"}}), http.StatusOK)
		if a := r.Task.Assignee; a == nil || a.ID != "dan" || a.Provider != "default" || a.Type != "user" {
			t.Errorf("assignee = %+v, want default/user/dan", a)
		}
	})
	t.Run("OKExcludedWithOverrideAndReason", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Excluded: []string{"eve"}, AllowExclusionOverride: true})
		r := decodeResult(t, command(t, env, max, task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "eve"}, "reason": "only expert"}), http.StatusOK)
		if a := r.Task.Assignee; a == nil || a.ID != "eve" {
			t.Errorf("assignee = %+v, want eve", a)
		}
	})
	t.Run("ErrExcludedAssignee", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Excluded: []string{"eve"}})
		p := command(t, env, max, task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "eve"}, "reason": "please"}).
			WantProblem(t, http.StatusUnprocessableEntity, "excluded-assignee")
		if !slices.Equal(p.Fields(), []string{"assignee"}) {
			t.Errorf("fields = %v, want [assignee]", p.Fields())
		}
	})
	t.Run("ErrReasonRequired", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Excluded: []string{"eve"}, AllowExclusionOverride: true})
		command(t, env, max, task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "eve"}}).
			WantProblem(t, http.StatusUnprocessableEntity, "reason-required")
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		for name, c := range map[string]struct {
			body   map[string]any
			fields []string
			breaks bool
		}{
			"NoAssignee":     {map[string]any{"expectedRevision": 1}, []string{"assignee"}, true},
			"NullAssignee":   {map[string]any{"expectedRevision": 1, "assignee": nil}, []string{"assignee"}, true},
			"AssigneeString": {map[string]any{"expectedRevision": 1, "assignee": "ann"}, []string{"assignee"}, true},
			"UnknownInside":  {map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "ann", "tenant": "other"}}, []string{"assignee.tenant"}, true},
			"Group":          {map[string]any{"expectedRevision": 1, "assignee": map[string]any{"type": "group", "id": "finance"}}, []string{"assignee.type"}, false},
			"GuestProvider":  {map[string]any{"expectedRevision": 1, "assignee": map[string]any{"provider": "guest", "id": "x"}}, []string{"assignee.provider"}, false},
			"UnknownType":    {map[string]any{"expectedRevision": 1, "assignee": map[string]any{"type": "robot", "id": "r2"}}, []string{"assignee.type"}, true},
			"IDWrongType":    {map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": 5}}, []string{"assignee.id"}, true},
			"EmptyID":        {map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": ""}}, []string{"assignee.id"}, true},
		} {
			contract := handlerstest.Conforms
			if c.breaks {
				contract = handlerstest.Breaks
			}
			resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "assign"), Token: env.Token(t, max), Body: c.body, Contract: contract})
			if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), c.fields) {
				t.Errorf("%s: fields = %v, want %v", name, p.Fields(), c.fields)
			}
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		assigner := handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermView, models.PermAssign}}
		command(t, env, assigner, task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "ann"}}).
			WantProblem(t, http.StatusNotFound, "not-found")
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		command(t, env, ann, task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "ann"}}).
			WantProblem(t, http.StatusForbidden, "forbidden")
	})
	t.Run("ErrTerminal", func(t *testing.T) {
		task := env.Finalize(t, env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}}))
		command(t, env, max, task.ID, "assign", map[string]any{"expectedRevision": task.Revision, "assignee": map[string]any{"id": "ann"}}).
			WantProblem(t, http.StatusConflict, "terminal")
	})
}
