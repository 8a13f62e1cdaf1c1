package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

// cancelTask handles POST /tasks/:id/cancel (managers): a reason is required.
func (w *web) cancelTask(c echo.Context, id string, in tasks.Common) error {
	t := catalog(c)
	form := &views.CancelForm{Command: views.Command{Action: taskHref(id) + "/cancel", Revision: in.ExpectedRevision, OperationID: in.OperationID},
		Reason: strings.TrimSpace(c.FormValue("reason")), Errors: map[string]string{}}
	if form.Reason == "" {
		form.Errors["reason"] = t.ReasonRequired
		return w.renderTask(c, id, taskState{status: http.StatusUnprocessableEntity, cancel: form})
	}
	_, err := w.tasks.Cancel(c.Request().Context(), webActor(c), id, tasks.CancelInput{Common: in, Reason: form.Reason})
	return w.manageAnswer(c, id, err, flashCancelled, func(ve *models.ValidationError) taskState {
		for _, fe := range ve.Fields {
			switch {
			case ve.Code == models.CodeCancellationDisabled:
				form.Errors["form"] = t.CancellationDisabled
			case fe.Field == "reason":
				form.Errors["reason"] = reasonError(t, ve.Code, fe)
			default:
				form.Errors["form"] = t.CheckValues
			}
		}
		form.OperationID = models.NewID()
		return taskState{cancel: form}
	})
}
