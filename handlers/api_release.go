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
	in, err := parseRelease(c)
	if err != nil {
		return err
	}
	res, err := h.tasks.Release(c.Request().Context(), actorOf(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, resultOf(res))
}

func parseRelease(c echo.Context) (tasks.ReleaseInput, error) {
	var req releaseRequest
	if err := decodeBody(c, &req); err != nil {
		return tasks.ReleaseInput{}, err
	}
	common, err := req.common(false)
	return tasks.ReleaseInput{Common: common, Reason: req.Reason}, err
}
