package workers_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// wkProjector is a simple BookmarkProjector: it projects the listed body through the real
// transition and the store's idempotent Create.
type wkProjector struct {
	s     store.Store
	calls atomic.Int64
}

func (p *wkProjector) Project(ctx context.Context, tenant string, body json.RawMessage) (bool, error) {
	p.calls.Add(1)
	var b struct {
		BookmarkID         string `json:"bookmarkId"`
		WorkflowInstanceID string `json:"workflowInstanceId"`
		ActivityInstanceID string `json:"activityInstanceId"`
		Task               struct {
			Title string `json:"title"`
		} `json:"task"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return false, models.InvalidField("body", "is not a projection")
	}
	proj := models.Projection{Tenant: tenant, Title: b.Task.Title, CandidateUsers: []models.ParticipantRef{{ID: "ann"}},
		Workflow: models.WorkflowLink{DefinitionID: "invoice", InstanceID: b.WorkflowInstanceID, ActivityInstanceID: b.ActivityInstanceID, BookmarkID: b.BookmarkID}}
	key := models.MaterializationKey(tenant, b.WorkflowInstanceID, b.ActivityInstanceID)
	_, created, err := p.s.Create(ctx, tenant, key, b.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(proj, now)
	})
	return created, err
}

func wkQueryInt(t *testing.T, s store.Store, q string, args ...any) int {
	t.Helper()
	sql := wkSQL(t, s)
	db, err := sql.DB()
	if err != nil {
		t.Fatal(err)
	}
	if sql.Dialect() == migrations.Postgres {
		for i := 1; strings.Contains(q, "?"); i++ {
			q = strings.Replace(q, "?", "$"+string(rune('0'+i)), 1)
		}
	}
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("query %q: %v", q, err)
	}
	return n
}

// Reconciliation restores each of its four cases — a missing projection, a stale transition,
// a task whose bookmark is gone, an ambiguous transition — and leaves agreeing, recently
// touched and ambiguous tasks alone, with no duplicate task and no duplicate resumption.
func TestReconcileRestoresEveryCase(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		ctx := t.Context()
		clock := &testfactory.Clock{}
		s := db.open(t, clock)
		log, _ := wkLogger(t)
		rt := newWKFakeRuntime()
		projector := &wkProjector{s: s}

		// A committed bookmark without a task.
		rt.commit("t1", "bm-missing", json.RawMessage(`{"bookmarkId":"bm-missing","workflowInstanceId":"wf-missing","activityInstanceId":"approve","task":{"title":"Recreated"}}`))
		// An open task in agreement with the runtime.
		agreeing := wkProject(t, s, wkTaskOpts{})
		rt.commitTask(agreeing)
		// A stale transition: delivered and acknowledged, but the bookmark is still there.
		stale := wkProject(t, s, wkTaskOpts{})
		staleOp := wkComplete(t, s, stale, wkPayload)
		rt.commitTask(stale)
		if res, err := workers.NewDispatcher(s, rt, workers.DispatcherOptions{Logger: log}).RunOnce(ctx); err != nil || res.Delivered != 1 {
			t.Fatalf("first delivery %+v, %v", res, err)
		}
		// Orphans: the runtime no longer has their bookmarks.
		orphanOpen := wkProject(t, s, wkTaskOpts{})
		orphanCompleting := wkProject(t, s, wkTaskOpts{})
		wkComplete(t, s, orphanCompleting, wkPayload)
		orphanCancelling := wkProject(t, s, wkTaskOpts{})
		wkCancel(t, s, orphanCancelling, "obsolete")
		orphanOtherTenant := wkProject(t, s, wkTaskOpts{Tenant: "t2"})
		// Ambiguous: Completing, its stimulus delivered, but no accepted operation left.
		ambiguous := wkProject(t, s, wkTaskOpts{})
		wkComplete(t, s, ambiguous, "")
		wkExec(t, s, "UPDATE user_task_operations SET state = 'completed' WHERE task_id = ?", ambiguous.ID)
		wkExec(t, s, "UPDATE user_task_resumptions SET state = 'delivered' WHERE task_id = ?", ambiguous.ID)

		clock.Advance(6 * time.Minute)
		recent := wkProject(t, s, wkTaskOpts{}) // no bookmark, but touched within 5 min

		r := workers.NewReconciler(s, rt, projector, workers.ReconcilerOptions{Logger: log, PageSize: 2})
		if _, ok := r.LastRun(); ok {
			t.Fatalf("a last run before any run")
		}
		run, err := r.RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := workers.ReconcileCounts{Recreated: 1, Requeued: 1, Finalized: 4, Ambiguous: 1}
		if run.Totals != want {
			t.Fatalf("totals %+v, want %+v", run.Totals, want)
		}
		if got := run.Tenants["t2"].ReconcileCounts; got != (workers.ReconcileCounts{Finalized: 1}) {
			t.Fatalf("tenant t2 %+v, want one finalized", got)
		}
		last, ok := r.LastRun()
		if !ok || last.Totals != want || last.FinishedAt.Before(last.StartedAt) || len(last.Tenants) != 2 {
			t.Fatalf("last run %+v", last)
		}

		for id, status := range map[string]models.Status{
			agreeing.ID: models.StatusAssigned, stale.ID: models.StatusCompleting, orphanOpen.ID: models.StatusCancelled,
			orphanCompleting.ID: models.StatusCompleted, orphanCancelling.ID: models.StatusCancelled,
			ambiguous.ID: models.StatusCompleting, recent.ID: models.StatusAssigned,
		} {
			if got := wkGet(t, s, "t1", id); got.Status != status {
				t.Errorf("task %s is %s, want %s", id, got.Status, status)
			}
		}
		if got := wkGet(t, s, "t2", orphanOtherTenant.ID); got.Status != models.StatusCancelled {
			t.Errorf("the other tenant's orphan is %s", got.Status)
		}
		if h := wkGet(t, s, "t1", ambiguous.ID).Health; h.Code != models.HealthStaleTransition || h.Severity != models.SeverityAdvisory {
			t.Errorf("ambiguous task health %+v, want advisory stale-transition", h)
		}
		if got := wkGet(t, s, "t1", orphanCancelling.ID); got.Outcome.ActionKey != models.ActionCancelled || wkEventCount(t, s, "t1", got.ID, models.EventCancelled) != 1 {
			t.Errorf("orphan cancelling outcome %+v", got.Outcome)
		}
		if n := wkQueryInt(t, s, "SELECT COUNT(*) FROM user_tasks WHERE bookmark_id = ?", "bm-missing"); n != 1 {
			t.Fatalf("%d tasks for the missing bookmark, want 1", n)
		}
		if rows, _ := s.Resumptions(ctx, "t1", stale.ID); len(rows) != 1 || rows[0].State != models.DeliveryPending {
			t.Fatalf("stale transition's outbox %+v, want its one row pending again", rows)
		}

		t.Run("SecondRunChangesNothing", func(t *testing.T) {
			run, err := r.RunOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if run.Totals != (workers.ReconcileCounts{Ambiguous: 1}) {
				t.Fatalf("second run %+v, want only the ambiguous task reported again", run.Totals)
			}
			if got := projector.calls.Load(); got != 1 {
				t.Fatalf("projector called %d times, want once", got)
			}
		})
		t.Run("RequeuedStimulusKeepsItsIdentity", func(t *testing.T) {
			if res, err := workers.NewDispatcher(s, rt, workers.DispatcherOptions{Logger: log}).RunOnce(ctx); err != nil || res.Delivered != 1 {
				t.Fatalf("redelivery %+v, %v; want exactly the stale one", res, err)
			}
			got := rt.stimuli()
			if len(got) != 2 || got[0].IdempotencyKey() != got[1].IdempotencyKey() || got[1].OperationID != staleOp.OperationID ||
				string(got[1].Data) != wkPayload {
				t.Fatalf("stimuli %+v, want the same stimulus twice", got)
			}
			if n := wkQueryInt(t, s, "SELECT COUNT(*) FROM user_task_resumptions WHERE task_id = ?", stale.ID); n != 1 {
				t.Fatalf("%d outbox rows for the stale task, want 1", n)
			}
		})
		t.Run("RemovedBookmarkFinalizesWithTheAcceptedOperation", func(t *testing.T) {
			rt.mu.Lock()
			delete(rt.bookmarks["t1"], stale.Workflow.BookmarkID)
			rt.mu.Unlock()
			run, err := r.RunOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if run.Totals != (workers.ReconcileCounts{Finalized: 1, Ambiguous: 1}) {
				t.Fatalf("run %+v", run.Totals)
			}
			got := wkGet(t, s, "t1", stale.ID)
			if got.Status != models.StatusCompleted || wkEventCount(t, s, "t1", stale.ID, wkFinalEvents...) != 1 {
				t.Fatalf("stale task %s with %d final events", got.Status, wkEventCount(t, s, "t1", stale.ID, wkFinalEvents...))
			}
		})
	})
}

// A tenant whose lease another node holds is skipped, and a runtime that fails stops only
// that tenant's run.
func TestReconcileLeaseAndFailures(t *testing.T) {
	ctx := t.Context()
	s := wkSQLite(t).open(t, nil)
	log, _ := wkLogger(t)
	wkProject(t, s, wkTaskOpts{})
	wkProject(t, s, wkTaskOpts{Tenant: "t2"})
	rt := newWKFakeRuntime()
	if _, err := s.AcquireLease(ctx, workers.ReconcileLeasePrefix+"t1", "other-node", time.Hour); err != nil {
		t.Fatal(err)
	}
	r := workers.NewReconciler(s, rt, nil, workers.ReconcilerOptions{Logger: log, Tenants: []string{"t3"}})
	run, err := r.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Tenants["t1"].Skipped || run.Tenants["t2"].Skipped || len(run.Tenants) != 3 {
		t.Fatalf("tenants %+v, want t1 skipped, t2 and the configured t3 run", run.Tenants)
	}
	rt.setFailure(&workflow.RuntimeError{Code: "http-503", Status: 503})
	run, err = r.RunOnce(ctx)
	if err == nil || run.Tenants["t2"].Error != "http-503" {
		t.Fatalf("failing runtime: %+v, %v", run.Tenants, err)
	}
	if _, err := s.AcquireLease(ctx, workers.ReconcileLeasePrefix+"t2", "other-node", time.Hour); err != nil {
		t.Fatalf("the failed run kept its lease: %v", err)
	}
}
