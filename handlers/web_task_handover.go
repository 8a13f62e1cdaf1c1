package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// Flash keys of the hand-over commands.
const (
	flashDelegated = "delegated"
	flashReturned  = "returned"
)

// delegatePrefix tells the Delegate picker's parameters and elements from the Assign picker's
// on a manager's page (views.PeoplePicker.Prefix).
const delegatePrefix = "delegate-"

// handoverState is what a task page render keeps of Delegate: its picker's search and pick
// from the URL, and a refused delegation's form.
type handoverState struct {
	people, pick string
	form         *views.DelegateForm
}

// handoverQuery reads the Delegate picker's search from the task page's URL.
func handoverQuery(c echo.Context) *handoverState {
	return &handoverState{people: c.QueryParam(delegatePrefix + "people"), pick: c.QueryParam(delegatePrefix + "pick")}
}

// addHandover names who delegated the task, offers its delegate Return, and offers Delegate
// (in the Task section) to the assignee or a manager while the task is Assigned.
func (w *web) addHandover(c echo.Context, m *views.TaskPage, v tasks.TaskView, nm namer, st taskState) {
	t, a := v.Task, webActor(c)
	href := taskHref(t.ID)
	if by := t.DelegatedBy; by != nil && t.Assignee != nil {
		m.Task.DelegatedBy, m.Task.DelegatedByMe = nm.label(*by), by.Same(a.Subject)
		if models.MayReturn(t, a) {
			m.Return = &views.ReturnForm{Command: views.Command{Action: href + "/return", Revision: t.Revision, OperationID: models.NewID()}, To: nm.label(*by)}
		}
	}
	if !models.MayDelegate(t, a) || m.Section != views.SectionTask {
		return
	}
	hs := st.handover
	if hs == nil {
		hs = &handoverState{}
	}
	f := hs.form
	if f == nil {
		f = &views.DelegateForm{Command: views.Command{Action: href + "/delegate", Revision: t.Revision, OperationID: models.NewID()}}
	}
	if w.tasks.HasDirectory() {
		p := &views.PeoplePicker{Action: href, Endpoint: participantsPath, ClearHref: href + "#delegate-heading",
			Prefix: delegatePrefix, Field: "to", Target: "delegate-to", Label: m.T.Delegation.Heading + " · " + m.T.People.SearchLabel}
		f.People = w.searchPeople(c, p, hs.people, firstNonEmpty(f.To, hs.pick))
		f.Open = f.Open || f.People.Searched
	}
	m.Delegate = f
}

// delegateTask handles POST /tasks/:id/delegate: the assignee or a manager hands the task to
// the person chosen with the picker (typed as an ID without a directory).
func (w *web) delegateTask(c echo.Context, id string, in tasks.Common) error {
	t := catalog(c)
	form := &views.DelegateForm{Command: views.Command{Action: taskHref(id) + "/delegate", Revision: in.ExpectedRevision, OperationID: models.NewID()},
		To: strings.TrimSpace(c.FormValue("to")), Reason: strings.TrimSpace(c.FormValue("reason")), Errors: map[string]string{}, Open: true}
	refused := func() taskState {
		return taskState{handover: &handoverState{form: form, people: c.FormValue(delegatePrefix + "people")}}
	}
	if form.To == "" {
		form.Errors["to"] = t.Delegation.ToRequired
		st := refused()
		st.status = http.StatusUnprocessableEntity
		return w.renderTask(c, id, st)
	}
	_, err := w.tasks.Delegate(c.Request().Context(), webActor(c), id, tasks.DelegateInput{Common: in, Reason: form.Reason,
		To: models.ParticipantRef{Type: models.UserParticipant, ID: form.To}})
	return w.manageAnswer(c, id, err, flashDelegated, func(ve *models.ValidationError) taskState {
		for _, fe := range ve.Fields {
			form.Errors[delegateField(fe)] = delegateError(t, ve.Code, fe)
		}
		if len(form.Errors) == 0 {
			form.Errors["form"] = t.CheckValues
		}
		return refused()
	})
}

// delegateField is the input a refused delegation's field error belongs to.
func delegateField(fe models.FieldError) string {
	switch {
	case fe.Field == "reason":
		return "reason"
	case strings.HasPrefix(fe.Field, "to"):
		return "to"
	}
	return "form"
}

// delegateError puts a refused delegation's field error in words.
func delegateError(t *i18n.Catalog, code models.Code, fe models.FieldError) string {
	switch {
	case code == models.CodeExcludedAssignee:
		return t.ExcludedAssignee
	case code == models.CodeCrossTenantAssignee:
		return t.CrossTenantAssignee
	case code == models.CodeUnknownParticipant:
		return t.Problem(code)
	case fe.Field == "reason":
		return reasonError(t, code, fe)
	case fe.Field != "to" && strings.HasPrefix(fe.Field, "to"):
		return sentence(t.AssignUser, t.FieldMessage(fe.Message))
	case fe.Field != "to":
		return t.CheckValues
	}
	// The transition's own words (models.Delegate) for the two refusals a picker cannot rule out.
	switch fe.Message {
	case "cannot be yourself":
		return t.Delegation.NotYourself
	case "holds the task already":
		return t.Delegation.HoldsAlready
	}
	return sentence(t.AssignUser, t.FieldMessage(fe.Message))
}

// returnTask handles POST /tasks/:id/return: the delegate gives the task back to whoever
// delegated it.
func (w *web) returnTask(c echo.Context, id string, in tasks.Common) error {
	_, err := w.tasks.Return(c.Request().Context(), webActor(c), id, tasks.ReturnInput{Common: in})
	return w.manageAnswer(c, id, err, flashReturned, func(ve *models.ValidationError) taskState {
		return taskState{errMsg: catalog(c).Problem(ve.Code)}
	})
}

// delegationFlash is the message after a delegation, a return or an Out of office change.
func delegationFlash(t *i18n.Catalog, key string) string {
	return map[string]string{
		flashDelegated:      t.Delegation.FlashDelegate,
		flashReturned:       t.Delegation.FlashReturn,
		flashAbsenceSaved:   t.Delegation.FlashSaved,
		flashAbsenceRemoved: t.Delegation.FlashRemoved,
	}[key]
}
