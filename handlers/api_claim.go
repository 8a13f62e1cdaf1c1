package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/tasks"
)

// claimRequest is the body of POST /api/v1/user-tasks/:id/claim.
type claimRequest struct {
	commandFields
}

// claimTask handles POST /api/v1/user-tasks/:id/claim.
func (h *taskAPI) claimTask(c echo.Context) error {
	in, err := parseClaim(c)
	if err != nil {
		return err
	}
	res, err := h.tasks.Claim(c.Request().Context(), actorOf(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, resultOf(res))
}

func parseClaim(c echo.Context) (tasks.Common, error) {
	var req claimRequest
	if err := decodeBody(c, &req); err != nil {
		return tasks.Common{}, err
	}
	return req.common(false)
}
