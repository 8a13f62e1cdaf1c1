package handlers_test

import (
	"bytes"
	"net/http"
	"slices"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// TestTenantIsolation drives every JSON API route for a task of tenant acme with tokens of
// tenant globex — a manager holding every permission, and a worker whose ids match acme's
// participants — and expects the answer a truly missing task gets, byte for byte; lists and
// totals of globex never count acme's rows.
func TestTenantIsolation(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) { testTenantIsolation(t, p.start(t, nil)) })
	}
}

func testTenantIsolation(t *testing.T, env *handlerstest.Env) {
	acme := env.Task(t, handlerstest.TaskOpts{Tenant: "acme", Assignee: "ann", Candidates: []string{"bob"}, Groups: []string{"finance"},
		Form: approvalForm, Data: approvalData, CancellationEnabled: true,
		Health: models.Health{Severity: models.SeverityAdvisory, Code: models.HealthStaleTransition, Message: "stale"}})
	env.Task(t, handlerstest.TaskOpts{Tenant: "acme", Candidates: []string{"bob"}, Groups: []string{"finance"}})
	overdue := time.Now().Add(-time.Hour)
	env.Task(t, handlerstest.TaskOpts{Tenant: "acme", DueAt: &overdue}) // overdue: acme's needs-attention
	mine := env.Task(t, handlerstest.TaskOpts{Tenant: "globex", Candidates: []string{"bob"}, DueAt: &overdue})
	env.Task(t, handlerstest.TaskOpts{Tenant: "globex", Assignee: "ann"})

	boss := handlerstest.Manager("globex", "ann")
	boss.Groups = []string{"finance"}
	worker := handlerstest.Worker("globex", "bob", "finance")
	missing := models.NewID()

	requests := []struct {
		name, method, suffix string
		body                 any
	}{
		{"Detail", http.MethodGet, "", nil},
		{"Events", http.MethodGet, "events", nil},
		{"Schedule", http.MethodPatch, "", map[string]any{"expectedRevision": 1, "priority": 1}},
		{"Claim", http.MethodPost, "claim", map[string]any{"expectedRevision": 1}},
		{"Release", http.MethodPost, "release", map[string]any{"expectedRevision": 1}},
		{"Assign", http.MethodPost, "assign", map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "ann"}}},
		{"Complete", http.MethodPost, "complete", map[string]any{"expectedRevision": 1, "operationId": "x", "actionKey": "Complete", "data": map[string]any{"approved": true}}},
		{"Cancel", http.MethodPost, "cancel", map[string]any{"expectedRevision": 1, "operationId": "x", "reason": "mine now"}},
		{"RetryResolution", http.MethodPost, "retry-resolution", map[string]any{"expectedRevision": 1}},
		{"Reveal", http.MethodPost, "reveal", map[string]any{"fieldKey": "iban"}},
	}
	for _, u := range []handlerstest.User{boss, worker} {
		token := env.Token(t, u)
		for _, r := range requests {
			t.Run(u.ID+"/"+r.name, func(t *testing.T) {
				path := func(id string) string {
					if r.suffix == "" {
						return handlerstest.TaskPath(id)
					}
					return handlerstest.TaskPath(id, r.suffix)
				}
				want := env.Do(t, handlerstest.Request{Method: r.method, Path: path(missing), Token: token, Body: r.body})
				got := env.Do(t, handlerstest.Request{Method: r.method, Path: path(acme.ID), Token: token, Body: r.body})
				if want.Status == http.StatusForbidden { // the worker lacks the permission: decided before any task is loaded
					got.WantProblem(t, http.StatusForbidden, "forbidden")
				} else {
					got.WantProblem(t, http.StatusNotFound, "not-found")
				}
				if !bytes.Equal(got.Body, want.Body) {
					t.Errorf("acme's task answers\n%s\na missing task answers\n%s", got.Body, want.Body)
				}
			})
		}
	}
	if got := env.Get(t, acme); got.Revision != 1 || got.LastEventSeq != 1 {
		t.Errorf("acme's task moved to revision %d, event %d; want untouched", got.Revision, got.LastEventSeq)
	}

	t.Run("Lists", func(t *testing.T) {
		for _, c := range []struct {
			user  handlerstest.User
			query string
			want  int
		}{
			{boss, "scope=all", 2},
			{boss, "scope=needs-attention", 1}, // globex's Available task: open and overdue
			{boss, "scope=assigned", 1},
			{boss, "scope=available", 0},
			{boss, "scope=all&search=Task", 2},
			{worker, "scope=available", 1},
			{worker, "scope=assigned", 0},
			{worker, "scope=history", 0},
		} {
			p := listPage(t, env, c.user, c.query+"&includeTotalCount=true")
			if p.TotalCount == nil || *p.TotalCount != c.want || len(p.Items) != c.want {
				t.Errorf("%s %s: total %s, %d items; want %d", c.user.ID, c.query, p.raw["totalCount"], len(p.Items), c.want)
			}
			for _, it := range p.Items {
				if it.ID == acme.ID {
					t.Errorf("%s %s lists acme's task", c.user.ID, c.query)
				}
			}
		}
		if ids := listPage(t, env, worker, "scope=available").Items; len(ids) != 1 || ids[0].ID != mine.ID {
			t.Errorf("worker's available = %v, want only globex's task", ids)
		}
		for _, scope := range []string{"all", "needs-attention"} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=" + scope, Token: env.Token(t, worker)})
			resp.WantProblem(t, http.StatusForbidden, "forbidden")
		}
	})
	t.Run("Capabilities", func(t *testing.T) {
		var caps struct {
			Tenant string `json:"tenant"`
			Scopes []string
		}
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks/capabilities", Token: env.Token(t, boss)})
		resp.JSON(t, &caps)
		if caps.Tenant != "globex" || !slices.Contains(caps.Scopes, "all") {
			t.Errorf("capabilities = %+v, want globex with scope all", caps)
		}
	})
}
