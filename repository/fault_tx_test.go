package repository_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
)

// Faults inside a write transaction (issue 14, docs/reliability.md "Faults"): a completion is
// interrupted after each of its statements — the caller's context cancelled (a client that
// went away), or the connection to the database cut — and the task, its events, operations and
// outbox must be exactly as before; the same command then succeeds on the same store.

// faultPoint is a statement of a completion's transaction after which the fault strikes: the
// verb and the table, whatever the dialect's quoting.
type faultPoint struct{ verb, table string }

// faultPoints are the completion's steps, in order: the database clock (nothing written yet),
// the task's guarded update, its event, its operation and its resumption outbox row (the last
// statement before COMMIT).
var faultPoints = []faultPoint{
	{"SELECT", "now"}, {"UPDATE", "user_tasks"}, {"INSERT", "user_task_events"},
	{"INSERT", "user_task_operations"}, {"INSERT", "user_task_resumptions"},
}

func (p faultPoint) String() string { return p.verb + " " + p.table }

func (p faultPoint) matches(sql string) bool {
	if !strings.HasPrefix(sql, p.verb) {
		return false
	}
	if p.table == "now" {
		return !strings.Contains(sql, " FROM ")
	}
	for _, quote := range []string{"`", `"`} {
		if strings.Contains(sql, quote+p.table+quote) {
			return true
		}
	}
	return false
}

// faultHook is a store's OnSQL hook that runs strike once, after the first statement that
// matches the armed point.
type faultHook struct {
	armed atomic.Pointer[func(sql string)]
}

func (h *faultHook) onSQL(sql string) {
	if f := h.armed.Load(); f != nil {
		(*f)(sql)
	}
}

func (h *faultHook) arm(p faultPoint, strike func()) {
	var once atomic.Bool
	f := func(sql string) {
		if p.matches(sql) && once.CompareAndSwap(false, true) {
			strike()
		}
	}
	h.armed.Store(&f)
}

func (h *faultHook) disarm() { h.armed.Store(nil) }

// faultComplete completes task as ann with operation opID.
func faultComplete(ctx context.Context, s *repository.Store, task models.Task, opID string) (models.Change, error) {
	return s.Mutate(ctx, task.Tenant, task.ID, opID, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		cmd := models.Command{OperationID: opID, ExpectedRevision: cur.Revision, Actor: testfactory.Person(cur.Tenant, "ann"), Prior: prior}
		return models.Complete(cur, cmd, models.ActionComplete, json.RawMessage(`{"decision":"approve"}`), now)
	})
}

func faultTask(t *testing.T, s *repository.Store) models.Task {
	t.Helper()
	return testfactory.Task(t.Context(), t, s, &testfactory.TaskOpts{Assignee: "ann",
		Form: json.RawMessage(`{"type":"object","properties":{"decision":{"type":"string"}}}`)})
}

// wantUntouched checks that the interrupted operation left nothing behind.
func wantUntouched(t *testing.T, s *repository.Store, before models.Task, opID string) {
	t.Helper()
	ctx := t.Context()
	got, err := s.Get(ctx, before.Tenant, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Revision != before.Revision || got.Status != before.Status || got.Outcome != before.Outcome {
		t.Fatalf("task is revision %d, %s; want untouched (%d, %s)", got.Revision, got.Status, before.Revision, before.Status)
	}
	evs, err := s.Events(ctx, before.Tenant, before.ID, 0, models.MaxPageSize)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != before.Revision {
		t.Fatalf("%d events for revision %d: the interrupted event was kept", len(evs), before.Revision)
	}
	if _, err := s.Operation(ctx, before.Tenant, before.ID, opID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("operation of the interrupted command: %v, want not found", err)
	}
	if rows, err := s.Resumptions(ctx, before.Tenant, before.ID); err != nil || len(rows) != 0 {
		t.Fatalf("outbox rows %+v (%v), want none", rows, err)
	}
}

// wantCompletes runs the command again, undisturbed: it is accepted once.
func wantCompletes(t *testing.T, s *repository.Store, task models.Task, opID string) {
	t.Helper()
	ch, err := faultComplete(t.Context(), s, task, opID)
	if err != nil {
		t.Fatalf("the command after the fault: %v", err)
	}
	if ch.Task.Status != models.StatusCompleting || ch.Task.Revision != task.Revision+1 {
		t.Fatalf("after the fault: %s at revision %d, want Completing at %d", ch.Task.Status, ch.Task.Revision, task.Revision+1)
	}
	if rows, _ := s.Resumptions(t.Context(), task.Tenant, task.ID); len(rows) != 1 {
		t.Fatalf("%d outbox rows after the completion, want 1", len(rows))
	}
}

// TestFaultCancelledMidTransaction: the request's context is cancelled after each statement of
// a completion; the store rolls back and answers with the cancellation.
func TestFaultCancelledMidTransaction(t *testing.T) {
	for _, d := range testfactory.SQLProviders {
		t.Run(d.Name(), func(t *testing.T) {
			hook := &faultHook{}
			s := testfactory.OpenSQL(t, testfactory.Database(t, d), &testfactory.StoreOpts{OnSQL: hook.onSQL})
			for _, p := range faultPoints {
				t.Run(p.String(), func(t *testing.T) {
					task := faultTask(t, s)
					opID := "complete-" + models.NewID()
					ctx, cancel := context.WithCancel(t.Context())
					defer cancel()
					// Give database/sql's watcher time to roll the transaction back before
					// the store's next step, the order a loaded machine produces.
					hook.arm(p, func() { cancel(); time.Sleep(20 * time.Millisecond) })
					_, err := faultComplete(ctx, s, task, opID)
					hook.disarm()
					if ctx.Err() == nil {
						t.Fatalf("the statement %s never ran", p)
					}
					if !errors.Is(err, context.Canceled) {
						t.Fatalf("err %v, want the cancellation", err)
					}
					wantUntouched(t, s, task, opID)
					wantCompletes(t, s, task, opID)
				})
			}
		})
	}
}

// TestFaultConnectionCutMidTransaction: the network to PostgreSQL drops after each statement of
// a completion (a TCP proxy the test controls; the server keeps running). The command fails with
// database-busy (503), the server rolls the transaction back, and once the network returns the
// same store — no restart — runs the command.
func TestFaultConnectionCutMidTransaction(t *testing.T) {
	for _, d := range []testfactory.Provider{testfactory.Postgres, testfactory.MySQL} {
		t.Run(d.Name(), func(t *testing.T) {
			proxy, viaProxy := testfactory.ProxyDatabase(t, testfactory.Database(t, d))
			hook := &faultHook{}
			s := testfactory.OpenSQL(t, viaProxy, &testfactory.StoreOpts{OnSQL: hook.onSQL, WriteTimeout: 5 * time.Second})
			for _, p := range faultPoints {
				t.Run(p.String(), func(t *testing.T) {
					task := faultTask(t, s)
					opID := "complete-" + models.NewID()
					hook.arm(p, proxy.Cut)
					_, err := faultComplete(t.Context(), s, task, opID)
					hook.disarm()
					proxy.Restore()
					if code := models.ErrorCode(err); code != models.CodeDatabaseBusy {
						t.Fatalf("err %v (code %q), want database-busy", err, code)
					}
					wantUntouched(t, s, task, opID)
					wantCompletes(t, s, task, opID)
				})
			}
		})
	}
}
