package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/tasks"
)

// claimTask handles POST /tasks/:id/claim (from the inbox row or the task page).
func (w *web) claimTask(c echo.Context, id string, in tasks.Common) error {
	res, err := w.tasks.Claim(c.Request().Context(), webActor(c), id, in)
	if err != nil {
		return w.rowActionFailed(c, id, err)
	}
	w.setFlash(c, webFlash{Key: flashClaimed, Title: res.Task.Task.Title, TaskID: id})
	return c.Redirect(http.StatusSeeOther, returnTo(c, id))
}
