package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/forms"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

// Every POST below follows one shape: parse the form, call the service once, then
//   - success → a flash and 303 to the page (double submits carry the same operation id and
//     replay instead of acting twice);
//   - conflict (409) → the page again with a banner and a Reload link;
//   - validation (422) → the page again with the submitted values and the messages next to
//     the fields;
//   - anything else → the error page (404 for missing or invisible tasks, the same for both).

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

// claimTask handles POST /tasks/:id/claim (from the inbox row or the task page).
func (w *web) claimTask(c echo.Context) error {
	id := c.Param("id")
	in, err := webCommon(c)
	if err != nil {
		return err
	}
	res, err := w.tasks.Claim(c.Request().Context(), webActor(c), id, in)
	if err != nil {
		return w.rowActionFailed(c, id, err)
	}
	w.setFlash(c, webFlash{Key: flashClaimed, Title: res.Task.Task.Title, TaskID: id})
	return c.Redirect(http.StatusSeeOther, returnTo(c, id))
}

// releaseTask handles POST /tasks/:id/release.
func (w *web) releaseTask(c echo.Context) error {
	id := c.Param("id")
	in, err := webCommon(c)
	if err != nil {
		return err
	}
	res, err := w.tasks.Release(c.Request().Context(), webActor(c), id, tasks.ReleaseInput{Common: in, Reason: strings.TrimSpace(c.FormValue("reason"))})
	if err != nil {
		return w.rowActionFailed(c, id, err)
	}
	w.setFlash(c, webFlash{Key: flashReleased, Title: res.Task.Task.Title, TaskID: id})
	return c.Redirect(http.StatusSeeOther, returnTo(c, id))
}

// rowActionFailed answers a refused claim or release: conflicts re-render the page the button
// was on with a banner; everything else is an error page.
func (w *web) rowActionFailed(c echo.Context, id string, err error) error {
	if msg, ok := conflictMessage(catalog(c), err); ok {
		return w.renderReturn(c, returnTo(c, id), id, msg)
	}
	return err
}

// completeTask handles POST /tasks/:id/complete: the form's values become typed JSON for the
// pinned schema, and the pressed button's name="action" value="…" is the action key.
func (w *web) completeTask(c echo.Context) error {
	id := c.Param("id")
	in, err := webCommon(c)
	if err != nil {
		return err
	}
	ctx, a := c.Request().Context(), webActor(c)
	posted, err := c.FormParams()
	if err != nil {
		return errBadForm
	}
	d, err := w.tasks.Detail(ctx, a, id)
	if err != nil {
		return err
	}
	var data []byte
	if d.Form != nil {
		// An unusable schema sends no data; the service answers form-unavailable (422).
		if form, err := forms.Parse(d.Form.Schema); err == nil {
			data = form.ParseFormValues(posted)
		}
	}
	_, err = w.tasks.Complete(ctx, a, id, tasks.CompleteInput{Common: in, ActionKey: c.FormValue("action"), Data: data})
	if err == nil {
		w.setFlash(c, webFlash{Key: flashSubmitted, TaskID: id})
		return c.Redirect(http.StatusSeeOther, taskHref(id))
	}
	keep := &completeState{values: posted, revision: in.ExpectedRevision}
	if msg, ok := conflictMessage(catalog(c), err); ok {
		keep.revision = 0 // the banner says what changed; the kept input goes with the new revision
		st := taskState{status: http.StatusConflict, conflict: msg, complete: keep}
		return w.renderTask(c, id, st)
	}
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		keep.errors, keep.code = ve.Fields, ve.Code
		return w.renderTask(c, id, taskState{status: http.StatusUnprocessableEntity, complete: keep})
	}
	return err
}

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

