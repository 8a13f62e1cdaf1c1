package handlers_test

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// result is a command answer.
type result struct {
	OperationID string `json:"operationId"`
	Status      string `json:"status"`
	Revision    int    `json:"revision"`
	Task        struct {
		ID             string   `json:"id"`
		Status         string   `json:"status"`
		Revision       int      `json:"revision"`
		Priority       int      `json:"priority"`
		DueAt          *string  `json:"dueAt"`
		AllowedActions []string `json:"allowedActions"`
		Assignee       *struct {
			Type, Provider, ID, DisplayName string
		} `json:"assignee"`
		HealthSeverity *string `json:"healthSeverity"`
		HealthCode     *string `json:"healthCode"`
	} `json:"task"`
}

// command posts body to a task's command and returns the answer.
func command(t *testing.T, env *handlerstest.Env, u handlerstest.User, id, cmd string, body any) handlerstest.Response {
	t.Helper()
	return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(id, cmd), Token: env.Token(t, u), Body: body})
}

func decodeResult(t *testing.T, resp handlerstest.Response, status int) result {
	t.Helper()
	resp.WantStatus(t, status)
	var r result
	resp.JSON(t, &r)
	return r
}

func TestClaim(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, bob, eve := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob", "finance"), handlerstest.Worker("acme", "eve")

	t.Run("OK", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		resp := command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 1, "operationId": "claim-1"})
		r := decodeResult(t, resp, http.StatusOK)
		if r.OperationID != "claim-1" || r.Status != "completed" || r.Revision != 2 || r.Task.Revision != 2 || r.Task.Status != "Assigned" {
			t.Errorf("result = %+v, want claim-1 completed at revision 2, Assigned", r)
		}
		if a := r.Task.Assignee; a == nil || a.ID != "ann" || a.Type != "user" || a.Provider != "default" || a.DisplayName != "Worker ann" {
			t.Errorf("assignee = %+v, want ann", a)
		}
		if want := []string{"release", "complete"}; !slices.Equal(r.Task.AllowedActions, want) {
			t.Errorf("allowedActions = %v, want %v", r.Task.AllowedActions, want)
		}
		t.Run("Replay", func(t *testing.T) {
			again := command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 1, "operationId": "claim-1"})
			again.WantStatus(t, http.StatusOK)
			if !bytes.Equal(again.Body, resp.Body) {
				t.Errorf("replay answered\n%s\nwant\n%s", again.Body, resp.Body)
			}
		})
		t.Run("ErrIdempotencyConflict", func(t *testing.T) {
			command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 2, "operationId": "claim-1"}).
				WantProblem(t, http.StatusConflict, "idempotency-conflict")
		})
	})
	t.Run("OKThroughGroupWithoutOperationID", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Groups: []string{"finance"}})
		r := decodeResult(t, command(t, env, bob, task.ID, "claim", map[string]any{"expectedRevision": 1}), http.StatusOK)
		if r.OperationID == "" || r.Task.Assignee == nil || r.Task.Assignee.ID != "bob" {
			t.Errorf("result = %+v, want a minted operation id and bob assigned", r)
		}
	})
	t.Run("ErrRevisionConflict", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 7}).WantProblem(t, http.StatusConflict, "revision-conflict")
	})
	t.Run("ErrNotClaimable", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Assignee: "bob"})
		command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusConflict, "not-claimable")
	})
	t.Run("ErrTransitionInProgress", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Assignee: "bob"})
		decodeResult(t, command(t, env, bob, task.ID, "complete", map[string]any{"expectedRevision": 1, "operationId": "done", "actionKey": "Complete"}), http.StatusAccepted)
		command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 2}).WantProblem(t, http.StatusConflict, "transition-in-progress")
	})
	t.Run("ErrTerminal", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		task = env.Finalize(t, task)
		command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": task.Revision}).WantProblem(t, http.StatusConflict, "terminal")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Excluded: []string{"eve"}, Groups: []string{"finance"}})
		for _, u := range []handlerstest.User{eve, handlerstest.Worker("acme", "eve", "finance")} {
			command(t, env, u, task.ID, "claim", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusNotFound, "not-found")
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		viewer := handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermView}}
		command(t, env, viewer, task.ID, "claim", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusForbidden, "forbidden")
	})
}

// TestCommandBodies covers the strict body decoding every command shares, through claim.
func TestCommandBodies(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann := handlerstest.Worker("acme", "ann")
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	post := func(t *testing.T, body any, r handlerstest.Request) handlerstest.Response {
		t.Helper()
		r.Method, r.Path, r.Token, r.Body = http.MethodPost, handlerstest.TaskPath(task.ID, "claim"), env.Token(t, ann), body
		if r.Contract == 0 {
			r.Contract = handlerstest.Breaks
		}
		return env.Do(t, r)
	}

	t.Run("ErrMalformedRequest", func(t *testing.T) {
		for name, body := range map[string]string{
			"Syntax":        `{"expectedRevision": 1`,
			"NotAnObject":   `[1]`,
			"Null":          `null`,
			"Empty":         ` `,
			"TrailingValue": `{"expectedRevision": 1} {}`,
			"TrailingClose": `{"expectedRevision": 1}]`,
		} {
			resp := post(t, body, handlerstest.Request{})
			if p := resp.WantProblem(t, http.StatusBadRequest, "malformed-request"); !slices.Equal(p.Fields(), []string{"body"}) {
				t.Errorf("%s: fields = %v, want [body]", name, p.Fields())
			}
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		for name, c := range map[string]struct {
			body   string
			fields []string
		}{
			"Missing":        {`{}`, []string{"expectedRevision"}},
			"NullRevision":   {`{"expectedRevision": null}`, []string{"expectedRevision"}},
			"ZeroRevision":   {`{"expectedRevision": 0}`, []string{"expectedRevision"}},
			"StringRevision": {`{"expectedRevision": "1"}`, []string{"expectedRevision"}},
			"FloatRevision":  {`{"expectedRevision": 1.5}`, []string{"expectedRevision"}},
			"Unknown":        {`{"expectedRevision": 1, "force": true, "actor": "max"}`, []string{"actor", "force"}},
			"CaseVariant":    {`{"ExpectedRevision": 1}`, []string{"ExpectedRevision"}},
			"WrongType":      {`{"expectedRevision": 1, "operationId": 5}`, []string{"operationId"}},
		} {
			resp := post(t, c.body, handlerstest.Request{})
			if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), c.fields) {
				t.Errorf("%s: fields = %v, want %v", name, p.Fields(), c.fields)
			}
		}
	})
	t.Run("ErrPayloadTooLarge", func(t *testing.T) {
		big := `{"expectedRevision": 1, "operationId": "` + strings.Repeat("x", models.MaxRequestBodyBytes) + `"}`
		for _, chunked := range []bool{false, true} {
			resp := post(t, big, handlerstest.Request{Chunked: chunked})
			resp.WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large")
		}
		if got := env.Get(t, task).Revision; got != 1 {
			t.Errorf("revision = %d after refused bodies, want 1", got)
		}
	})
	t.Run("ErrOperationIDTooLong", func(t *testing.T) {
		resp := post(t, map[string]any{"expectedRevision": 1, "operationId": strings.Repeat("x", 129)}, handlerstest.Request{})
		if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{"operationId"}) {
			t.Errorf("fields = %v, want [operationId]", p.Fields())
		}
	})
}
