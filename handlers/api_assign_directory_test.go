package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

func TestAssignWithDirectory(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Directory: peopleDirectory(t)})
	max := handlerstest.Manager("acme", "max")
	assign := func(t *testing.T, u handlerstest.User, id string, assignee map[string]any) handlerstest.Response {
		t.Helper()
		return command(t, env, u, id, "assign", map[string]any{"expectedRevision": 1, "assignee": assignee})
	}

	t.Run("OKNamedByDirectory", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ben"}})
		r := decodeResult(t, assign(t, max, task.ID, map[string]any{"id": "ann", "displayName": "Someone Else"}), http.StatusOK)
		if a := r.Task.Assignee; a == nil || a.ID != "ann" || a.DisplayName != "Ann Lee" {
			t.Errorf("assignee = %+v, want ann named Ann Lee by the directory", a)
		}
	})
	t.Run("OKHostileID", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ben"}})
		r := decodeResult(t, assign(t, max, task.ID, map[string]any{"type": "user", "id": "zoë/x?y#z w"}), http.StatusOK)
		if a := r.Task.Assignee; a == nil || a.ID != "zoë/x?y#z w" || a.DisplayName != "Zoë Weird" {
			t.Errorf("assignee = %+v", a)
		}
	})
	t.Run("ErrUnknownAssignee", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ben"}})
		for _, id := range []string{"zed", "Ann", "ann ", "gina", "finance"} {
			p := assign(t, max, task.ID, map[string]any{"id": id}).WantProblem(t, http.StatusUnprocessableEntity, "unknown-assignee")
			if !slices.Equal(p.Fields(), []string{"assignee"}) {
				t.Errorf("%q: fields = %v, want [assignee]", id, p.Fields())
			}
		}
		assign(t, max, task.ID, map[string]any{"provider": "corp", "id": "ann"}).WantProblem(t, http.StatusUnprocessableEntity, "unknown-assignee")
		if got := env.Get(t, task); got.Revision != 1 || got.Assignee != nil {
			t.Errorf("task = revision %d, assignee %v; want untouched", got.Revision, got.Assignee)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_events WHERE task_id = ? AND event_type = 'assigned'", task.ID); n != 0 {
			t.Errorf("%d assigned events, want none", n)
		}
	})
	t.Run("OrderOfChecks", func(t *testing.T) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ben"}})
		assign(t, handlerstest.Worker("acme", "ben"), task.ID, map[string]any{"id": "zed"}).WantProblem(t, http.StatusForbidden, "forbidden")
		assign(t, handlerstest.Manager("globex", "gina"), task.ID, map[string]any{"id": "zed"}).WantProblem(t, http.StatusNotFound, "not-found")
		assign(t, max, "00000000-0000-4000-8000-000000000000", map[string]any{"id": "zed"}).WantProblem(t, http.StatusNotFound, "not-found")
		if p := assign(t, max, task.ID, map[string]any{"type": "group", "id": "finance"}).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{"assignee.type"}) {
			t.Errorf("group: fields = %v", p.Fields())
		}
	})
}

func TestAssignWithoutDirectoryAcceptsAnyone(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ben"}})
	r := decodeResult(t, command(t, env, handlerstest.Manager("acme", "max"), task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "zed"}}), http.StatusOK)
	if a := r.Task.Assignee; a == nil || a.ID != "zed" {
		t.Errorf("assignee = %+v, want zed", a)
	}
}

// downDirectory is a directory whose service is unreachable.
type downDirectory struct{}

func (downDirectory) Expand(context.Context, string, models.ParticipantRef) ([]models.ParticipantRef, error) {
	return nil, errors.New("dial tcp 10.0.0.7:8443: connection refused")
}

func (downDirectory) Search(context.Context, string, string, models.ParticipantType, int) ([]models.ParticipantRef, error) {
	return nil, errors.New("dial tcp 10.0.0.7:8443: connection refused")
}

func TestAssignWhileTheDirectoryIsDownIsRetryableAndWritesNothing(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Directory: downDirectory{}})
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ben"}})
	r := command(t, env, handlerstest.Manager("acme", "max"), task.ID, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "ann"}})
	r.WantProblem(t, http.StatusServiceUnavailable, "directory-unavailable")
	if got := r.Header.Get("Retry-After"); got == "" {
		t.Error("no Retry-After on a 503")
	}
	if strings.Contains(string(r.Body), "10.0.0.7") {
		t.Errorf("the directory's error leaked: %s", r.Body)
	}
	if got := env.Get(t, task); got.Revision != 1 || got.Assignee != nil {
		t.Errorf("task = revision %d, assignee %v; want untouched", got.Revision, got.Assignee)
	}
}
