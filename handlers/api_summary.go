package handlers

import (
	"encoding/json"
	"time"

	"usertasks/models"
	"usertasks/tasks"
)

// JSON shapes of SPEC 5.1 shared by several answers. Absent optional values are null, so every
// member is always present — except healthCode, which only managers get, and the protected
// members of the detail.

// candidateSummaryJSON counts candidates; identities are never shown.
type candidateSummaryJSON struct {
	Users  int `json:"users"`
	Groups int `json:"groups"`
}

// summaryJSON is a list item, and the core of the detail and of command answers.
type summaryJSON struct {
	ID                        string                  `json:"id"`
	Title                     string                  `json:"title"`
	Summary                   *string                 `json:"summary"`
	Reference                 *string                 `json:"reference"`
	Tags                      []string                `json:"tags"`
	TaskType                  *string                 `json:"taskType"`
	Status                    models.Status           `json:"status"`
	Priority                  int                     `json:"priority"`
	Assignee                  *models.WireParticipant `json:"assignee"`
	CandidateSummary          *candidateSummaryJSON   `json:"candidateSummary"`
	Requester                 *models.WireParticipant `json:"requester"`
	DueAt                     *string                 `json:"dueAt"`
	IsOverdue                 bool                    `json:"isOverdue"`
	CreatedAt                 string                  `json:"createdAt"`
	UpdatedAt                 string                  `json:"updatedAt"`
	AssignedAt                *string                 `json:"assignedAt"`
	CompletedAt               *string                 `json:"completedAt"`
	WorkflowDefinitionID      string                  `json:"workflowDefinitionId"`
	WorkflowDefinitionName    *string                 `json:"workflowDefinitionName"`
	WorkflowDefinitionVersion *int                    `json:"workflowDefinitionVersion"`
	WorkflowInstanceID        string                  `json:"workflowInstanceId"`
	WorkflowInstanceReference *string                 `json:"workflowInstanceReference"`
	HealthSeverity            *models.Severity        `json:"healthSeverity"`
	// HealthCode is absent for everyone but managers, and null for managers when healthy.
	HealthCode     json.RawMessage `json:"healthCode,omitempty"`
	AllowedActions []string        `json:"allowedActions"`
	Revision       int             `json:"revision"`
	// OnBehalfOf and Activity are the list's only (api_list.go), absent elsewhere.
	OnBehalfOf *models.WireParticipant `json:"onBehalfOf,omitempty"`
	Activity   *activityJSON           `json:"activity,omitempty"`
}

// summaryOf renders the safe fields of a task as its viewer may see them.
func summaryOf(v tasks.TaskView) summaryJSON {
	t := v.Task
	s := summaryJSON{
		ID:                        t.ID,
		Title:                     t.Title,
		Summary:                   text(t.Summary),
		Reference:                 text(t.Reference),
		Tags:                      nonNil(t.Tags),
		TaskType:                  text(t.TaskType),
		Status:                    t.Status,
		Priority:                  t.Priority,
		Assignee:                  t.Assignee.Wire(),
		Requester:                 t.Requester.Wire(),
		DueAt:                     timestamp(t.DueAt),
		IsOverdue:                 t.IsOverdue,
		CreatedAt:                 rfc3339(t.CreatedAt),
		UpdatedAt:                 rfc3339(t.UpdatedAt),
		AssignedAt:                timestamp(t.AssignedAt),
		CompletedAt:               timestamp(t.CompletedAt),
		WorkflowDefinitionID:      t.Workflow.DefinitionID,
		WorkflowDefinitionName:    text(t.Workflow.DefinitionName),
		WorkflowDefinitionVersion: t.Workflow.DefinitionVersion,
		WorkflowInstanceID:        t.Workflow.InstanceID,
		WorkflowInstanceReference: text(t.Workflow.InstanceReference),
		AllowedActions:            nonNil(v.AllowedActions),
		Revision:                  t.Revision,
	}
	if c := t.CandidateSummary; c.Users > 0 || c.Groups > 0 {
		s.CandidateSummary = &candidateSummaryJSON{Users: c.Users, Groups: c.Groups}
	}
	if sev := t.Health.Severity; sev != models.SeverityNone {
		s.HealthSeverity = &sev
	}
	if v.Manager {
		s.HealthCode = json.RawMessage("null")
		if t.Health.Code != "" {
			s.HealthCode, _ = json.Marshal(t.Health.Code)
		}
	}
	return s
}

// rfc3339 renders a time in UTC, RFC 3339 with the stored microseconds.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func timestamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := rfc3339(*t)
	return &s
}

// text renders an optional string: null when empty.
func text(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// nonNil makes an absent list an empty array on the wire.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
