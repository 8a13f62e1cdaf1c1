package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

func TestReveal(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, bob, max := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob"), handlerstest.Manager("acme", "max")
	task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Candidates: []string{"bob"}, Form: approvalForm, Data: approvalData})
	reveal := func(t *testing.T, u handlerstest.User, body any, contract handlerstest.Contract) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "reveal"), Token: env.Token(t, u), Body: body, Contract: contract})
	}

	t.Run("OK", func(t *testing.T) {
		for _, u := range []handlerstest.User{ann, max} {
			resp := reveal(t, u, map[string]any{"fieldKey": "iban"}, handlerstest.Conforms)
			resp.WantStatus(t, http.StatusOK)
			var got struct {
				FieldKey string `json:"fieldKey"`
				Value    any    `json:"value"`
			}
			resp.JSON(t, &got)
			if got.FieldKey != "iban" || got.Value != "DE89370400440532013000" {
				t.Errorf("%s: revealed %+v, want the IBAN", u.ID, got)
			}
		}
		evs, err := env.Store.Events(context.Background(), "acme", task.ID, 0, 50)
		if err != nil {
			t.Fatal(err)
		}
		var reveals []string
		for _, e := range evs {
			if e.Type == models.EventFieldRevealed {
				reveals = append(reveals, e.Actor.ID+":"+string(e.Metadata))
			}
		}
		if want := []string{`ann:{"field":"iban"}`, `max:{"field":"iban"}`}; !slices.Equal(reveals, want) {
			t.Errorf("field-revealed events = %v, want %v", reveals, want)
		}
		if got := env.Get(t, task).Revision; got != 1 {
			t.Errorf("revision = %d, want 1 (revealing changes no state)", got)
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		for name, c := range map[string]struct {
			body     map[string]any
			contract handlerstest.Contract
		}{
			"NotMasked": {map[string]any{"fieldKey": "comment"}, handlerstest.Conforms},
			"Unknown":   {map[string]any{"fieldKey": "salary"}, handlerstest.Conforms},
			"Missing":   {map[string]any{}, handlerstest.Breaks},
			"Empty":     {map[string]any{"fieldKey": ""}, handlerstest.Breaks},
		} {
			p := reveal(t, ann, c.body, c.contract).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if !slices.Equal(p.Fields(), []string{"fieldKey"}) {
				t.Errorf("%s: fields = %v, want [fieldKey]", name, p.Fields())
			}
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		reveal(t, bob, map[string]any{"fieldKey": "iban"}, handlerstest.Conforms).WantProblem(t, http.StatusNotFound, "not-found")
	})
}
