package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/tasks"
)

// cancelRequest is the body of POST /api/v1/user-tasks/:id/cancel. operationId is required; a
// missing reason is the service's reason-required.
type cancelRequest struct {
	commandFields
	Reason string `json:"reason"`
}

// cancelTask handles POST /api/v1/user-tasks/:id/cancel: 202, the workflow acknowledges later.
func (h *taskAPI) cancelTask(c echo.Context) error {
	return runCommand(c, parseCancel, h.tasks.Cancel, http.StatusAccepted, resultOf)
}

func parseCancel(req cancelRequest) (tasks.CancelInput, error) {
	common, err := req.common(true)
	return tasks.CancelInput{Common: common, Reason: req.Reason}, err
}
