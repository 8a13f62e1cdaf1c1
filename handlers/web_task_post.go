package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views/i18n"
)

// Every task POST (web_task_*.go) follows one shape: parse the form, call the service once, then
//   - success → a flash and 303 to the page (double submits carry the same operation id and
//     replay instead of acting twice);
//   - conflict (409) → the page again with a banner and a Reload link;
//   - validation (422) → the page again with the submitted values and the messages next to
//     the fields;
//   - anything else → the error page (404 for missing or invisible tasks, the same for both).

// taskCommand is a task command handler: the task's id from the path and the hidden fields
// every command form posts (webCommon) come read.
type taskCommand func(c echo.Context, id string, in tasks.Common) error

// command reads what every command form posts before h runs; a form without a valid
// revision is refused as errBadForm.
func command(h taskCommand) echo.HandlerFunc {
	return func(c echo.Context) error {
		in, err := webCommon(c)
		if err != nil {
			return err
		}
		return h(c, c.Param("id"), in)
	}
}

// webCommon reads the hidden fields every command form posts.
func webCommon(c echo.Context) (tasks.Common, error) {
	rev, err := strconv.Atoi(c.FormValue("expectedRevision"))
	if err != nil || rev < 1 {
		return tasks.Common{}, errBadForm
	}
	op := strings.TrimSpace(c.FormValue("operationId"))
	if op == "" || len(op) > models.MaxOperationIDLength {
		op = models.NewID()
	}
	return tasks.Common{ExpectedRevision: rev, OperationID: op}, nil
}

// returnTo is where a row action goes back to: the posted local page, or the task.
func returnTo(c echo.Context, id string) string {
	if p, ok := localPath(c.FormValue("return")); ok {
		return p
	}
	return taskHref(id)
}

// rowActionFailed answers a refused claim or release: conflicts re-render the page the button
// was on with a banner; everything else is an error page.
func (w *web) rowActionFailed(c echo.Context, id string, err error) error {
	if msg, ok := conflictMessage(catalog(c), err); ok {
		return w.renderReturn(c, returnTo(c, id), id, msg)
	}
	return err
}

// manageAnswer finishes a manager command: success → flash and 303 to the task; conflict →
// the page with a reload banner (409); validation → the page with the form's messages (422).
func (w *web) manageAnswer(c echo.Context, id string, err error, flashKey string, invalid func(*models.ValidationError) taskState) error {
	if err == nil {
		w.setFlash(c, webFlash{Key: flashKey, TaskID: id})
		return c.Redirect(http.StatusSeeOther, taskHref(id))
	}
	if msg, ok := conflictMessage(catalog(c), err); ok {
		return w.renderTask(c, id, taskState{status: http.StatusConflict, conflict: msg})
	}
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		st := invalid(ve)
		st.status = http.StatusUnprocessableEntity
		return w.renderTask(c, id, st)
	}
	return err
}

// reasonError is the message next to a manager form's refused reason (assign, cancel).
func reasonError(t *i18n.Catalog, code models.Code, fe models.FieldError) string {
	if code == models.CodeReasonRequired {
		return t.ReasonRequired
	}
	return sentence(t.CancelReason, t.FieldMessage(fe.Message))
}
