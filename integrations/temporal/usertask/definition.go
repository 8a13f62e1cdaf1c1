// Package usertask gives Temporal workflows human tasks in User Tasks: Await projects a task
// through an activity and waits for the person's decision, which the runtime endpoint
// (package endpoint) turns into a signal on the waiting workflow.
package usertask

import (
	"encoding/json"
	"time"
)

// Definition is the task a workflow waits on. Step names the wait within the workflow run: it
// must be unique per run and is part of the bookmark id, so a retried activity projects the same
// task once.
type Definition struct {
	Step string

	// WorkflowName labels the workflow in the inbox; the workflow type when empty.
	WorkflowName string
	Title        string
	Summary      string
	Reference    string
	Tags         []string
	TaskType     string
	Priority     *int
	// Due is when the task is due; with TimeoutAtDue the task times out then and Await returns
	// ErrTimedOut.
	Due          time.Time
	TimeoutAtDue bool
	// Cancellable lets managers cancel the task; Await then returns ErrCancelled.
	Cancellable bool

	Requester       *Participant
	Assignee        *Participant
	CandidateUsers  []Participant
	CandidateGroups []Participant
	ExcludedUsers   []Participant

	// Instructions are Markdown, shown to the person and stored protected.
	Instructions string
	// Data is shown with the task (a JSON object; protected).
	Data map[string]any
	// Form is the form the person fills in: an inline JSON Schema or a reference.
	Form *Form
	// Actions are the decisions offered; User Tasks offers Complete when empty.
	Actions []Action
	// Deadlines escalate the task by themselves when nobody takes or finishes it in time
	// (deadline.go): at most 5.
	Deadlines []Deadline
}

// Participant is a user or group of the identity provider.
type Participant struct {
	Provider    string `json:"provider,omitempty"`
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"`
}

// Action is one decision the person can take.
type Action struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Form is an inline JSON Schema or a reference to one a form provider holds.
type Form struct {
	Schema   map[string]any `json:"schema,omitempty"`
	Provider string         `json:"provider,omitempty"`
	Key      string         `json:"key,omitempty"`
	Version  string         `json:"version,omitempty"`
}

// Projection is the body of POST /api/v1/runtime/bookmarks: one committed bookmark. The runtime
// endpoint answers reconciliation with the same body.
type Projection struct {
	WorkflowDefinitionID   string   `json:"workflowDefinitionId"`
	WorkflowDefinitionName string   `json:"workflowDefinitionName,omitempty"`
	WorkflowInstanceID     string   `json:"workflowInstanceId"`
	ActivityInstanceID     string   `json:"activityInstanceId"`
	BookmarkID             string   `json:"bookmarkId"`
	Task                   TaskBody `json:"task"`
}

// TaskBody is the task part of a projection.
type TaskBody struct {
	Title               string          `json:"title"`
	Summary             string          `json:"summary,omitempty"`
	Reference           string          `json:"reference,omitempty"`
	Tags                []string        `json:"tags,omitempty"`
	TaskType            string          `json:"taskType,omitempty"`
	Requester           *Participant    `json:"requester,omitempty"`
	Priority            *int            `json:"priority,omitempty"`
	DueAt               *time.Time      `json:"dueAt,omitempty"`
	Assignee            *Participant    `json:"assignee,omitempty"`
	CandidateUsers      []Participant   `json:"candidateUsers,omitempty"`
	CandidateGroups     []Participant   `json:"candidateGroups,omitempty"`
	ExcludedUsers       []Participant   `json:"excludedUsers,omitempty"`
	Instructions        string          `json:"instructions,omitempty"`
	TaskData            json.RawMessage `json:"taskData,omitempty"`
	Form                *Form           `json:"form,omitempty"`
	Actions             []Action        `json:"actions,omitempty"`
	TimeoutEnabled      bool            `json:"timeoutEnabled,omitempty"`
	CancellationEnabled bool            `json:"cancellationEnabled,omitempty"`
	Deadlines           []DeadlineBody  `json:"deadlines,omitempty"`
}

// projection is the definition as the bookmark of one workflow run.
func (d Definition) projection(workflowType, workflowID, runID string) (Projection, error) {
	id, err := BookmarkID(workflowID, runID, d.Step)
	if err != nil {
		return Projection{}, err
	}
	name := d.WorkflowName
	if name == "" {
		name = workflowType
	}
	p := Projection{
		WorkflowDefinitionID:   workflowType,
		WorkflowDefinitionName: name,
		WorkflowInstanceID:     workflowID,
		ActivityInstanceID:     runID + "/" + d.Step,
		BookmarkID:             id,
		Task: TaskBody{
			Title: d.Title, Summary: d.Summary, Reference: d.Reference, Tags: d.Tags, TaskType: d.TaskType,
			Requester: d.Requester, Priority: d.Priority, Assignee: d.Assignee,
			CandidateUsers: d.CandidateUsers, CandidateGroups: d.CandidateGroups, ExcludedUsers: d.ExcludedUsers,
			Instructions: d.Instructions, Form: d.Form, Actions: d.Actions,
			TimeoutEnabled: d.TimeoutAtDue, CancellationEnabled: d.Cancellable,
		},
	}
	if !d.Due.IsZero() {
		due := d.Due.UTC()
		p.Task.DueAt = &due
	}
	deadlines, err := deadlineBodies(d.Deadlines)
	if err != nil {
		return Projection{}, err
	}
	p.Task.Deadlines = deadlines
	if d.Data != nil {
		raw, err := json.Marshal(d.Data)
		if err != nil {
			return Projection{}, err
		}
		p.Task.TaskData = raw
	}
	return p, nil
}
