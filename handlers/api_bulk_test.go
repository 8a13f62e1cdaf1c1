package handlers_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

type bulkAnswer struct {
	Items []struct {
		TaskID   string `json:"taskId"`
		Outcome  string `json:"outcome"`
		Code     string `json:"code"`
		Revision int    `json:"revision"`
	} `json:"items"`
}

func bulk(t *testing.T, env *handlerstest.Env, u handlerstest.User, body any, contract ...handlerstest.Contract) handlerstest.Response {
	t.Helper()
	r := handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/user-tasks/bulk", Token: env.Token(t, u), Body: body}
	if len(contract) > 0 {
		r.Contract = contract[0]
	}
	return env.Do(t, r)
}

// outcomes is "outcome/code" per item, in answer order.
func outcomes(t *testing.T, resp handlerstest.Response) []string {
	t.Helper()
	resp.WantStatus(t, http.StatusOK)
	var a bulkAnswer
	resp.JSON(t, &a)
	var got []string
	for _, it := range a.Items {
		got = append(got, it.Outcome+"/"+it.Code)
	}
	return got
}

func item(task models.Task) map[string]any {
	return map[string]any{"taskId": task.ID, "expectedRevision": task.Revision}
}

func TestBulk(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")
	otherMax := handlerstest.Manager("other", "max")

	t.Run("OK", func(t *testing.T) {
		open := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		stale := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		closed := env.Finalize(t, env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}}))
		foreign := env.Task(t, handlerstest.TaskOpts{Tenant: "other", Candidates: []string{"ann"}})
		excluded := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Excluded: []string{"bob"}})
		decodeResult(t, env.Do(t, handlerstest.Request{Method: http.MethodPatch, Path: handlerstest.TaskPath(stale.ID), Token: env.Token(t, max),
			Body: map[string]any{"expectedRevision": 1, "priority": 1}}), http.StatusOK)
		body := map[string]any{"action": "assign", "operationId": "bulk-assign", "assignee": map[string]any{"id": "bob"},
			"items": []any{item(open), item(stale), item(closed), item(foreign), item(excluded),
				map[string]any{"taskId": "a/b?c#d e\u00fc\u0001", "expectedRevision": 1}, map[string]any{"taskId": strings.Repeat("x", 5000), "expectedRevision": 1}}}
		want := []string{"done/", "conflict/revision-conflict", "refused/terminal", "refused/not-found", "refused/excluded-assignee", "refused/not-found", "refused/not-found"}
		resp := bulk(t, env, max, body)
		if got := outcomes(t, resp); !slices.Equal(got, want) {
			t.Fatalf("outcomes %v, want %v", got, want)
		}
		var a bulkAnswer
		resp.JSON(t, &a)
		if a.Items[0].TaskID != open.ID || a.Items[0].Revision != 2 || a.Items[1].Revision != 2 || a.Items[3].Revision != 0 {
			t.Errorf("answer %+v", a.Items)
		}
		if got := env.Get(t, open); got.Assignee == nil || got.Assignee.ID != "bob" {
			t.Errorf("assignee %+v, want bob", got.Assignee)
		}
		t.Run("Replay", func(t *testing.T) {
			if got := outcomes(t, bulk(t, env, max, body)); !slices.Equal(got, want) {
				t.Fatalf("replay outcomes %v, want %v", got, want)
			}
			if got := env.Get(t, open); got.Revision != 2 {
				t.Fatalf("the replay changed the task: revision %d", got.Revision)
			}
		})
		t.Run("ErrIdempotencyConflict", func(t *testing.T) {
			body["assignee"] = map[string]any{"id": "cy"}
			if got := outcomes(t, bulk(t, env, max, body)); got[0] != "refused/idempotency-conflict" {
				t.Fatalf("changed body: %v, want idempotency-conflict first", got)
			}
		})
		t.Run("CrossTenantManager", func(t *testing.T) {
			b := map[string]any{"action": "retry-resolution", "operationId": "x", "items": []any{item(open), item(foreign)}}
			if got := outcomes(t, bulk(t, env, otherMax, b)); !slices.Equal(got, []string{"refused/not-found", "done/"}) {
				t.Fatalf("other tenant's manager: %v", got)
			}
		})
	})
	t.Run("ScheduleAndCancel", func(t *testing.T) {
		a := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, CancellationEnabled: true})
		b := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		got := outcomes(t, bulk(t, env, max, map[string]any{"action": "schedule", "operationId": "s", "priority": 80,
			"dueAt": "2031-01-02T03:04:05+02:00", "items": []any{item(a), item(b)}}))
		if !slices.Equal(got, []string{"done/", "done/"}) {
			t.Fatalf("schedule: %v", got)
		}
		if g := env.Get(t, b); g.Priority != 80 || g.DueAt == nil || g.DueAt.UTC().Hour() != 1 {
			t.Fatalf("after schedule: %d %v", g.Priority, g.DueAt)
		}
		a, b = env.Get(t, a), env.Get(t, b)
		got = outcomes(t, bulk(t, env, max, map[string]any{"action": "cancel", "operationId": "c", "reason": "obsolete", "items": []any{item(a), item(b)}}))
		if !slices.Equal(got, []string{"done/", "refused/cancellation-disabled"}) {
			t.Fatalf("cancel: %v", got)
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		bulk(t, env, ann, map[string]any{"action": "retry-resolution", "operationId": "f", "items": []any{item(task)}}).
			WantProblem(t, http.StatusForbidden, "forbidden")
		// Refused before the body is read: a worker's malformed body is still 403.
		bulk(t, env, ann, "{not json", handlerstest.Breaks).WantProblem(t, http.StatusForbidden, "forbidden")
		noCancel := max
		noCancel.Permissions = []string{models.PermView, models.PermSupervise}
		bulk(t, env, noCancel, map[string]any{"action": "cancel", "reason": "r", "operationId": "f", "items": []any{item(task)}}).
			WantProblem(t, http.StatusForbidden, "forbidden")
		if g := env.Get(t, task); g.Revision != 1 {
			t.Fatalf("a refused request changed the task")
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		many := make([]any, 201)
		for i := range many {
			many[i] = map[string]any{"taskId": models.NewID(), "expectedRevision": 1}
		}
		for _, c := range []struct {
			name  string
			body  any
			field string
		}{ // the document cannot say which members an action needs, nor that task ids differ
			{"NoItems", map[string]any{"action": "retry-resolution", "operationId": "v", "items": []any{}}, "items"},
			{"TooManyItems", map[string]any{"action": "retry-resolution", "operationId": "v", "items": many}, "items"},
			{"Duplicate", map[string]any{"action": "retry-resolution", "operationId": "v", "items": []any{item(task), item(task)}}, "items[1].taskId"},
			{"NoRevision", map[string]any{"action": "retry-resolution", "operationId": "v", "items": []any{map[string]any{"taskId": task.ID}}}, "items[0].expectedRevision"},
			{"UnknownItemField", map[string]any{"action": "retry-resolution", "operationId": "v", "items": []any{map[string]any{"taskId": task.ID, "expectedRevision": 1, "x": 1}}}, "items[0].x"},
			{"NoOperationID", map[string]any{"action": "retry-resolution", "items": []any{item(task)}}, "operationId"},
			{"UnknownAction", map[string]any{"action": "delete", "operationId": "v", "items": []any{item(task)}}, "action"},
			{"AssignWithoutAssignee", map[string]any{"action": "assign", "operationId": "v", "items": []any{item(task)}}, "assignee"},
			{"CancelWithoutReason", map[string]any{"action": "cancel", "operationId": "v", "items": []any{item(task)}}, "reason"},
			{"ScheduleWithoutFields", map[string]any{"action": "schedule", "operationId": "v", "items": []any{item(task)}}, "priority"},
			{"BadDueAt", map[string]any{"action": "schedule", "operationId": "v", "dueAt": "tomorrow", "items": []any{item(task)}}, "dueAt"},
			{"RetryWithAssignee", map[string]any{"action": "retry-resolution", "operationId": "v", "assignee": map[string]any{"id": "bob"}, "items": []any{item(task)}}, "assignee"},
		} {
			t.Run(c.name, func(t *testing.T) {
				contract := handlerstest.Breaks
				if slices.Contains([]string{"Duplicate", "AssignWithoutAssignee", "CancelWithoutReason", "ScheduleWithoutFields", "RetryWithAssignee"}, c.name) {
					contract = handlerstest.Conforms
				}
				p := bulk(t, env, max, c.body, contract).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
				if !slices.Contains(p.Fields(), c.field) {
					t.Fatalf("fields %v, want %s", p.Fields(), c.field)
				}
			})
		}
		bulk(t, env, max, map[string]any{"action": "schedule", "operationId": "v", "priority": 101, "items": []any{item(task)}}, handlerstest.Breaks).
			WantProblem(t, http.StatusUnprocessableEntity, "invalid-priority")
		bulk(t, env, max, `{"action":"schedule"`, handlerstest.Breaks).WantProblem(t, http.StatusBadRequest, "malformed-request")
		if g := env.Get(t, task); g.Revision != 1 {
			t.Fatalf("a refused request changed the task")
		}
	})
}
