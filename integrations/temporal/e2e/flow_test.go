package e2e

import (
	"bytes"
	"net/http/httptest"

	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
	"usertasks/integrations/temporal/endpoint"

	"go.temporal.io/sdk/temporal"

	"usertasks/integrations/temporal/usertask"
)

// Workflow ids as real users have them: separators, query and fragment marks, spaces and
// non-ASCII. Each becomes part of a bookmark id and travels as one escaped path segment.
var hostileIDs = []string{"invoice/2026/17", "inv?x=1#frag", "inv 42 ü", "Zürich-Rechnung", "a%2Fb"}

// TestDecisionResumesWorkflowOnce: a workflow waits, a person completes the task through the
// JSON API, the workflow resumes exactly once with the typed result, and the task ends
// Completed. It also gives the figures of the closing note: completion → resumption p50/p95.
func TestDecisionResumesWorkflowOnce(t *testing.T) {
	s := newStack(t, false)
	var latencies []time.Duration
	for i, id := range append(slices.Clone(hostileIDs), "inv-6", "inv-7", "inv-8", "inv-9", "inv-10") {
		run := s.start(t, id, approvalInput{Title: fmt.Sprintf("Approve invoice %d", i), Amount: 100 + i})
		task := s.ut.taskOf(t, id)
		if task.Status != "Available" {
			t.Fatalf("%s: task %s, want Available", id, task.Status)
		}
		action := "approve"
		if i%3 == 2 {
			action = "reject"
		}
		s.ut.decide(t, ben, task, action, map[string]any{"comment": "ok " + id})
		r, err := result(t, run)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if r.Action != action || r.Comment != "ok "+id || r.By != "ben" || r.Approved != (action == "approve") || r.Ended != "" {
			t.Fatalf("%s: the workflow resumed with %+v", id, r)
		}
		latencies = append(latencies, r.Latency)
		s.ut.waitStatus(t, task.ID, "Completed")
	}
	st := s.endpoint.Stats()
	if st.Signalled != int64(len(latencies)) {
		t.Fatalf("stats %+v: want %d signals, one per task", st, len(latencies))
	}
	slices.Sort(latencies)
	t.Logf("FIGURES tasks completed %d, stimuli signalled %d, duplicates ignored %d, completion → resumption p50 %s p95 %s",
		len(latencies), st.Signalled, st.Duplicates, latencies[len(latencies)/2], latencies[(len(latencies)*95+99)/100-1])
}

// TestDuplicateStimuliAreHarmless: every stimulus arrives twice; the workflow resumes once and
// the second delivery is acknowledged without a signal.
func TestDuplicateStimuliAreHarmless(t *testing.T) {
	s := newStack(t, false)
	s.mu.Lock()
	s.duplicateDeliveries = true
	s.mu.Unlock()
	const n = 3
	for i := range n {
		id := fmt.Sprintf("dup/%d", i)
		run := s.start(t, id, approvalInput{Title: "Duplicate " + id, Amount: i})
		task := s.ut.taskOf(t, id)
		s.ut.decide(t, ben, task, "approve", map[string]any{"comment": "once"})
		r, err := result(t, run)
		if err != nil || r.Action != "approve" {
			t.Fatalf("%s: %+v %v", id, r, err)
		}
		s.ut.waitStatus(t, task.ID, "Completed")
	}
	st := s.endpoint.Stats()
	if st.Signalled != n || st.Duplicates+st.Gone < n {
		t.Fatalf("stats %+v: want %d signals and %d duplicate deliveries acknowledged without one", st, n, n)
	}
	t.Logf("FIGURES duplicate deliveries: signalled %d, ignored as duplicates %d, for a closed run %d", st.Signalled, st.Duplicates, st.Gone)

	// A redelivery to an endpoint that remembers no keys (it restarted): the run has closed,
	// so it is acknowledged without a signal.
	s.mu.Lock()
	last := s.lastStimulus
	s.mu.Unlock()
	fresh := endpoint.New(endpoint.Config{Temporal: s.client, Tenant: tenant, Secret: []byte(runtimeSecret)})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/temporal%20rt/user-task-stimuli", bytes.NewReader(last))
	req.Header.Set("X-UserTasks-Signature", sign(last))
	fresh.ServeHTTP(rec, req)
	if rec.Code != http.StatusNoContent || fresh.Stats().Gone != 1 || fresh.Stats().Signalled != 0 {
		t.Fatalf("redelivery after a restart: %d %+v", rec.Code, fresh.Stats())
	}
}

