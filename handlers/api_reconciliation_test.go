package handlers_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/workers"
)

type lastRun struct {
	run workers.ReconcileRun
	ok  bool
}

func (l *lastRun) LastRun() (workers.ReconcileRun, bool) { return l.run, l.ok }

func TestReconciliationReport(t *testing.T) {
	report := &lastRun{}
	env := handlerstest.SQLite(t, &handlerstest.Options{Reconciliation: report})
	manager := env.Token(t, handlerstest.Manager("t1", "boss"))
	worker := env.Token(t, handlerstest.Worker("t1", "ann"))

	t.Run("NullBeforeTheFirstRun", func(t *testing.T) {
		res := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/reconciliation", Token: manager})
		if res.Status != http.StatusOK || string(res.Body) != "{\"lastRun\":null}\n" {
			t.Fatalf("got %d %s", res.Status, res.Body)
		}
	})
	t.Run("TheCallersTenantOnly", func(t *testing.T) {
		start := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
		report.run, report.ok = workers.ReconcileRun{StartedAt: start, FinishedAt: start.Add(2 * time.Second),
			Tenants: map[string]workers.TenantReconcile{
				"t1": {ReconcileCounts: workers.ReconcileCounts{Recreated: 1, Requeued: 2, Finalized: 3, Ambiguous: 4}},
				"t2": {ReconcileCounts: workers.ReconcileCounts{Recreated: 9}},
			}}, true
		res := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/reconciliation", Token: manager})
		var got struct {
			LastRun struct {
				Recreated, Requeued, Finalized, Ambiguous int
				StartedAt                                 string
			}
		}
		if err := json.Unmarshal(res.Body, &got); err != nil || res.Status != http.StatusOK {
			t.Fatalf("got %d %s (%v)", res.Status, res.Body, err)
		}
		if r := got.LastRun; r.Recreated != 1 || r.Requeued != 2 || r.Finalized != 3 || r.Ambiguous != 4 || r.StartedAt != "2026-12-02T10:00:00Z" {
			t.Fatalf("counts %+v, want t1's 1/2/3/4", r)
		}
	})
	t.Run("ForbiddenForNonManagers", func(t *testing.T) {
		res := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/reconciliation", Token: worker})
		if res.Status != http.StatusForbidden {
			t.Fatalf("got %d, want 403", res.Status)
		}
	})
	t.Run("UnauthenticatedWithoutToken", func(t *testing.T) {
		res := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/reconciliation", Contract: handlerstest.Breaks})
		if res.Status != http.StatusUnauthorized {
			t.Fatalf("got %d, want 401", res.Status)
		}
	})
}
