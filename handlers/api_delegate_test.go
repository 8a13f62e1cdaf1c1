package handlers_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// delegation is what the detail shows of a delegation.
type delegation struct {
	Status      string `json:"status"`
	Revision    int    `json:"revision"`
	DelegatedBy *struct {
		ID, DisplayName string
	} `json:"delegatedBy"`
	Assignee *struct{ ID, DisplayName string } `json:"assignee"`
	Outcome  *struct {
		CompletedBy *struct{ ID string } `json:"completedBy"`
		OnBehalfOf  *struct{ ID string } `json:"onBehalfOf"`
	} `json:"outcome"`
}

func getDelegation(t *testing.T, env *handlerstest.Env, u handlerstest.User, id string) delegation {
	t.Helper()
	resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(id), Token: env.Token(t, u)})
	resp.WantStatus(t, http.StatusOK)
	var d delegation
	resp.JSON(t, &d)
	return d
}

func TestDelegateAndReturn(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Directory: peopleDirectory(t)})
	ann, ben, max := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "ben"), handlerstest.Manager("acme", "max")
	delegate := func(t *testing.T, u handlerstest.User, id string, rev int, to map[string]any) handlerstest.Response {
		t.Helper()
		return command(t, env, u, id, "delegate", map[string]any{"expectedRevision": rev, "to": to, "reason": "on holiday"})
	}

	t.Run("OKChainBackToTheDelegator", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		r := decodeResult(t, delegate(t, ann, task.ID, 1, map[string]any{"type": "user", "id": "ben"}), http.StatusOK)
		if a := r.Task.Assignee; r.Revision != 2 || r.Task.Status != "Assigned" || a == nil || a.ID != "ben" || a.DisplayName != "Ben Brooks" {
			t.Fatalf("result = %+v, want Assigned to ben, named by the directory, at revision 2", r)
		}
		d := getDelegation(t, env, ben, task.ID)
		if d.DelegatedBy == nil || d.DelegatedBy.ID != "ann" {
			t.Fatalf("detail delegatedBy = %+v, want ann", d.DelegatedBy)
		}
		r = decodeResult(t, command(t, env, ben, task.ID, "return", map[string]any{"expectedRevision": 2}), http.StatusOK)
		if a := r.Task.Assignee; a == nil || a.ID != "ann" || r.Revision != 3 {
			t.Fatalf("after return: %+v, want ann at revision 3", r)
		}
		if d := getDelegation(t, env, ann, task.ID); d.DelegatedBy != nil {
			t.Fatalf("after return: delegatedBy = %+v, want null", d.DelegatedBy)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_notifications WHERE task_id = ? AND trigger_kind = 'returned' AND recipient_id = 'ann'", task.ID); n != 1 {
			t.Errorf("%d returned notifications to ann, want 1", n)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_notifications WHERE task_id = ? AND trigger_kind = 'task-assigned' AND recipient_id = 'ben'", task.ID); n != 1 {
			t.Errorf("%d task-assigned notifications to ben, want 1", n)
		}
	})
	t.Run("OKManagerDelegatesHostileID", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		r := decodeResult(t, delegate(t, max, task.ID, 1, map[string]any{"id": "zoë/x?y#z w"}), http.StatusOK)
		if a := r.Task.Assignee; a == nil || a.ID != "zoë/x?y#z w" || a.DisplayName != "Zoë Weird" {
			t.Fatalf("assignee = %+v", a)
		}
		if d := getDelegation(t, env, max, task.ID); d.DelegatedBy == nil || d.DelegatedBy.ID != "ann" {
			t.Fatalf("delegatedBy = %+v, want ann (the previous assignee, not the manager)", d.DelegatedBy)
		}
	})
	t.Run("OKCompletedOnBehalfOf", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		decodeResult(t, delegate(t, ann, task.ID, 1, map[string]any{"id": "ben"}), http.StatusOK)
		decodeResult(t, command(t, env, ben, task.ID, "complete", map[string]any{"expectedRevision": 2, "operationId": "done-1", "actionKey": "Complete"}), http.StatusAccepted)
		env.Finalize(t, env.Get(t, task))
		d := getDelegation(t, env, ben, task.ID)
		if d.Outcome == nil || d.Outcome.CompletedBy == nil || d.Outcome.CompletedBy.ID != "ben" || d.Outcome.OnBehalfOf == nil || d.Outcome.OnBehalfOf.ID != "ann" {
			t.Fatalf("outcome = %+v, want completed by ben on behalf of ann", d.Outcome)
		}
	})
	t.Run("OKReplayAndIdempotencyConflict", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		body := map[string]any{"expectedRevision": 1, "operationId": "d-1", "to": map[string]any{"id": "ben"}}
		first := decodeResult(t, command(t, env, ann, task.ID, "delegate", body), http.StatusOK)
		again := decodeResult(t, command(t, env, ann, task.ID, "delegate", body), http.StatusOK)
		if again.OperationID != first.OperationID || again.Revision != first.Revision {
			t.Fatalf("replay = %+v, want %+v", again, first)
		}
		command(t, env, max, task.ID, "delegate", body).WantProblem(t, http.StatusConflict, "idempotency-conflict")
		if got := env.Get(t, task); got.Revision != 2 {
			t.Fatalf("revision %d after the replays, want 2", got.Revision)
		}
	})

	// Every refusal of the "Bad input": the documented answer and nothing written.
	refusals := []struct {
		name        string
		opts        handlerstest.TaskOpts
		prepare     func(t *testing.T, task models.Task) // moves the task before the refused call
		caller      handlerstest.User
		rev         int
		to          map[string]any
		status      int
		code, field string
	}{
		{name: "Oneself", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ann, rev: 1, to: map[string]any{"id": "ann"}, status: 422, code: "validation-failed", field: "to"},
		{name: "ManagerToHimself", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: max, rev: 1, to: map[string]any{"id": "max"}, status: 422, code: "validation-failed", field: "to"},
		{name: "TheCurrentDelegate", opts: handlerstest.TaskOpts{Assignee: "ann"}, prepare: func(t *testing.T, task models.Task) {
			decodeResult(t, delegate(t, ann, task.ID, 1, map[string]any{"id": "ben"}), http.StatusOK)
		}, caller: max, rev: 2, to: map[string]any{"id": "ben"}, status: 422, code: "validation-failed", field: "to"},
		{name: "Unknown", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ann, rev: 1, to: map[string]any{"id": "zed"}, status: 422, code: "unknown-participant", field: "to"},
		{name: "UnknownCaseFolded", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ann, rev: 1, to: map[string]any{"id": "Ben"}, status: 422, code: "unknown-participant", field: "to"},
		{name: "AnotherTenantsUser", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ann, rev: 1, to: map[string]any{"id": "gina"}, status: 422, code: "unknown-participant", field: "to"},
		{name: "Excluded", opts: handlerstest.TaskOpts{Assignee: "ann", Excluded: []string{"ben"}}, caller: ann, rev: 1, to: map[string]any{"id": "ben"}, status: 422, code: "excluded-assignee", field: "to"},
		{name: "AGroup", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ann, rev: 1, to: map[string]any{"type": "group", "id": "finance"}, status: 422, code: "validation-failed", field: "to.type"},
		{name: "ADisplayName", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ann, rev: 1, to: map[string]any{"id": "ben", "displayName": "Boss"}, status: 422, code: "validation-failed", field: "to.displayName"},
		{name: "ControlCharacter", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ann, rev: 1, to: map[string]any{"id": "be\u0007n"}, status: 422, code: "validation-failed", field: "to.id"},
		{name: "NotAssigned", opts: handlerstest.TaskOpts{Candidates: []string{"ann"}}, caller: max, rev: 1, to: map[string]any{"id": "ben"}, status: 409, code: "not-assigned"},
		{name: "NotAssignedToACandidate", opts: handlerstest.TaskOpts{Candidates: []string{"ann"}}, caller: ann, rev: 1, to: map[string]any{"id": "ben"}, status: 404, code: "not-found"},
		{name: "NotTheAssignee", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: ben, rev: 1, to: map[string]any{"id": "cara"}, status: 404, code: "not-found"},
		{name: "AnotherTenantsManager", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: handlerstest.Manager("globex", "gina"), rev: 1, to: map[string]any{"id": "ben"}, status: 404, code: "not-found"},
		{name: "WithoutPermission", opts: handlerstest.TaskOpts{Assignee: "ann"}, caller: handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermView}}, rev: 1, to: map[string]any{"id": "ben"}, status: 403, code: "forbidden"},
		{name: "StaleRevision", opts: handlerstest.TaskOpts{Assignee: "ann"}, prepare: func(t *testing.T, task models.Task) {
			decodeResult(t, command(t, env, max, task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "ann"}}), http.StatusOK)
		}, caller: ann, rev: 1, to: map[string]any{"id": "ben"}, status: 409, code: "revision-conflict"},
	}
	for _, tt := range refusals {
		t.Run("Err_"+tt.name, func(t *testing.T) {
			task := env.Task(t, tt.opts)
			if tt.prepare != nil {
				tt.prepare(t, task)
			}
			before := env.Get(t, task)
			events := env.Count(t, "SELECT COUNT(*) FROM user_task_events WHERE task_id = ?", task.ID)
			notes := env.Count(t, "SELECT COUNT(*) FROM user_task_notifications WHERE task_id = ?", task.ID)
			resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "delegate"), Token: env.Token(t, tt.caller),
				Body: map[string]any{"expectedRevision": tt.rev, "to": tt.to}, Contract: contractFor(tt.to)})
			p := resp.WantProblem(t, tt.status, tt.code)
			if tt.field != "" && !slices.Equal(p.Fields(), []string{tt.field}) {
				t.Errorf("fields = %v, want [%s]", p.Fields(), tt.field)
			}
			after := env.Get(t, task)
			if after.Revision != before.Revision || !sameHolder(after, before) {
				t.Errorf("task changed: revision %d→%d, assignee %v→%v, delegatedBy %v→%v", before.Revision, after.Revision, before.Assignee, after.Assignee, before.DelegatedBy, after.DelegatedBy)
			}
			if n := env.Count(t, "SELECT COUNT(*) FROM user_task_events WHERE task_id = ?", task.ID); n != events {
				t.Errorf("%d events, want %d", n, events)
			}
			if n := env.Count(t, "SELECT COUNT(*) FROM user_task_notifications WHERE task_id = ?", task.ID); n != notes {
				t.Errorf("%d notifications, want %d", n, notes)
			}
		})
	}

	t.Run("ReturnRefusals", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
		command(t, env, ann, task.ID, "return", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusConflict, "not-delegated")
		decodeResult(t, delegate(t, ann, task.ID, 1, map[string]any{"id": "ben"}), http.StatusOK)
		for _, u := range []handlerstest.User{ann, max} { // the delegator and managers do not return
			command(t, env, u, task.ID, "return", map[string]any{"expectedRevision": 2}).WantProblem(t, http.StatusNotFound, "not-found")
		}
		command(t, env, ben, task.ID, "return", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusConflict, "revision-conflict")
		if got := env.Get(t, task); got.Revision != 2 || got.Assignee == nil || got.Assignee.ID != "ben" {
			t.Fatalf("task = revision %d assignee %v, want ben at revision 2", got.Revision, got.Assignee)
		}
	})
}

