package handlers_test

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

func TestComplete(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, bob, max := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob"), handlerstest.Manager("acme", "max")
	complete := func(t *testing.T, u handlerstest.User, id string, body any) handlerstest.Response {
		t.Helper()
		return command(t, env, u, id, "complete", body)
	}

	t.Run("OK", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Actions: []models.Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}}})
		body := map[string]any{"expectedRevision": 1, "operationId": "op-1", "actionKey": "approve"}
		resp := complete(t, ann, task.ID, body)
		r := decodeResult(t, resp, http.StatusAccepted)
		if r.Status != "accepted" || r.OperationID != "op-1" || r.Task.Status != "Completing" || r.Revision != 2 || len(r.Task.AllowedActions) != 0 {
			t.Errorf("result = %+v, want op-1 accepted, Completing at revision 2, no actions", r)
		}
		outbox, err := env.Store.Resumptions(context.Background(), "acme", task.ID)
		if err != nil || len(outbox) != 1 || outbox[0].OperationID != "op-1" {
			t.Errorf("outbox = %+v, %v, want one row for op-1", outbox, err)
		}
		if got := env.Get(t, task).Outcome.ActionKey; got != "Approve" {
			t.Errorf("action = %q, want the declared spelling Approve", got)
		}
		t.Run("ReplayAfterTerminal", func(t *testing.T) {
			env.Finalize(t, task)
			again := complete(t, ann, task.ID, body)
			again.WantStatus(t, http.StatusAccepted)
			var r2 result
			again.JSON(t, &r2)
			if r2.OperationID != "op-1" || r2.Status != "accepted" || r2.Revision != 2 || r2.Task.Status != "Completed" {
				t.Errorf("replay = %+v, want the stored answer (accepted, revision 2) with the task as it is now", r2)
			}
		})
		t.Run("ErrTerminal", func(t *testing.T) {
			complete(t, ann, task.ID, map[string]any{"expectedRevision": 3, "operationId": "op-2", "actionKey": "Approve"}).
				WantProblem(t, http.StatusConflict, "terminal")
		})
		t.Run("ErrIdempotencyConflict", func(t *testing.T) {
			complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "op-1", "actionKey": "Reject"}).
				WantProblem(t, http.StatusConflict, "idempotency-conflict")
		})
	})
	t.Run("OKWithForm", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Form: approvalForm, Data: approvalData})
		decodeResult(t, complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "f-1", "actionKey": "Complete",
			"data": map[string]any{"approved": true, "comment": "  fine  ", "iban": "DE00"}}), http.StatusAccepted)
		if got, want := string(env.Get(t, task).Protected.CompletionData), `{"approved":true,"comment":"fine","iban":"DE00"}`; got != want {
			t.Errorf("stored data = %s, want normalized %s", got, want)
		}
	})
	t.Run("ErrFormInvalid", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Form: approvalForm})
		p := complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "f-2", "actionKey": "Complete",
			"data": map[string]any{"comment": strings.Repeat("x", 201), "extra": 1}}).WantProblem(t, http.StatusUnprocessableEntity, "form-invalid")
		if got, want := p.Fields(), []string{"approved", "comment", "extra"}; !slices.Equal(got, want) {
			t.Errorf("fields = %v, want %v", got, want)
		}
		for _, f := range p.Errors {
			if f.Message == "" || strings.Contains(f.Message, "xxx") {
				t.Errorf("field %s message %q: want our own message, never the value", f.Field, f.Message)
			}
		}
	})
	t.Run("ErrPayloadTooLarge", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Form: approvalForm})
		p := complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "big", "actionKey": "Complete",
			"data": map[string]any{"approved": true, "comment": strings.Repeat("x", models.MaxProtectedPayloadBytes)}}).
			WantProblem(t, http.StatusUnprocessableEntity, "payload-too-large")
		if !slices.Equal(p.Fields(), []string{"data"}) {
			t.Errorf("fields = %v, want [data]", p.Fields())
		}
	})
	t.Run("ErrFormUnavailable", func(t *testing.T) {
		// A pinned schema that is JSON but not a form this product supports (the runtime
		// protocol flags such a task; the projection alone does not).
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Form: []byte(`{"type": "array"}`)})
		complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "u-1", "actionKey": "Complete", "data": map[string]any{}}).
			WantProblem(t, http.StatusUnprocessableEntity, "form-unavailable")
	})
	t.Run("ErrFormRequired", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "n-1", "actionKey": "Complete", "data": map[string]any{"note": "x"}}).
			WantProblem(t, http.StatusUnprocessableEntity, "form-required")
	})
	t.Run("ErrInvalidAction", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "a-1", "actionKey": "Approve"}).
			WantProblem(t, http.StatusUnprocessableEntity, "invalid-action")
	})
	t.Run("ErrReservedAction", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		for _, key := range []string{"Timeout", "cancelled"} {
			complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "r-" + key, "actionKey": key}).
				WantProblem(t, http.StatusUnprocessableEntity, "reserved-action")
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		for name, c := range map[string]struct {
			body   map[string]any
			fields []string
		}{
			"NoOperationID":    {map[string]any{"expectedRevision": 1, "actionKey": "Complete"}, []string{"operationId"}},
			"EmptyOperationID": {map[string]any{"expectedRevision": 1, "operationId": "", "actionKey": "Complete"}, []string{"operationId"}},
			"NoActionKey":      {map[string]any{"expectedRevision": 1, "operationId": "v-1"}, []string{"actionKey"}},
			"NoRevision":       {map[string]any{"operationId": "v-2", "actionKey": "Complete"}, []string{"expectedRevision"}},
		} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "complete"), Token: env.Token(t, ann), Body: c.body, Contract: handlerstest.Breaks})
			if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), c.fields) {
				t.Errorf("%s: fields = %v, want %v", name, p.Fields(), c.fields)
			}
		}
	})
	t.Run("ErrTransitionInProgress", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		decodeResult(t, complete(t, ann, task.ID, map[string]any{"expectedRevision": 1, "operationId": "t-1", "actionKey": "Complete"}), http.StatusAccepted)
		complete(t, ann, task.ID, map[string]any{"expectedRevision": 2, "operationId": "t-2", "actionKey": "Complete"}).
			WantProblem(t, http.StatusConflict, "transition-in-progress")
	})
	t.Run("ErrRevisionConflict", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		complete(t, ann, task.ID, map[string]any{"expectedRevision": 2, "operationId": "s-1", "actionKey": "Complete"}).
			WantProblem(t, http.StatusConflict, "revision-conflict")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Candidates: []string{"bob"}})
		var bodies [][]byte
		for _, u := range []handlerstest.User{bob, max} { // a candidate; a manager never completes for someone
			resp := complete(t, u, task.ID, map[string]any{"expectedRevision": 1, "operationId": "x-1", "actionKey": "Complete", "data": map[string]any{"a": 1}})
			resp.WantProblem(t, http.StatusNotFound, "not-found")
			bodies = append(bodies, resp.Body)
		}
		if !bytes.Equal(bodies[0], bodies[1]) {
			t.Errorf("404 bodies differ:\n%s\n%s", bodies[0], bodies[1])
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		viewer := handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermView}}
		command(t, env, viewer, task.ID, "complete", map[string]any{"expectedRevision": 1, "operationId": "p-1", "actionKey": "Complete"}).
			WantProblem(t, http.StatusForbidden, "forbidden")
	})
}
