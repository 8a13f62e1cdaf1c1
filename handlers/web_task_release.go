package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/tasks"
)

// releaseTask handles POST /tasks/:id/release.
func (w *web) releaseTask(c echo.Context, id string, in tasks.Common) error {
	res, err := w.tasks.Release(c.Request().Context(), webActor(c), id, tasks.ReleaseInput{Common: in, Reason: strings.TrimSpace(c.FormValue("reason"))})
	if err != nil {
		return w.rowActionFailed(c, id, err)
	}
	w.setFlash(c, webFlash{Key: flashReleased, Title: res.Task.Task.Title, TaskID: id})
	return c.Redirect(http.StatusSeeOther, returnTo(c, id))
}