// contractFor marks the requests the OpenAPI document refuses itself (a group, a display name).
func contractFor(to map[string]any) handlerstest.Contract {
	if to["type"] == "group" || to["displayName"] != nil {
		return handlerstest.Breaks
	}
	return handlerstest.Contract(0)
}

func sameHolder(a, b models.Task) bool {
	same := func(x, y *models.ParticipantRef) bool { return (x == nil) == (y == nil) && (x == nil || x.Same(*y)) }
	return same(a.Assignee, b.Assignee) && same(a.DelegatedBy, b.DelegatedBy)
}

func TestDelegateAndAbsenceWhileTheDirectoryIsDown(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Directory: downDirectory{}})
	ann := handlerstest.Worker("acme", "ann")
	task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
	r := command(t, env, ann, task.ID, "delegate", map[string]any{"expectedRevision": 1, "to": map[string]any{"id": "ben"}})
	r.WantProblem(t, http.StatusServiceUnavailable, "directory-unavailable")
	if got := env.Get(t, task); got.Revision != 1 || got.DelegatedBy != nil {
		t.Errorf("task = revision %d, delegatedBy %v; want untouched", got.Revision, got.DelegatedBy)
	}
	now := time.Now().UTC()
	r = env.Do(t, handlerstest.Request{Method: http.MethodPut, Path: "/api/v1/me/absence", Token: env.Token(t, ann), Body: map[string]any{
		"from": now.Format(time.RFC3339), "until": now.Add(time.Hour).Format(time.RFC3339), "substitute": map[string]any{"id": "ben"}}})
	r.WantProblem(t, http.StatusServiceUnavailable, "directory-unavailable")
	if strings.Contains(string(r.Body), "10.0.0.7") {
		t.Errorf("the directory's error leaked: %s", r.Body)
	}
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/me/absence", Token: env.Token(t, ann)}).WantProblem(t, http.StatusNotFound, "not-found")
}
