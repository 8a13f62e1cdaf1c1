package workers_test

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
	"usertasks/workflow/workflowtest"
)

// wkNotes records the notifier's calls.
type wkNotes struct {
	mu    sync.Mutex
	calls map[string]int
}

func (n *wkNotes) Changed(_, taskID string, _ int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.calls == nil {
		n.calls = map[string]int{}
	}
	n.calls[taskID]++
}

func (n *wkNotes) count(taskID string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.calls[taskID]
}

func TestLoopbackCompletesWithoutAnEngine(t *testing.T) {
	ctx := t.Context()
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	notes := &wkNotes{}
	loop := workflow.NewLoopback(s)
	log, _ := wkLogger(t)

	completed := wkProject(t, s, wkTaskOpts{})
	completeOp := wkComplete(t, s, completed, wkPayload)
	cancelled := wkProject(t, s, wkTaskOpts{})
	wkCancel(t, s, cancelled, "not needed")
	open := wkProject(t, s, wkTaskOpts{})
	s.NotifyChanges(notes) // from here on: what the delivery commits

	res, err := workers.NewDispatcher(s, loop, workers.DispatcherOptions{Logger: log}).RunOnce(ctx)
	if err != nil || res.Delivered != 2 {
		t.Fatalf("dispatch %+v, %v; want two deliveries", res, err)
	}
	for id, want := range map[string]models.Status{completed.ID: models.StatusCompleted, cancelled.ID: models.StatusCancelled} {
		task := wkGet(t, s, "t1", id)
		if task.Status != want || wkEventCount(t, s, "t1", id, wkFinalEvents...) != 1 {
			t.Fatalf("task %s: %s with %d final events, want %s with one", id, task.Status, wkEventCount(t, s, "t1", id, wkFinalEvents...), want)
		}
		rows, _ := s.Resumptions(ctx, "t1", id)
		if len(rows) != 1 || rows[0].State == models.DeliveryPending {
			t.Fatalf("task %s outbox %+v", id, rows)
		}
		if notes.count(id) != 1 {
			t.Fatalf("task %s notified %d times, want once", id, notes.count(id))
		}
	}
	op, err := s.Operation(ctx, "t1", completed.ID, completeOp.OperationID)
	if err != nil || op.State != models.OperationCompleted {
		t.Fatalf("operation %s, %v; want completed", op.State, err)
	}

	t.Run("RepeatIsHarmless", func(t *testing.T) {
		st, err := workflow.NewStimulus(completed, completeOp)
		if err != nil {
			t.Fatal(err)
		}
		if err := loop.Deliver(ctx, st); err != nil {
			t.Fatal(err)
		}
		if n := wkEventCount(t, s, "t1", completed.ID, wkFinalEvents...); n != 1 {
			t.Fatalf("%d final events after a repeat", n)
		}
	})
	t.Run("ErrForeignStimulus", func(t *testing.T) {
		other := wkProject(t, s, wkTaskOpts{})
		op := wkComplete(t, s, other, "")
		st, _ := workflow.NewStimulus(wkGet(t, s, "t1", other.ID), op)
		st.BookmarkID = "someone-else"
		if err := loop.Deliver(ctx, st); !errors.Is(err, models.ErrInvalid) {
			t.Fatalf("got %v, want invalid", err)
		}
		st, _ = workflow.NewStimulus(open, op)
		st.TaskID = open.ID
		if err := loop.Deliver(ctx, st); !errors.Is(err, models.ErrInvalid) {
			t.Fatalf("an open task: %v, want invalid", err)
		}
		if got := wkGet(t, s, "t1", open.ID); got.Status != models.StatusAssigned {
			t.Fatalf("open task is %s", got.Status)
		}
	})
	t.Run("BookmarksAreTheTasksNotClosed", func(t *testing.T) {
		// Its own store: a completed (delivered) task, an open one and a transitional one.
		s := wkSQLite(t).open(t, nil)
		loop := workflow.NewLoopback(s)
		completed := wkProject(t, s, wkTaskOpts{})
		wkComplete(t, s, completed, wkPayload)
		if res, err := workers.NewDispatcher(s, loop, workers.DispatcherOptions{Logger: log}).RunOnce(ctx); err != nil || res.Delivered != 1 {
			t.Fatalf("dispatch %+v, %v; want one delivery", res, err)
		}
		open := wkProject(t, s, wkTaskOpts{})
		wkComplete(t, s, wkProject(t, s, wkTaskOpts{}), "") // requested, not delivered: transitional
		var ids []string
		cursor := ""
		for {
			items, next, err := loop.ListBookmarks(ctx, "t1", cursor, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, item := range items {
				var b struct {
					BookmarkID string `json:"bookmarkId"`
					Task       struct {
						Title string `json:"title"`
					} `json:"task"`
				}
				if err := json.Unmarshal(item, &b); err != nil || b.Task.Title == "" {
					t.Fatalf("body %s: %v", item, err)
				}
				ids = append(ids, b.BookmarkID)
			}
			if next == "" {
				break
			}
			cursor = next
		}
		// open, plus the transitional task.
		if len(ids) != 2 || ids[0] != open.Workflow.BookmarkID {
			t.Fatalf("bookmarks %v", ids)
		}
		if found, body, err := loop.GetBookmark(ctx, "t1", open.Workflow.BookmarkID); err != nil || !found || len(body) == 0 {
			t.Fatalf("open task's bookmark: %v %v", found, err)
		}
		if found, _, err := loop.GetBookmark(ctx, "t1", completed.Workflow.BookmarkID); err != nil || found {
			t.Fatalf("a completed task's bookmark: %v %v", found, err)
		}
		if found, _, err := loop.GetBookmark(ctx, "t1", "unknown"); err != nil || found {
			t.Fatalf("unknown bookmark: %v %v", found, err)
		}
	})
	t.Run("ReconciliationHasNothingToDo", func(t *testing.T) {
		clock.Advance(10 * time.Minute)
		r := workers.NewReconciler(s, loop, nil, workers.ReconcilerOptions{Logger: log})
		run, err := r.RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if run.Totals != (workers.ReconcileCounts{}) {
			t.Fatalf("reconciliation against the loopback did %+v", run.Totals)
		}
	})
}

// The loopback matches bookmark ids exactly, whatever characters they hold, and its "gone" is
// the same outcome an HTTP runtime's exact bookmark-not-found answer gives: reconciliation
// against it finalizes nothing that is live.
func TestLoopbackBookmarkIDsAreExact(t *testing.T) {
	ctx := t.Context()
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	loop := workflow.NewLoopback(s)
	log, _ := wkLogger(t)
	var live []models.Task
	for _, c := range workflowtest.ProjectableBookmarkIDs() {
		live = append(live, wkProject(t, s, wkTaskOpts{BookmarkID: c.ID}))
	}
	for _, task := range live {
		found, body, err := loop.GetBookmark(ctx, "t1", task.Workflow.BookmarkID)
		var b struct {
			BookmarkID string `json:"bookmarkId"`
		}
		if err != nil || !found || json.Unmarshal(body, &b) != nil || b.BookmarkID != task.Workflow.BookmarkID {
			t.Fatalf("bookmark %q: found %v, body %s, %v", task.Workflow.BookmarkID, found, body, err)
		}
	}
	for _, id := range []string{"proc", "proc/1", "PROC/1/STEP", "%2E%2E", "proc%2F1%2Fstep"} {
		if found, body, err := loop.GetBookmark(ctx, "t1", id); found || body != nil || err != nil {
			t.Fatalf("bookmark %q matched: %v %s %v", id, found, body, err)
		}
	}
	if found, _, err := loop.GetBookmark(ctx, "t2", live[0].Workflow.BookmarkID); found || err != nil {
		t.Fatalf("another tenant's bookmark: %v %v", found, err)
	}

	clock.Advance(10 * time.Minute)
	run, err := workers.NewReconciler(s, loop, nil, workers.ReconcilerOptions{Logger: log, MaxRemembered: 1}).RunOnce(ctx)
	if err != nil || run.Totals != (workers.ReconcileCounts{}) {
		t.Fatalf("reconciliation against the loopback: %+v, %v; want nothing to do", run.Totals, err)
	}
	for _, task := range live {
		if got := wkGet(t, s, "t1", task.ID); got.Status != models.StatusAssigned {
			t.Fatalf("bookmark %q: task is %s", task.Workflow.BookmarkID, got.Status)
		}
	}
}
