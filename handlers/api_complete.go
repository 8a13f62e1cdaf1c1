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
	in, err := parseComplete(c)
	if err != nil {
		return err
	}
	res, err := h.tasks.Complete(c.Request().Context(), actorOf(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, resultOf(res))
}

func parseComplete(c echo.Context) (tasks.CompleteInput, error) {
	var req completeRequest
	if err := decodeBody(c, &req); err != nil {
		return tasks.CompleteInput{}, err
	}
	common, err := req.common(true)
	if err != nil {
		return tasks.CompleteInput{}, err
	}
	if req.ActionKey == nil {
		return tasks.CompleteInput{}, models.InvalidField("actionKey", "is required")
	}
	return tasks.CompleteInput{Common: common, ActionKey: *req.ActionKey, Data: req.Data}, nil
}
