package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/tasks"
)

// retryResolutionRequest is the body of POST /api/v1/user-tasks/:id/retry-resolution.
type retryResolutionRequest struct {
	commandFields
}

// retryResolution handles POST /api/v1/user-tasks/:id/retry-resolution: 202.
func (h *taskAPI) retryResolution(c echo.Context) error {
	in, err := parseRetryResolution(c)
	if err != nil {
		return err
	}
	res, err := h.tasks.RetryResolution(c.Request().Context(), actorOf(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, resultOf(res))
}

func parseRetryResolution(c echo.Context) (tasks.Common, error) {
	var req retryResolutionRequest
	if err := decodeBody(c, &req); err != nil {
		return tasks.Common{}, err
	}
	return req.common(false)
}
