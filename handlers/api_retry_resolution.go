package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// retryResolution handles POST /api/v1/user-tasks/:id/retry-resolution: 202; the body is the
// command fields alone.
func (h *taskAPI) retryResolution(c echo.Context) error {
	return runCommand(c, parseCommon, h.tasks.RetryResolution, http.StatusAccepted, resultOf)
}
