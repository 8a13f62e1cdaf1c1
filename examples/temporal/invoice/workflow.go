// Package invoice is the worked example of the Temporal integration: an invoice waits for a
// finance approver, who approves or rejects it with a form in the User Tasks inbox.
package invoice

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"usertasks/integrations/temporal/usertask"
)

// TaskQueue is where the example's worker listens.
const TaskQueue = "invoice-approval"

// Invoice is the workflow's input.
type Invoice struct {
	Number   string
	Supplier string
	Amount   float64 // euros
	// ApproveWithin is how long finance has before the task times out (0: no timeout).
	ApproveWithin time.Duration
	// EscalateAfter is how long the invoice may wait in finance's queue before nobody having
	// taken it escalates it to the finance leads (0: never).
	EscalateAfter time.Duration
}

// Decision is the workflow's result.
type Decision struct {
	Outcome   string // "approved", "rejected", "timed out" or "cancelled"
	By        string
	Comment   string
	PayOn     string // the payment date the approver chose, YYYY-MM-DD
	Reason    string // a manager's reason for a cancellation
	DecidedAt time.Time
}

// approvalForm is what the approver fills in: a comment and, when approving, a payment date.
var approvalForm = &usertask.Form{Schema: map[string]any{
	"type":     "object",
	"required": []string{"comment"},
	"properties": map[string]any{
		"comment": map[string]any{"type": "string", "maxLength": 500, "title": "Comment", "x-ui": map[string]any{"widget": "textarea", "order": 1}},
		"payOn":   map[string]any{"type": "string", "format": "date", "title": "Pay on", "x-ui": map[string]any{"order": 2, "help": "Leave empty to pay on the due date."}},
	},
}}

// Approval waits for finance to decide on the invoice.
func Approval(ctx workflow.Context, inv Invoice) (Decision, error) {
	def := usertask.Definition{
		Step:            "approve",
		WorkflowName:    "Invoice approval",
		Title:           fmt.Sprintf("Approve invoice %s from %s", inv.Number, inv.Supplier),
		Summary:         fmt.Sprintf("%.2f EUR", inv.Amount),
		Reference:       inv.Number,
		Tags:            []string{"invoice"},
		CandidateGroups: []usertask.Participant{{ID: "finance", DisplayName: "Finance"}},
		Instructions:    "Check the amount against the purchase order before approving.",
		Data:            map[string]any{"supplier": inv.Supplier, "amount": inv.Amount, "currency": "EUR"},
		Form:            approvalForm,
		Actions:         []usertask.Action{{Key: "approve", Label: "Approve"}, {Key: "reject", Label: "Reject"}},
		Cancellable:     true,
	}
	if inv.ApproveWithin > 0 {
		def.Due, def.TimeoutAtDue = workflow.Now(ctx).Add(inv.ApproveWithin), true
	}
	if inv.EscalateAfter > 0 {
		// A start deadline: if nobody in finance has taken the task by then, User Tasks itself
		// hands it to the finance leads, raises its priority and tells the managers. The
		// workflow keeps waiting as before; a claim in time means it never fires.
		def.Deadlines = []usertask.Deadline{{
			Kind:  usertask.DeadlineStart,
			After: inv.EscalateAfter,
			Actions: []usertask.DeadlineAction{
				usertask.Reassign(nil, []usertask.Participant{{ID: "finance-leads", DisplayName: "Finance leads"}}),
				usertask.SetPriority(80),
				usertask.NotifyManagers(),
			},
		}}
	}
	out, err := usertask.Await(ctx, def)
	var ended *usertask.EndedError
	switch {
	case errors.Is(err, usertask.ErrTimedOut):
		return Decision{Outcome: "timed out"}, nil
	case errors.As(err, &ended):
		d := Decision{Outcome: "cancelled", Reason: ended.Reason, DecidedAt: ended.At}
		if ended.By != nil {
			d.By = ended.By.DisplayName
		}
		return d, nil
	case err != nil:
		return Decision{}, err
	}
	var form struct {
		Comment string `json:"comment"`
		PayOn   string `json:"payOn"`
	}
	if err := out.Decode(&form); err != nil {
		return Decision{}, err
	}
	d := Decision{Outcome: "rejected", By: out.CompletedBy.DisplayName, Comment: form.Comment, DecidedAt: out.CompletedAt}
	if out.ActionKey == "approve" {
		d.Outcome, d.PayOn = "approved", form.PayOn
	}
	return d, nil
}
