package e2e

import (
	"errors"
	"time"

	"go.temporal.io/sdk/workflow"

	"usertasks/integrations/temporal/usertask"
)

// approvalInput starts the invoice approval the tests run.
type approvalInput struct {
	Title        string
	Amount       int
	Due          time.Time
	TimeoutAtDue bool
	Deadlines    []usertask.Deadline
}

// approvalResult is what the workflow saw when it resumed.
type approvalResult struct {
	Action   string
	Comment  string
	Approved bool
	By       string
	Ended    string // "timeout" or "cancelled" when the task ended without a decision
	Reason   string
	Latency  time.Duration // from User Tasks accepting the decision to the workflow receiving it
}

// approvalForm is the form the person fills in.
var approvalForm = &usertask.Form{Schema: map[string]any{
	"type":     "object",
	"required": []string{"comment"},
	"properties": map[string]any{
		"comment": map[string]any{"type": "string", "maxLength": 200, "title": "Comment"},
	},
}}

// approval waits for finance to approve or reject an invoice.
func approval(ctx workflow.Context, in approvalInput) (approvalResult, error) {
	out, err := usertask.Await(ctx, usertask.Definition{
		Step:            "approve",
		WorkflowName:    "Invoice approval",
		Title:           in.Title,
		CandidateGroups: []usertask.Participant{{ID: "finance"}},
		Data:            map[string]any{"amount": in.Amount},
		Form:            approvalForm,
		Actions:         []usertask.Action{{Key: "approve", Label: "Approve"}, {Key: "reject", Label: "Reject"}},
		Due:             in.Due,
		TimeoutAtDue:    in.TimeoutAtDue,
		Cancellable:     true,
		Deadlines:       in.Deadlines,
	})
	r := approvalResult{}
	var ended *usertask.EndedError
	switch {
	case errors.Is(err, usertask.ErrTimedOut):
		r.Ended = "timeout"
		return r, nil
	case errors.As(err, &ended):
		r.Ended, r.Reason = "cancelled", ended.Reason
		if ended.By != nil {
			r.By = ended.By.ID
		}
		return r, nil
	case err != nil:
		return r, err
	}
	var data struct {
		Comment string `json:"comment"`
	}
	if err := out.Decode(&data); err != nil {
		return r, err
	}
	r.Action, r.Comment, r.Approved, r.By = out.ActionKey, data.Comment, out.ActionKey == "approve", out.CompletedBy.ID
	r.Latency = out.ResumedAt.Sub(out.CompletedAt)
	return r, nil
}
