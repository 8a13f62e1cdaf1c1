package handlers

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

// scheduleTask handles POST /tasks/:id/schedule (managers): priority and due date (UTC).
func (w *web) scheduleTask(c echo.Context, id string, in tasks.Common) error {
	t := catalog(c)
	form := &views.ScheduleForm{Command: views.Command{Action: taskHref(id) + "/schedule", Revision: in.ExpectedRevision, OperationID: models.NewID()},
		Priority: strings.TrimSpace(c.FormValue("priority")), Due: strings.TrimSpace(c.FormValue("due")),
		ClearDue: c.FormValue("clearDue") != "" && !isFalseValue(c.FormValue("clearDue")), Errors: map[string]string{}}
	input := tasks.ScheduleInput{Common: in, ClearDue: form.ClearDue}
	if form.Priority != "" {
		p, err := strconv.Atoi(form.Priority)
		if err != nil || p < models.MinPriority || p > models.MaxPriority {
			form.Errors["priority"] = t.WholeNumber0to100
		}
		input.Priority = &p
	}
	if form.Due != "" && !form.ClearDue {
		due, err := parseDatetimeLocal(form.Due, webLocation(c))
		if err != nil {
			form.Errors["due"] = t.DueInvalid
		}
		input.DueAt = &due
	}
	if len(form.Errors) > 0 {
		return w.renderTask(c, id, taskState{status: http.StatusUnprocessableEntity, schedule: form})
	}
	_, err := w.tasks.UpdateSchedule(c.Request().Context(), webActor(c), id, input)
	return w.manageAnswer(c, id, err, flashScheduled, func(ve *models.ValidationError) taskState {
		for _, fe := range ve.Fields {
			switch {
			case fe.Field == "priority":
				form.Errors["priority"] = t.WholeNumber0to100
			case fe.Field == "dueAt":
				form.Errors["due"] = t.DueInvalid
			default:
				form.Errors["form"] = t.CheckValues
			}
		}
		return taskState{schedule: form}
	})
}

// parseDatetimeLocal reads a datetime-local value in the person's zone (the one the page showed
// it in) and returns it in UTC.
func parseDatetimeLocal(s string, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{datetimeLocal, datetimeLocal + ":05", time.RFC3339} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errBadForm
}
