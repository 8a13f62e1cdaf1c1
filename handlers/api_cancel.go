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
	in, err := parseCancel(c)
	if err != nil {
		return err
	}
	res, err := h.tasks.Cancel(c.Request().Context(), actorOf(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, resultOf(res))
}

func parseCancel(c echo.Context) (tasks.CancelInput, error) {
	var req cancelRequest
	if err := decodeBody(c, &req); err != nil {
		return tasks.CancelInput{}, err
	}
	common, err := req.common(true)
	return tasks.CancelInput{Common: common, Reason: req.Reason}, err
}