// TestTimeoutAndCancellation: a task past its due date with timeout on ends the wait with
// ErrTimedOut; a manager's cancellation with ErrCancelled and the reason; cancelling the
// workflow removes the bookmark, so the task ends Cancelled.
func TestTimeoutAndCancellation(t *testing.T) {
	s := newStack(t, false)

	t.Run("Timeout", func(t *testing.T) {
		run := s.start(t, "late invoice", approvalInput{Title: "Late", Due: time.Now().Add(2 * time.Second), TimeoutAtDue: true})
		task := s.ut.taskOf(t, "late invoice")
		r, err := result(t, run)
		if err != nil || r.Ended != "timeout" {
			t.Fatalf("%+v %v: want the timeout", r, err)
		}
		s.ut.waitStatus(t, task.ID, "TimedOut")
	})

	t.Run("ManagerCancels", func(t *testing.T) {
		run := s.start(t, "cancelled invoice", approvalInput{Title: "Cancel me"})
		task := s.ut.taskOf(t, "cancelled invoice")
		body := map[string]any{"expectedRevision": task.Revision, "operationId": "cancel-1", "reason": "duplicate invoice"}
		if code := s.ut.call(t, ava, http.MethodPost, "/api/v1/user-tasks/"+url.PathEscape(task.ID)+"/cancel", body, nil); code/100 != 2 {
			t.Fatalf("cancel: %d", code)
		}
		r, err := result(t, run)
		if err != nil || r.Ended != "cancelled" || r.Reason != "duplicate invoice" || r.By != "ava" {
			t.Fatalf("%+v %v: want the manager's cancellation", r, err)
		}
		s.ut.waitStatus(t, task.ID, "Cancelled")
	})

	t.Run("WorkflowCancelled", func(t *testing.T) {
		run := s.start(t, "withdrawn invoice", approvalInput{Title: "Withdrawn"})
		task := s.ut.taskOf(t, "withdrawn invoice")
		if err := s.client.CancelWorkflow(context.Background(), "withdrawn invoice", ""); err != nil {
			t.Fatal(err)
		}
		_, err := result(t, run)
		var cancelled *temporal.CanceledError
		if !errors.As(err, &cancelled) {
			t.Fatalf("workflow ended with %v, want cancelled", err)
		}
		s.ut.waitStatus(t, task.ID, "Cancelled")
	})
}

// TestWorkerDownWhileCompleting: the worker process (workers and endpoint) is down when the
// person decides; User Tasks keeps retrying the stimulus and the workflow resumes once the
// process is back.
func TestWorkerDownWhileCompleting(t *testing.T) {
	s := newStack(t, false)
	run := s.start(t, "invoice while down", approvalInput{Title: "While down"})
	task := s.ut.taskOf(t, "invoice while down")
	s.stopWorkerProcess()
	s.ut.decide(t, ben, task, "approve", map[string]any{"comment": "decided while the worker was down"})
	time.Sleep(3 * time.Second) // a few failed deliveries
	if got := s.ut.task(t, task.ID).Status; got != "Completing" {
		t.Fatalf("task %s while the worker is down, want Completing", got)
	}
	s.startWorkerProcess(t)
	r, err := result(t, run)
	if err != nil || r.Comment != "decided while the worker was down" {
		t.Fatalf("%+v %v", r, err)
	}
	s.ut.waitStatus(t, task.ID, "Completed")
	if st := s.endpoint.Stats(); st.Signalled != 1 {
		t.Fatalf("stats %+v: want one signal", st)
	}
}

// TestReconciliationRecreatesLostProjection: the projection never reached User Tasks; the
// reconciliation lists the waiting workflow from Temporal and projects the task again.
func TestReconciliationRecreatesLostProjection(t *testing.T) {
	s := newStack(t, false)
	s.dropProjection = func(p usertask.Projection) bool { return p.WorkflowInstanceID == "lost invoice" }
	// The tenant has a task already: reconciliation runs for the tenants User Tasks knows.
	s.start(t, "known invoice", approvalInput{Title: "Known"})
	s.ut.taskOf(t, "known invoice")
	run := s.start(t, "lost invoice", approvalInput{Title: "Lost projection"})
	task := s.ut.taskOf(t, "lost invoice") // only the reconciliation can create it
	s.ut.decide(t, ben, task, "reject", map[string]any{"comment": "found again"})
	r, err := result(t, run)
	if err != nil || r.Action != "reject" {
		t.Fatalf("%+v %v", r, err)
	}
	s.ut.waitStatus(t, task.ID, "Completed")
}

// TestWorkflowTakesTheFirstDecision: two decisions for one step reach the workflow (a
// redelivery the endpoint could not recognise, e.g. after it restarted); the workflow resumes
// with the first and ignores the second.
func TestWorkflowTakesTheFirstDecision(t *testing.T) {
	s := newStack(t, false)
	run := s.start(t, "twice decided", approvalInput{Title: "Twice"})
	s.ut.taskOf(t, "twice decided")
	for _, action := range []string{"approve", "reject"} {
		stim := usertask.Stimulus{Tenant: tenant, ActionKey: action, Data: []byte(`{"comment":"` + action + `"}`),
			CompletedBy: &usertask.Participant{ID: "ben"}, CompletedAt: time.Now()}
		if err := s.client.SignalWorkflow(context.Background(), "twice decided", run.GetRunID(), usertask.SignalName("approve"), stim); err != nil {
			t.Fatal(err)
		}
	}
	r, err := result(t, run)
	if err != nil || r.Action != "approve" || r.Comment != "approve" {
		t.Fatalf("%+v %v: want the first decision", r, err)
	}
}
