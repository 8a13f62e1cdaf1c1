package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/testfactory"
)

// TestAttackTenantHeaderInjection: a manager of t2 names tenant t1 every way a request could —
// tenant headers a proxy might be trusted for, a query parameter — on the list and on t1's task.
// The tenant comes from the token only: t2's list stays without t1's task and the task is 404,
// on every provider.
func TestAttackTenantHeaderInjection(t *testing.T) {
	for _, p := range testfactory.Providers {
		t.Run(p.Name(), func(t *testing.T) {
			f := newAttackFixtureOn(t, p)
			victim := f.task(t, "t1", nil)
			boss := f.token(t, handlerstest.Manager("t2", "boss"))
			injections := []http.Header{
				{"X-Tenant-Id": {"t1"}}, {"X-Tenant": {"t1"}}, {"Tenant": {"t1"}}, {"X-Forwarded-Tenant": {"t1"}},
				{"X-Usertasks-Tenant": {"t1"}}, {"X-Tenant-Id": {"t2", "t1"}}, {"X-Tenant-Id": {"t2\r\nX-Tenant-Id: t1"}},
			}
			for _, h := range injections {
				for _, path := range []string{"/api/v1/user-tasks?tab=all&tenant=t1", "/api/v1/user-tasks/" + victim.ID + "?tenant=t1"} {
					req := mustRequest(t, http.MethodGet, f.srv.URL+path, boss, h)
					res, err := http.DefaultClient.Do(req)
					if err != nil {
						continue // the client refuses a header with a line break: nothing was sent
					}
					var body bytes.Buffer
					_, _ = body.ReadFrom(res.Body)
					res.Body.Close()
					isList := strings.HasPrefix(path, "/api/v1/user-tasks?")
					if (isList && res.StatusCode != http.StatusOK) || (!isList && res.StatusCode != http.StatusNotFound) {
						t.Errorf("GET %s with %v: %d", path, h, res.StatusCode)
					}
					if strings.Contains(body.String(), victim.ID) {
						t.Errorf("GET %s with %v shows t1's task to t2", path, h)
					}
				}
			}
		})
	}
}

// TestAttackIdempotencyReplayByAnotherActor (SPEC 3.4) over the API on every provider: the
// operation id one person used, sent again with the same body by another who could otherwise
// run the command, is 409 idempotency-conflict and changes nothing; the first person's own
// replay still gets its answer.
func TestAttackIdempotencyReplayByAnotherActor(t *testing.T) {
	for _, p := range testfactory.Providers {
		t.Run(p.Name(), func(t *testing.T) {
			f := newAttackFixtureOn(t, p)
			task := testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{Tenant: "t1", Groups: []string{"finance"}})
			ann := f.token(t, handlerstest.Worker("t1", "ann", "finance"))
			carl := f.token(t, handlerstest.Worker("t1", "carl", "finance"))
			boss, max := f.token(t, handlerstest.Manager("t1", "boss")), f.token(t, handlerstest.Manager("t1", "max"))
			for _, step := range []struct {
				name, path   string
				first, other string
				body         map[string]any
			}{
				{"Claim", "/claim", ann, carl, map[string]any{"expectedRevision": task.Revision, "operationId": "op-x"}},
				{"UpdateSchedule", "", boss, max, map[string]any{"expectedRevision": task.Revision + 1, "operationId": "op-y", "priority": 90}},
			} {
				t.Run(step.name, func(t *testing.T) {
					path := "/api/v1/user-tasks/" + task.ID + step.path
					method := http.MethodPost
					if step.path == "" {
						method = http.MethodPatch
					}
					status, first := f.apiCall(t, method, path, step.first, step.body)
					if status != http.StatusOK {
						t.Fatalf("first: %d %s", status, first)
					}
					before := f.current(t, task.ID)
					status, raw := f.apiCall(t, method, path, step.other, step.body)
					var p handlerstest.Problem
					if status != http.StatusConflict || json.Unmarshal(raw, &p) != nil || p.Code != "idempotency-conflict" {
						t.Fatalf("another actor's replay: %d %s, want 409 idempotency-conflict", status, raw)
					}
					if after := f.current(t, task.ID); after.Revision != before.Revision {
						t.Fatalf("the replay moved the task from revision %d to %d", before.Revision, after.Revision)
					}
					if status, again := f.apiCall(t, method, path, step.first, step.body); status != http.StatusOK || !bytes.Equal(again, first) {
						t.Fatalf("the first actor's replay: %d %s, want the original answer %s", status, again, first)
					}
				})
			}
		})
	}
}
