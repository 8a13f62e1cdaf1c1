package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/views"
)

// revealField handles POST /tasks/:id/reveal: the service records the field-revealed event,
// and the value travels to the next GET of the task page in a sealed one-time cookie
// (revealFlash), so a refresh never reveals again. From the editable form (formaction) the
// person's input in progress goes along when it fits.
func (w *web) revealField(c echo.Context) error {
	id, key := c.Param("id"), c.FormValue("reveal")
	keep := revealFlash{TaskID: id, Key: key}
	if rev, err := strconv.Atoi(c.FormValue("expectedRevision")); err == nil && rev > 0 {
		keep.Revision = rev
		keep.Values, _ = c.FormParams()
		for _, hidden := range []string{views.CSRFField, "reveal", "expectedRevision", "operationId"} {
			keep.Values.Del(hidden)
		}
	}
	value, err := w.tasks.Reveal(c.Request().Context(), webActor(c), id, key)
	var ve *models.ValidationError
	switch {
	case errors.As(err, &ve):
		st := taskState{status: http.StatusUnprocessableEntity, errMsg: catalog(c).CheckValues}
		if keep.Revision > 0 {
			st.complete = &completeState{values: keep.Values, revision: keep.Revision}
		}
		return w.renderTask(c, id, st)
	case err != nil:
		return err
	}
	text, checked, _ := valueText(value)
	if checked {
		text = "true"
	}
	keep.Value = text
	if !w.setRevealFlash(c, keep) {
		// Too large for a cookie even without the input in progress: show it on this answer.
		st := taskState{revealed: map[string]string{key: text}}
		if keep.Revision > 0 {
			st.complete = &completeState{values: keep.Values, revision: keep.Revision}
		}
		return w.renderTask(c, id, st)
	}
	return c.Redirect(http.StatusSeeOther, taskHref(id)+"#f-"+url.PathEscape(key))
}
