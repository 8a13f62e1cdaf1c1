package invoice

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"usertasks/integrations/temporal/usertask"
)

// The workflow logic in Temporal's test environment: activities mocked, the decision sent as
// the signal the runtime endpoint would send.
func run(t *testing.T, inv Invoice, stimulus usertask.Stimulus) (Decision, usertask.Projection) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(Approval)
	a := &usertask.Activities{}
	env.RegisterActivityWithOptions(a.Project, activity.RegisterOptions{Name: usertask.ProjectActivity})
	env.RegisterActivityWithOptions(a.Remove, activity.RegisterOptions{Name: usertask.RemoveActivity})
	var projected usertask.Projection
	env.OnActivity(usertask.ProjectActivity, mock.Anything, mock.Anything).Return(func(_ context.Context, p usertask.Projection) (usertask.ProjectionResult, error) {
		projected = p
		return usertask.ProjectionResult{TaskID: "t1", Status: "Available", Revision: 1, Created: true}, nil
	})
	removed := 0
	env.OnActivity(usertask.RemoveActivity, mock.Anything, mock.Anything).Return(func(_ context.Context, id string) error {
		if id != projected.BookmarkID {
			t.Errorf("removed %q, want the projected bookmark %q", id, projected.BookmarkID)
		}
		removed++
		return nil
	})
	env.RegisterDelayedCallback(func() {
		stimulus.BookmarkID = projected.BookmarkID
		env.SignalWorkflow(usertask.SignalName("approve"), stimulus)
	}, time.Minute)
	env.ExecuteWorkflow(Approval, inv)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if projected.Task.Title != "Approve invoice INV-7 from ACME GmbH" || projected.Task.Form == nil || projected.Task.TimeoutEnabled != (inv.ApproveWithin > 0) {
		t.Errorf("projected %+v", projected.Task)
	}
	if removed != 1 {
		t.Errorf("bookmark removed %d times, want once", removed)
	}
	var d Decision
	if err := env.GetWorkflowResult(&d); err != nil {
		t.Fatal(err)
	}
	return d, projected
}

func TestApprovalApproved(t *testing.T) {
	d, _ := run(t, Invoice{Number: "INV-7", Supplier: "ACME GmbH", Amount: 1200}, usertask.Stimulus{
		ActionKey: "approve", Data: json.RawMessage(`{"comment":"matches PO 4411","payOn":"2026-12-15"}`),
		CompletedBy: &usertask.Participant{ID: "ben", DisplayName: "Ben Brooks"},
	})
	if d.Outcome != "approved" || d.By != "Ben Brooks" || d.PayOn != "2026-12-15" || d.Comment != "matches PO 4411" {
		t.Fatalf("%+v", d)
	}
}

func TestApprovalTimedOut(t *testing.T) {
	d, _ := run(t, Invoice{Number: "INV-7", Supplier: "ACME GmbH", Amount: 1200, ApproveWithin: 48 * time.Hour}, usertask.Stimulus{ActionKey: "Timeout"})
	if d.Outcome != "timed out" {
		t.Fatalf("%+v", d)
	}
}

func TestApprovalCancelledByManager(t *testing.T) {
	d, _ := run(t, Invoice{Number: "INV-7", Supplier: "ACME GmbH", Amount: 1200}, usertask.Stimulus{
		ActionKey: "Cancelled", Reason: "paid twice", CompletedBy: &usertask.Participant{ID: "ava", DisplayName: "Ava Adams"},
	})
	if d.Outcome != "cancelled" || d.Reason != "paid twice" || d.By != "Ava Adams" {
		t.Fatalf("%+v", d)
	}
}

// TestApprovalEscalates: with EscalateAfter the projection carries one start deadline that
// hands the task to the finance leads, raises its priority and tells the managers.
func TestApprovalEscalates(t *testing.T) {
	d, p := run(t, Invoice{Number: "INV-7", Supplier: "ACME GmbH", Amount: 1200, EscalateAfter: 36 * time.Hour}, usertask.Stimulus{ActionKey: "approve",
		Data: json.RawMessage(`{"comment":"ok"}`), CompletedBy: &usertask.Participant{ID: "lee"}})
	if d.Outcome != "approved" {
		t.Fatalf("%+v", d)
	}
	raw, err := json.Marshal(p.Task.Deadlines)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"kind":"start","after":"P1DT12H","actions":[{"type":"reassign","candidateGroups":[{"id":"finance-leads","displayName":"Finance leads"}]},{"type":"set-priority","priority":80},{"type":"notify","to":"managers"}]}]`
	if string(raw) != want {
		t.Fatalf("deadlines %s, want %s", raw, want)
	}
	if _, p := run(t, Invoice{Number: "INV-7", Supplier: "ACME GmbH", Amount: 1200}, usertask.Stimulus{ActionKey: "Timeout"}); p.Task.Deadlines != nil {
		t.Errorf("without EscalateAfter the projection carries deadlines %+v", p.Task.Deadlines)
	}
}
