package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// The background workers' store methods beyond the outbox claims (Sweeps): the due sweep,
// reconciliation, the tenants, an accepted operation, and the resumption entries' requeue,
// release and settle; and the health findings they set (Health).

// wqClock shifts the database clock by an offset the test moves forward.
type wqClock struct{ offset atomic.Int64 }

func (c *wqClock) now(db time.Time) time.Time { return db.Add(time.Duration(c.offset.Load())) }
func (c *wqClock) advance(d time.Duration)    { c.offset.Add(int64(d)) }
func (c *wqClock) opts() Options              { return Options{Clock: c.now} }
func wqCtx(t *testing.T) context.Context      { return t.Context() }
func wqIDs(ts []models.Task) (ids []string)   { return wqAppendIDs(ids, ts) }
func wqAppendIDs(ids []string, ts []models.Task) []string {
	for _, x := range ts {
		ids = append(ids, x.ID)
	}
	return ids
}

const wqForm = `{"type":"object","properties":{"decision":{"type":"string"}}}`

// wqProject creates an assigned task with a form through the real projection path.
func wqProject(t *testing.T, s store.Store, tenant string, edit func(p *models.Projection)) models.Task {
	t.Helper()
	p := models.Projection{
		Tenant:   tenant,
		Workflow: models.WorkflowLink{DefinitionID: "invoice", InstanceID: models.NewID(), ActivityInstanceID: "approve", BookmarkID: "bm-" + models.NewID()},
		Title:    "Approve", Assignee: &models.ParticipantRef{ID: "ann"},
		Form:                &models.PinnedForm{Schema: json.RawMessage(wqForm)},
		CancellationEnabled: true,
	}
	if edit != nil {
		edit(&p)
	}
	key := models.MaterializationKey(tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	task, _, err := s.Create(wqCtx(t), tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	if err != nil {
		t.Fatalf("project: %v", err)
	}
	return task
}

func wqAnn(tenant string) models.Actor {
	return models.Actor{Tenant: tenant, Subject: User(tenant, "ann"), Permissions: []string{"user-tasks:*"}}
}

// wqComplete moves an assigned task to Completing with data.
func wqComplete(t *testing.T, s store.Store, task models.Task, data string) models.Change {
	t.Helper()
	opID := "op-" + models.NewID()
	ch, err := s.Mutate(wqCtx(t), task.Tenant, task.ID, opID, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		cmd := models.Command{OperationID: opID, ExpectedRevision: cur.Revision, Actor: wqAnn(cur.Tenant), Prior: prior}
		return models.Complete(cur, cmd, models.ActionComplete, json.RawMessage(data), now)
	})
	if err != nil {
		t.Fatalf("complete: %v", err)
	}
	return ch
}

func wqFinalize(t *testing.T, s store.Store, task models.Task) {
	t.Helper()
	_, err := s.Mutate(wqCtx(t), task.Tenant, task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		return models.Finalize(cur, now)
	})
	if err != nil {
		t.Fatalf("finalize: %v", err)
	}
}

func wqGet(t *testing.T, s store.Store, tenant, id string) models.Task {
	t.Helper()
	task, err := s.Get(wqCtx(t), tenant, id)
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	return task
}