// assignTask handles POST /tasks/:id/assign (managers).
func (w *web) assignTask(c echo.Context) error {
	id := c.Param("id")
	in, err := webCommon(c)
	if err != nil {
		return err
	}
	t := catalog(c)
	form := &views.AssignForm{Command: views.Command{Action: taskHref(id) + "/assign", Revision: in.ExpectedRevision, OperationID: models.NewID()},
		Assignee: strings.TrimSpace(c.FormValue("assignee")), Reason: strings.TrimSpace(c.FormValue("reason")), Errors: map[string]string{}}
	if form.Assignee == "" {
		form.Errors["assignee"] = t.AssigneeRequired
		return w.renderTask(c, id, taskState{status: http.StatusUnprocessableEntity, assign: form})
	}
	_, err = w.tasks.Assign(c.Request().Context(), webActor(c), id, tasks.AssignInput{Common: in, Reason: form.Reason,
		Assignee: models.ParticipantRef{Type: models.UserParticipant, ID: form.Assignee}})
	return w.manageAnswer(c, id, err, flashAssigned, func(ve *models.ValidationError) taskState {
		for _, fe := range ve.Fields {
			switch {
			case ve.Code == models.CodeExcludedAssignee:
				form.Errors["assignee"] = t.ExcludedAssignee
			case ve.Code == models.CodeCrossTenantAssignee:
				form.Errors["assignee"] = t.CrossTenantAssignee
			case fe.Field == "reason" && ve.Code == models.CodeReasonRequired:
				form.Errors["reason"] = t.ReasonRequired
			case fe.Field == "reason":
				form.Errors["reason"] = sentence(t.CancelReason, t.FieldMessage(fe.Message))
			case strings.HasPrefix(fe.Field, "assignee"):
				form.Errors["assignee"] = sentence(t.AssignUser, t.FieldMessage(fe.Message))
			default:
				form.Errors["form"] = t.CheckValues
			}
		}
		return taskState{assign: form}
	})
}

// scheduleTask handles POST /tasks/:id/schedule (managers): priority and due date (UTC).
func (w *web) scheduleTask(c echo.Context) error {
	id := c.Param("id")
	in, err := webCommon(c)
	if err != nil {
		return err
	}
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
	_, err = w.tasks.UpdateSchedule(c.Request().Context(), webActor(c), id, input)
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

// cancelTask handles POST /tasks/:id/cancel (managers): a reason is required.
func (w *web) cancelTask(c echo.Context) error {
	id := c.Param("id")
	in, err := webCommon(c)
	if err != nil {
		return err
	}
	t := catalog(c)
	form := &views.CancelForm{Command: views.Command{Action: taskHref(id) + "/cancel", Revision: in.ExpectedRevision, OperationID: in.OperationID},
		Reason: strings.TrimSpace(c.FormValue("reason")), Errors: map[string]string{}}
	if form.Reason == "" {
		form.Errors["reason"] = t.ReasonRequired
		return w.renderTask(c, id, taskState{status: http.StatusUnprocessableEntity, cancel: form})
	}
	_, err = w.tasks.Cancel(c.Request().Context(), webActor(c), id, tasks.CancelInput{Common: in, Reason: form.Reason})
	return w.manageAnswer(c, id, err, flashCancelled, func(ve *models.ValidationError) taskState {
		for _, fe := range ve.Fields {
			switch {
			case ve.Code == models.CodeCancellationDisabled:
				form.Errors["form"] = t.CancellationDisabled
			case fe.Field == "reason" && ve.Code == models.CodeReasonRequired:
				form.Errors["reason"] = t.ReasonRequired
			case fe.Field == "reason":
				form.Errors["reason"] = sentence(t.CancelReason, t.FieldMessage(fe.Message))
			default:
				form.Errors["form"] = t.CheckValues
			}
		}
		form.OperationID = models.NewID()
		return taskState{cancel: form}
	})
}

// retryResolution handles POST /tasks/:id/retry-resolution (managers).
func (w *web) retryResolution(c echo.Context) error {
	id := c.Param("id")
	in, err := webCommon(c)
	if err != nil {
		return err
	}
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
