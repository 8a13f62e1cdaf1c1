package handlers_test

import (
	"net/http"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// TestReplayByAnotherCaller covers SPEC 3.4 over HTTP on every provider: an operationId is
// bound to the caller that used it. Another caller who could otherwise run the command sends
// the same operationId and the same body: 409 idempotency-conflict, nothing written; the first
// caller's replay still answers the original result.
func TestReplayByAnotherCaller(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			testReplayByAnotherCaller(t, p.start(t, nil))
		})
	}
}

func testReplayByAnotherCaller(t *testing.T, env *handlerstest.Env) {
	ann, carl := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "carl", "finance")
	max, mia := handlerstest.Manager("acme", "max"), handlerstest.Manager("acme", "mia")
	claim := func(u handlerstest.User, id string, rev int) int {
		t.Helper()
		return decodeResult(t, command(t, env, u, id, "claim", map[string]any{"expectedRevision": rev}), http.StatusOK).Revision
	}
	send := func(u handlerstest.User, method, id, cmd string, body map[string]any) handlerstest.Response {
		path := handlerstest.TaskPath(id)
		if cmd != "" {
			path = handlerstest.TaskPath(id, cmd)
		}
		return env.Do(t, handlerstest.Request{Method: method, Path: path, Token: env.Token(t, u), Body: body})
	}

	tests := []struct {
		name          string
		method, cmd   string
		first, second handlerstest.User
		status        int            // of the first answer
		body          map[string]any // expectedRevision and operationId are added
		setup         func(id string) int
		between       func(id string, rev int)
		wantStatus    int
		wantCode      string
	}{
		{name: "Claim", method: http.MethodPost, cmd: "claim", first: ann, second: carl, status: http.StatusOK,
			wantStatus: http.StatusConflict, wantCode: "idempotency-conflict"},
		{name: "Release", method: http.MethodPost, cmd: "release", first: ann, second: carl, status: http.StatusOK,
			body:       map[string]any{"reason": "busy"},
			setup:      func(id string) int { return claim(ann, id, 1) },
			between:    func(id string, rev int) { claim(carl, id, rev) },
			wantStatus: http.StatusConflict, wantCode: "idempotency-conflict"},
		{name: "Assign", method: http.MethodPost, cmd: "assign", first: max, second: mia, status: http.StatusOK,
			body:       map[string]any{"assignee": map[string]any{"type": "user", "id": "bob"}},
			wantStatus: http.StatusConflict, wantCode: "idempotency-conflict"},
		{name: "UpdateSchedule", method: http.MethodPatch, first: max, second: mia, status: http.StatusOK,
			body:       map[string]any{"priority": 80},
			wantStatus: http.StatusConflict, wantCode: "idempotency-conflict"},
		// Once completed, the task has no assignee another caller could be, so the relationship
		// step refuses first (SPEC 4 order), with the not-found every stranger gets.
		{name: "Complete", method: http.MethodPost, cmd: "complete", first: ann, second: max, status: http.StatusAccepted,
			body:       map[string]any{"actionKey": "Complete"},
			setup:      func(id string) int { return claim(ann, id, 1) },
			wantStatus: http.StatusNotFound, wantCode: "not-found"},
		{name: "Cancel", method: http.MethodPost, cmd: "cancel", first: max, second: mia, status: http.StatusAccepted,
			body:       map[string]any{"reason": "duplicate"},
			wantStatus: http.StatusConflict, wantCode: "idempotency-conflict"},
		{name: "RetryResolution", method: http.MethodPost, cmd: "retry-resolution", first: max, second: mia, status: http.StatusAccepted,
			wantStatus: http.StatusConflict, wantCode: "idempotency-conflict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Groups: []string{"finance"}, CancellationEnabled: true})
			rev := task.Revision
			if tt.setup != nil {
				rev = tt.setup(task.ID)
			}
			body := map[string]any{"expectedRevision": rev, "operationId": "op-" + models.NewID()}
			for k, v := range tt.body {
				body[k] = v
			}
			first := decodeResult(t, send(tt.first, tt.method, task.ID, tt.cmd, body), tt.status)
			if tt.between != nil {
				tt.between(task.ID, first.Revision)
			}
			events := env.Count(t, "SELECT COUNT(*) FROM user_task_events WHERE task_id = ?", task.ID)
			ops := env.Count(t, "SELECT COUNT(*) FROM user_task_operations WHERE task_id = ?", task.ID)
			revision := env.Get(t, task).Revision

			send(tt.second, tt.method, task.ID, tt.cmd, body).WantProblem(t, tt.wantStatus, tt.wantCode)
			if got := env.Count(t, "SELECT COUNT(*) FROM user_task_events WHERE task_id = ?", task.ID); got != events {
				t.Errorf("events %d → %d: the refused replay wrote one", events, got)
			}
			if got := env.Count(t, "SELECT COUNT(*) FROM user_task_operations WHERE task_id = ?", task.ID); got != ops {
				t.Errorf("operations %d → %d: the refused replay wrote one", ops, got)
			}
			if got := env.Get(t, task).Revision; got != revision {
				t.Errorf("revision %d → %d: the refused replay changed the task", revision, got)
			}

			again := decodeResult(t, send(tt.first, tt.method, task.ID, tt.cmd, body), tt.status)
			if again.OperationID != first.OperationID || again.Revision != first.Revision || again.Status != first.Status {
				t.Errorf("the first caller's replay = %+v, want the original %+v", again, first)
			}
		})
	}
}
