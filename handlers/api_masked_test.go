package handlers_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// TestMaskedValuesStayOnTheServer covers SPEC 3.7: a masked field's value — prefilled from
// taskData or submitted with the completion — leaves the server only through the audited
// reveal. The raw bytes of every other answer are searched for it.
func TestMaskedValuesStayOnTheServer(t *testing.T) {
	const prefilled, submitted = "DE89PREFILLED0532013000", "DE44SUBMITTED0532013111"
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")
	task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann", Form: approvalForm,
		Data: `{"comment":"looks fine","iban":"` + prefilled + `","extra":{"kept":true}}`})
	get := func(t *testing.T, u handlerstest.User, path string) []byte {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path, Token: env.Token(t, u)})
		resp.WantStatus(t, http.StatusOK)
		return resp.Body
	}
	noSecret := func(t *testing.T, what string, body []byte) {
		t.Helper()
		for _, s := range []string{prefilled, submitted} {
			if bytes.Contains(body, []byte(s)) {
				t.Errorf("%s carries the masked value %s:\n%s", what, s, body)
			}
		}
	}

	t.Run("Detail", func(t *testing.T) {
		for _, u := range []handlerstest.User{ann, max} {
			body := get(t, u, handlerstest.TaskPath(task.ID))
			noSecret(t, "the detail for "+u.ID, body)
			d := getDetail(t, env, u, task.ID)
			if got, want := string(d.raw["data"]), `{"comment":"looks fine","extra":{"kept":true}}`; !jsonEqual(got, want) {
				t.Errorf("%s: data = %s, want the unmasked members only", u.ID, got)
			}
		}
	})
	t.Run("RevealIsTheWayAndIsAudited", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "reveal"),
			Token: env.Token(t, ann), Body: map[string]any{"fieldKey": "iban"}})
		resp.WantStatus(t, http.StatusOK)
		if !bytes.Contains(resp.Body, []byte(prefilled)) {
			t.Fatalf("reveal answered %s, want the prefilled value", resp.Body)
		}
		evs, err := env.Store.Events(context.Background(), "acme", task.ID, 0, 50)
		if err != nil {
			t.Fatal(err)
		}
		if last := evs[len(evs)-1]; last.Type != models.EventFieldRevealed || last.Actor == nil || last.Actor.ID != "ann" {
			t.Fatalf("last event %s by %v, want field-revealed by ann", last.Type, last.Actor)
		}
	})

	body := map[string]any{"expectedRevision": 1, "operationId": "done-1", "actionKey": "Complete",
		"data": map[string]any{"approved": true, "iban": submitted}}
	t.Run("CompleteAndItsReplay", func(t *testing.T) {
		for range 2 {
			resp := command(t, env, ann, task.ID, "complete", body)
			resp.WantStatus(t, http.StatusAccepted)
			noSecret(t, "the complete answer", resp.Body)
		}
	})
	t.Run("DetailAfterCompletion", func(t *testing.T) {
		for _, u := range []handlerstest.User{ann, max} {
			noSecret(t, "the detail for "+u.ID, get(t, u, handlerstest.TaskPath(task.ID)))
		}
	})
	t.Run("Events", func(t *testing.T) {
		for _, u := range []handlerstest.User{ann, max} {
			noSecret(t, "the events for "+u.ID, get(t, u, handlerstest.TaskPath(task.ID, "events")))
		}
	})
	t.Run("List", func(t *testing.T) {
		noSecret(t, "the manager's list", get(t, max, "/api/v1/user-tasks?scope=all"))
		noSecret(t, "the assignee's list", get(t, ann, "/api/v1/user-tasks?scope=assigned"))
	})
}
