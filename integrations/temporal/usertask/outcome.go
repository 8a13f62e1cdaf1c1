package usertask

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Stimulus is the decision User Tasks delivers for a task (POST {runtime}/user-task-stimuli);
// the runtime endpoint passes it to the workflow as the step's signal.
type Stimulus struct {
	Tenant             string          `json:"tenant"`
	TaskID             string          `json:"taskId"`
	BookmarkID         string          `json:"bookmarkId"`
	WorkflowInstanceID string          `json:"workflowInstanceId"`
	OperationID        string          `json:"operationId"`
	ActionKey          string          `json:"actionKey"`
	Data               json.RawMessage `json:"data,omitempty"`
	CompletedBy        *Participant    `json:"completedBy"`
	CompletedAt        time.Time       `json:"completedAt"`
	Reason             string          `json:"reason,omitempty"`
	// IdempotencyKey is the delivery's Idempotency-Key header, kept for the workflow's history.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
}

// The action keys User Tasks reserves for a task that ended without a person's decision.
const (
	actionTimeout   = "Timeout"
	actionCancelled = "Cancelled"
)

// Outcome is a person's decision on the task.
type Outcome struct {
	TaskID      string
	ActionKey   string
	Data        json.RawMessage // the form's data as a JSON object; empty without a form
	CompletedBy Participant
	CompletedAt time.Time // when User Tasks accepted the decision
	ResumedAt   time.Time // when the workflow received it (workflow time)
}

// Decode unmarshals the decision's data into v.
func (o Outcome) Decode(v any) error {
	if len(o.Data) == 0 {
		return errors.New("usertask: the decision has no data")
	}
	return json.Unmarshal(o.Data, v)
}

var (
	// ErrTimedOut: the task reached its due date with TimeoutAtDue set.
	ErrTimedOut = errors.New("usertask: the task timed out")
	// ErrCancelled: a manager cancelled the task in User Tasks.
	ErrCancelled = errors.New("usertask: the task was cancelled")
)

// EndedError tells how a task ended without a decision; errors.Is matches ErrTimedOut or
// ErrCancelled.
type EndedError struct {
	Kind   error
	TaskID string
	By     *Participant // the cancelling manager; nil for a timeout
	Reason string
	At     time.Time
}

func (e *EndedError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%v: %s", e.Kind, e.Reason)
	}
	return e.Kind.Error()
}

func (e *EndedError) Unwrap() error { return e.Kind }

// result maps a stimulus to what Await returns.
func (s Stimulus) result() (Outcome, error) {
	switch s.ActionKey {
	case actionTimeout:
		return Outcome{}, &EndedError{Kind: ErrTimedOut, TaskID: s.TaskID, At: s.CompletedAt}
	case actionCancelled:
		return Outcome{}, &EndedError{Kind: ErrCancelled, TaskID: s.TaskID, By: s.CompletedBy, Reason: s.Reason, At: s.CompletedAt}
	}
	o := Outcome{TaskID: s.TaskID, ActionKey: s.ActionKey, Data: s.Data, CompletedAt: s.CompletedAt}
	if s.CompletedBy != nil {
		o.CompletedBy = *s.CompletedBy
	}
	return o, nil
}
