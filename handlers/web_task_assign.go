package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

// assignTask handles POST /tasks/:id/assign (managers).
func (w *web) assignTask(c echo.Context, id string, in tasks.Common) error {
	t := catalog(c)
	form := &views.AssignForm{Command: views.Command{Action: taskHref(id) + "/assign", Revision: in.ExpectedRevision, OperationID: models.NewID()},
		Assignee: strings.TrimSpace(c.FormValue("assignee")), Reason: strings.TrimSpace(c.FormValue("reason")), Errors: map[string]string{}}
	if form.Assignee == "" {
		form.Errors["assignee"] = t.AssigneeRequired
		return w.renderTask(c, id, taskState{status: http.StatusUnprocessableEntity, assign: form, people: c.FormValue("people")})
	}
	_, err := w.tasks.Assign(c.Request().Context(), webActor(c), id, tasks.AssignInput{Common: in, Reason: form.Reason,
		Assignee: models.ParticipantRef{Type: models.UserParticipant, ID: form.Assignee}})
	return w.manageAnswer(c, id, err, flashAssigned, func(ve *models.ValidationError) taskState {
		for _, fe := range ve.Fields {
			switch {
			case ve.Code == models.CodeExcludedAssignee:
				form.Errors["assignee"] = t.ExcludedAssignee
			case ve.Code == models.CodeCrossTenantAssignee:
				form.Errors["assignee"] = t.CrossTenantAssignee
			case ve.Code == models.CodeUnknownAssignee:
				form.Errors["assignee"] = t.Problem(ve.Code)
			case fe.Field == "reason":
				form.Errors["reason"] = reasonError(t, ve.Code, fe)
			case strings.HasPrefix(fe.Field, "assignee"):
				form.Errors["assignee"] = sentence(t.AssignUser, t.FieldMessage(fe.Message))
			default:
				form.Errors["form"] = t.CheckValues
			}
		}
		return taskState{assign: form, people: c.FormValue("people")}
	})
}
