package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// completeTask handles POST /tasks/:id/complete: the service turns the form's values into
// typed data with the pinned form (one load of the task, one parse of its form), and the
// pressed button's name="action" value="…" is the action key. A refused form is shown again
// from the task the service loaded.
func (w *web) completeTask(c echo.Context, id string, in tasks.Common) error {
	posted, err := c.FormParams()
	if err != nil {
		return errBadForm
	}
	res, err := w.tasks.CompleteForm(c.Request().Context(), webActor(c), id,
		tasks.FormCompleteInput{Common: in, ActionKey: c.FormValue("action"), Values: posted})
	if err == nil {
		w.setFlash(c, webFlash{Key: flashSubmitted, TaskID: id})
		return c.Redirect(http.StatusSeeOther, taskHref(id))
	}
	if res.Page == nil {
		return err
	}
	keep := &completeState{values: posted, revision: in.ExpectedRevision}
	if msg, ok := conflictMessage(catalog(c), err); ok {
		keep.revision = 0 // the banner says what changed; the kept input goes with the new revision
		st := taskState{status: http.StatusConflict, conflict: msg, complete: keep}
		return w.renderDetail(c, *res.Page, st)
	}
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		keep.errors, keep.code = ve.Fields, ve.Code
		return w.renderDetail(c, *res.Page, taskState{status: http.StatusUnprocessableEntity, complete: keep})
	}
	return err
}
