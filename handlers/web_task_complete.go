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
// pressed button's name="action" value="…" is the action key.
//
// Every answer is a 303 to the task page (Post/Redirect/Get), a refused form included: the
// submitted values and the messages are kept on the server in a note of the session
// (web_task_complete_note.go), which the next task page shows once. Back, Reload and a bookmark
// of the result then behave like any other page, and nothing asks to post the form again.
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
	note := completeNote{TaskID: id}
	var ve *models.ValidationError
	var ce *models.ConflictError
	switch {
	case !res.Page.Task.Status.IsOpen():
		// The task left its open states meanwhile (completed in another tab or by someone
		// else, cancelled, timed out): that is the answer, whatever else the form had wrong.
		note.Closed = true
	case errors.As(err, &ce):
		note.Conflict = ce.Code // the banner says what changed; the kept input goes with the new revision
		note.keepInput(w, res.Page, posted)
	case errors.As(err, &ve):
		note.Revision = in.ExpectedRevision // a refused form keeps the revision the person saw
		note.Errors, note.Code = ve.Fields, ve.Code
		note.keepInput(w, res.Page, posted)
	default:
		return err
	}
	if err := w.keepCompleteNote(c, note); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, taskHref(id))
}

// completeForm handles GET /tasks/:id/complete: there is no such page (the form is on the
// task page), so a typed or bookmarked address, or a browser re-requesting the URL of a
// post, goes to the task: a task the caller may see, else the same 404 as its page.
func (w *web) completeForm(c echo.Context) error {
	id := c.Param("id")
	if _, err := w.tasks.Detail(c.Request().Context(), webActor(c), id); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, taskHref(id))
}
