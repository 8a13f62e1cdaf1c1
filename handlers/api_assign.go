package handlers

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// assignRequest is the body of POST /api/v1/user-tasks/:id/assign.
type assignRequest struct {
	commandFields
	Assignee json.RawMessage `json:"assignee"`
	Reason   string          `json:"reason"`
}

// participantRequest is a participant in a request: the tenant is always the caller's, the
// provider defaults to "default" and the type may be left out where the member implies it.
type participantRequest struct {
	Type        models.ParticipantType `json:"type"`
	Provider    string                 `json:"provider"`
	ID          string                 `json:"id"`
	DisplayName string                 `json:"displayName"`
}

// assignTask handles POST /api/v1/user-tasks/:id/assign.
func (h *taskAPI) assignTask(c echo.Context) error {
	return runCommand(c, parseAssign, h.tasks.Assign, http.StatusOK, resultOf)
}

func parseAssign(req assignRequest) (tasks.AssignInput, error) {
	common, err := req.common(false)
	if err != nil {
		return tasks.AssignInput{}, err
	}
	if len(req.Assignee) == 0 || string(req.Assignee) == "null" {
		return tasks.AssignInput{}, models.InvalidField("assignee", "is required")
	}
	ref, err := parseAssignee(req.Assignee)
	if err != nil {
		return tasks.AssignInput{}, err
	}
	return tasks.AssignInput{Common: common, Assignee: ref, Reason: req.Reason}, nil
}

// parseAssignee reads a present assignee member.
func parseAssignee(raw json.RawMessage) (models.ParticipantRef, error) {
	var p participantRequest
	if err := decodeObject(raw, &p, "assignee."); err != nil {
		return models.ParticipantRef{}, err
	}
	return models.ParticipantRef{Type: p.Type, Provider: p.Provider, ID: p.ID, DisplayName: p.DisplayName}, nil
}
