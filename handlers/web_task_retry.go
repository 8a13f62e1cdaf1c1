package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

// retryResolution handles POST /tasks/:id/retry-resolution (managers).
func (w *web) retryResolution(c echo.Context, id string, in tasks.Common) error {
	res, err := w.tasks.RetryResolution(c.Request().Context(), webActor(c), id, in)
	if err == nil {
		// Say what the retry achieved: a retry that leaves the task blocked is no success.
		w.setFlash(c, retryFlash(id, res.Task.Task.Health))
		return c.Redirect(http.StatusSeeOther, taskHref(id))
	}
	return w.manageAnswer(c, id, err, flashRetried, func(*models.ValidationError) taskState {
		return taskState{retry: &views.RetryForm{Command: views.Command{Action: taskHref(id) + "/retry-resolution",
			Revision: in.ExpectedRevision, OperationID: models.NewID()}, Error: catalog(c).CheckValues}}
	})
}
