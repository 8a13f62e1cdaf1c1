package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// claimTask handles POST /api/v1/user-tasks/:id/claim; the body is the command fields alone.
func (h *taskAPI) claimTask(c echo.Context) error {
	return runCommand(c, parseCommon, h.tasks.Claim, http.StatusOK, resultOf)
}
