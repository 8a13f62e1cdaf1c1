package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/tasks"
)

// releaseRequest is the body of POST /api/v1/user-tasks/:id/release.
type releaseRequest struct {
	commandFields
	Reason string `json:"reason"`
}

// releaseTask handles POST /api/v1/user-tasks/:id/release.
func (h *taskAPI) releaseTask(c echo.Context) error {
	return runCommand(c, parseRelease, h.tasks.Release, http.StatusOK, resultOf)
}

func parseRelease(req releaseRequest) (tasks.ReleaseInput, error) {
	common, err := req.common(false)
	return tasks.ReleaseInput{Common: common, Reason: req.Reason}, err
}
