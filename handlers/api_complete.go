package handlers

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// completeRequest is the body of POST /api/v1/user-tasks/:id/complete. operationId is required.
type completeRequest struct {
	commandFields
	ActionKey *string         `json:"actionKey"`
	Data      json.RawMessage `json:"data"`
}

// completeTask handles POST /api/v1/user-tasks/:id/complete: 202, the workflow acknowledges later.
func (h *taskAPI) completeTask(c echo.Context) error {
	return runCommand(c, parseComplete, h.tasks.Complete, http.StatusAccepted, resultOf)
}

func parseComplete(req completeRequest) (tasks.CompleteInput, error) {
	common, err := req.common(true)
	if err != nil {
		return tasks.CompleteInput{}, err
	}
	if req.ActionKey == nil {
		return tasks.CompleteInput{}, models.InvalidField("actionKey", "is required")
	}
	return tasks.CompleteInput{Common: common, ActionKey: *req.ActionKey, Data: req.Data}, nil
}