func testWorkerQueries(t *testing.T, h Harness) {
	t.Run("DueTasks", func(t *testing.T) {
		clock := &wqClock{}
		s := h.open(t, clock.opts())
		now, err := s.Now(wqCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		past, future := now.Add(-time.Hour), now.Add(time.Hour)
		timeout := CreateTask(t, s, TaskOpts{DueAt: &past, Timeout: true})
		overdue := CreateTask(t, s, TaskOpts{DueAt: &past})
		otherTenant := CreateTask(t, s, TaskOpts{Tenant: "t2", DueAt: &past})
		CreateTask(t, s, TaskOpts{DueAt: &past, IsOverdue: true})
		CreateTask(t, s, TaskOpts{DueAt: &past, Status: models.StatusCompleting})
		CreateTask(t, s, TaskOpts{DueAt: &past, Status: models.StatusCompleted})
		CreateTask(t, s, TaskOpts{})
		later := CreateTask(t, s, TaskOpts{DueAt: &future, Timeout: true})

		want := []string{timeout.ID, overdue.ID, otherTenant.ID}
		slices.Sort(want)
		if got := wqDuePages(t, s, 2); !slices.Equal(got, want) {
			t.Fatalf("due tasks %v, want %v", got, want)
		}

		t.Run("PagesOfOneCrossStatusesAndEqualDueDates", func(t *testing.T) {
			s := h.open(t, clock.opts())
			var want []string
			for _, st := range []models.Status{models.StatusAssigned, models.StatusUnassigned, models.StatusAvailable} {
				for range 3 {
					want = append(want, CreateTask(t, s, TaskOpts{DueAt: &past, Status: st}).ID)
				}
			}
			slices.Sort(want)
			if got := wqDuePages(t, s, 1); !slices.Equal(got, want) {
				t.Fatalf("due tasks in pages of one %v, want each of %v once", got, want)
			}
		})

		t.Run("TheDatabaseClockDecides", func(t *testing.T) {
			clock.advance(2 * time.Hour)
			want := append(want, later.ID)
			slices.Sort(want)
			if got := wqDuePages(t, s, 200); !slices.Equal(got, want) {
				t.Fatalf("due tasks %v, want %v", got, want)
			}
		})
		t.Run("SafeColumnsOnly", func(t *testing.T) {
			page, err := s.DueTasks(wqCtx(t), 1, nil)
			if err != nil || len(page) != 1 {
				t.Fatalf("page %v, %v", page, err)
			}
			if page[0].Protected.Instructions != "" || page[0].Tenant == "" || page[0].DueAt == nil {
				t.Fatalf("item %+v", page[0])
			}
		})
	})

	t.Run("ReconcileTasks", func(t *testing.T) {
		clock := &wqClock{}
		s := h.open(t, clock.opts())
		open := CreateTask(t, s, TaskOpts{})
		transitional := CreateTask(t, s, TaskOpts{Status: models.StatusTimingOut})
		CreateTask(t, s, TaskOpts{Status: models.StatusCancelled})
		CreateTask(t, s, TaskOpts{Tenant: "t2"})

		page, err := s.ReconcileTasks(wqCtx(t), "t1", 5*time.Minute, "", 100)
		if err != nil || len(page) != 0 {
			t.Fatalf("fresh tasks listed: %v, %v", wqIDs(page), err)
		}
		clock.advance(6 * time.Minute)
		touched := CreateTask(t, s, TaskOpts{})
		want := []string{open.ID, transitional.ID}
		slices.Sort(want)
		var got []string
		after := ""
		for {
			page, err := s.ReconcileTasks(wqCtx(t), "t1", 5*time.Minute, after, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			got = wqAppendIDs(got, page)
			after = page[len(page)-1].ID
		}
		if !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v (touched %s must be skipped)", got, want, touched.ID)
		}
		all, err := s.ReconcileTasks(wqCtx(t), "t1", 0, "", 100)
		if err != nil || len(all) != 3 {
			t.Fatalf("window 0: %d tasks, %v; want 3", len(all), err)
		}
	})

	t.Run("Tenants", func(t *testing.T) {
		s := h.open(t, Options{})
		CreateTask(t, s, TaskOpts{Tenant: "t2"})
		CreateTask(t, s, TaskOpts{Tenant: "t1"})
		CreateTask(t, s, TaskOpts{Tenant: "t2"})
		got, err := s.Tenants(wqCtx(t))
		if err != nil || !slices.Equal(got, []string{"t1", "t2"}) {
			t.Fatalf("tenants %v, %v", got, err)
		}
	})

	t.Run("KnownBookmarks", func(t *testing.T) {
		s := h.open(t, Options{})
		a := CreateTask(t, s, TaskOpts{})
		b := CreateTask(t, s, TaskOpts{Status: models.StatusCompleted})
		c := CreateTask(t, s, TaskOpts{Tenant: "t2"})
		known, err := s.KnownBookmarks(wqCtx(t), "t1", []string{a.Workflow.BookmarkID, b.Workflow.BookmarkID, c.Workflow.BookmarkID, "nope"})
		if err != nil {
			t.Fatal(err)
		}
		if len(known) != 2 || !known[a.Workflow.BookmarkID] || !known[b.Workflow.BookmarkID] {
			t.Fatalf("known %v", known)
		}
	})

	t.Run("SetHealth", func(t *testing.T) {
		s := h.open(t, Options{})
		ctx := wqCtx(t)
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		failing := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthResumeDeliveryFailing, Message: "The workflow runtime does not accept the resumption."}

		t.Run("OK", func(t *testing.T) {
			if err := s.SetHealth(ctx, "t1", task.ID, failing); err != nil {
				t.Fatal(err)
			}
			got := wqGet(t, s, "t1", task.ID)
			if got.Health != failing {
				t.Fatalf("health %+v, want %+v", got.Health, failing)
			}
			if got.Revision != task.Revision || got.LastEventSeq != task.LastEventSeq || !got.UpdatedAt.Equal(task.UpdatedAt) {
				t.Fatalf("health bumped revision %d→%d, seq %d→%d, updated %v→%v",
					task.Revision, got.Revision, task.LastEventSeq, got.LastEventSeq, task.UpdatedAt, got.UpdatedAt)
			}
		})
		t.Run("ClearHealthOnlyTheNamedCode", func(t *testing.T) {
			if err := s.ClearHealth(ctx, "t1", task.ID, models.HealthStaleTransition); err != nil {
				t.Fatal(err)
			}
			if got := wqGet(t, s, "t1", task.ID); got.Health != failing {
				t.Fatalf("another code cleared the finding: %+v", got.Health)
			}
			if err := s.ClearHealth(ctx, "t1", task.ID, models.HealthResumeDeliveryFailing); err != nil {
				t.Fatal(err)
			}
			if got := wqGet(t, s, "t1", task.ID); got.Health != (models.Health{}) {
				t.Fatalf("health %+v, want none", got.Health)
			}
		})
		t.Run("BlockingFindingStays", func(t *testing.T) {
			blocking := models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormResolutionFailed}
			b := CreateTask(t, s, TaskOpts{Health: blocking})
			if err := s.SetHealth(ctx, "t1", b.ID, failing); err != nil {
				t.Fatal(err)
			}
			if err := s.SetHealth(ctx, "t1", b.ID, models.Health{}); err != nil {
				t.Fatal(err)
			}
			if got := wqGet(t, s, "t1", b.ID); got.Health != blocking {
				t.Fatalf("blocking finding replaced by %+v", got.Health)
			}
		})
		t.Run("TerminalTaskStays", func(t *testing.T) {
			done := CreateTask(t, s, TaskOpts{Status: models.StatusCompleted})
			if err := s.SetHealth(ctx, "t1", done.ID, failing); err != nil {
				t.Fatal(err)
			}
			if got := wqGet(t, s, "t1", done.ID); got.Health != (models.Health{}) {
				t.Fatalf("terminal task got %+v", got.Health)
			}
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			if err := s.SetHealth(ctx, "t2", task.ID, failing); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("other tenant: %v, want not found", err)
			}
		})
		t.Run("ErrInvalid", func(t *testing.T) {
			if err := s.SetHealth(ctx, "t1", task.ID, models.Health{Severity: models.SeverityBlocking, Code: "x"}); !errors.Is(err, models.ErrInvalid) {
				t.Fatalf("blocking: %v, want invalid", err)
			}
		})
	})

	t.Run("AcceptedOperation", func(t *testing.T) {
		s := h.open(t, Options{})
		ctx := wqCtx(t)
		task := wqProject(t, s, "t1", nil)
		if _, err := s.AcceptedOperation(ctx, "t1", task.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("open task: %v, want not found", err)
		}
		ch := wqComplete(t, s, task, `{"decision":"approve"}`)
		op, err := s.AcceptedOperation(ctx, "t1", task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if op.OperationID != ch.Operation.OperationID || op.Kind != models.OpComplete || op.ActionKey != models.ActionComplete ||
			string(op.Payload) != `{"decision":"approve"}` || op.Actor == nil || op.Actor.ID != "ann" {
			t.Fatalf("operation %+v", op)
		}
		if _, err := s.AcceptedOperation(ctx, "t2", task.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("other tenant: %v, want not found", err)
		}
		wqFinalize(t, s, task)
		if _, err := s.AcceptedOperation(ctx, "t1", task.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("finalized task: %v, want not found", err)
		}
	})

	t.Run("RequeueResumption", func(t *testing.T) {
		s := h.open(t, Options{})
		ctx := wqCtx(t)
		task := wqProject(t, s, "t1", nil)
		ch := wqComplete(t, s, task, "")
		opID := ch.Operation.OperationID

		if ok, err := s.RequeueResumption(ctx, "t1", task.ID, opID); err != nil || ok {
			t.Fatalf("pending row: requeued %v, %v; want false", ok, err)
		}
		rows, err := s.ClaimResumptions(ctx, "node-a", 10, time.Minute)
		if err != nil || len(rows) != 1 {
			t.Fatalf("claim: %d rows, %v", len(rows), err)
		}
		if _, err := s.RetryResumption(ctx, rows[0], 0, "http-503"); err != nil {
			t.Fatal(err)
		}
		rows, _ = s.ClaimResumptions(ctx, "node-a", 10, time.Minute)
		if len(rows) != 1 {
			t.Fatalf("reclaim: %d rows", len(rows))
		}
		if err := s.AckResumption(ctx, rows[0]); err != nil {
			t.Fatal(err)
		}
		if rows, _ := s.ClaimResumptions(ctx, "node-a", 10, time.Minute); len(rows) != 0 {
			t.Fatalf("delivered row claimed again")
		}

		ok, err := s.RequeueResumption(ctx, "t1", task.ID, opID)
		if err != nil || !ok {
			t.Fatalf("delivered row: requeued %v, %v; want true", ok, err)
		}
		all, _ := s.Resumptions(ctx, "t1", task.ID)
		if len(all) != 1 || all[0].State != models.DeliveryPending || all[0].Attempts != 1 || all[0].DeliveredAt != nil {
			t.Fatalf("rows after requeue %+v (want one pending row keeping its attempt)", all)
		}
		rows, _ = s.ClaimResumptions(ctx, "node-b", 10, time.Minute)
		if len(rows) != 1 || rows[0].OperationID != opID {
			t.Fatalf("requeued row not claimable: %+v", rows)
		}
		if err := s.AckResumption(ctx, rows[0]); err != nil {
			t.Fatal(err)
		}

		t.Run("NotAfterFinalization", func(t *testing.T) {
			wqFinalize(t, s, task)
			if ok, err := s.RequeueResumption(ctx, "t1", task.ID, opID); err != nil || ok {
				t.Fatalf("terminal task: requeued %v, %v; want false", ok, err)
			}
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			if _, err := s.RequeueResumption(ctx, "t1", task.ID, "nope"); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("unknown operation: %v, want not found", err)
			}
		})
	})

	t.Run("ReleaseAndSettleResumption", func(t *testing.T) {
		s := h.open(t, Options{})
		ctx := wqCtx(t)
		task := wqProject(t, s, "t1", nil)
		wqComplete(t, s, task, "")
		rows, _ := s.ClaimResumptions(ctx, "node-a", 10, time.Hour)
		if len(rows) != 1 {
			t.Fatalf("claim: %d rows", len(rows))
		}
		if err := s.ReleaseResumption(ctx, rows[0]); err != nil {
			t.Fatal(err)
		}
		if err := s.ReleaseResumption(ctx, rows[0]); !errors.Is(err, models.ErrLeaseLost) {
			t.Fatalf("stale release: %v, want lease lost", err)
		}
		again, _ := s.ClaimResumptions(ctx, "node-b", 10, time.Hour)
		if len(again) != 1 || again[0].Attempts != 0 {
			t.Fatalf("released row: %+v (want claimable, no attempt counted)", again)
		}
		if err := s.SettleResumption(ctx, rows[0]); !errors.Is(err, models.ErrLeaseLost) {
			t.Fatalf("settle with a stale lease: %v, want lease lost", err)
		}
		if err := s.SettleResumption(ctx, again[0]); err != nil {
			t.Fatal(err)
		}
		all, _ := s.Resumptions(ctx, "t1", task.ID)
		if len(all) != 1 || all[0].State != models.DeliverySettled {
			t.Fatalf("rows %+v, want one settled row", all)
		}
		if rows, _ := s.ClaimResumptions(ctx, "node-c", 10, time.Hour); len(rows) != 0 {
			t.Fatalf("settled row claimed")
		}
	})
}

func wqDuePages(t *testing.T, s store.Store, size int) []string {
	t.Helper()
	var ids []string
	var after *models.Task
	for {
		page, err := s.DueTasks(wqCtx(t), size, after)
		if err != nil {
			t.Fatal(err)
		}
		ids = wqAppendIDs(ids, page)
		if len(page) < size {
			slices.Sort(ids) // pages run by status, due date and id: compare the set
			return ids
		}
		after = &page[len(page)-1]
	}
}
