package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/forms"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// historyPageSize is how many events the History section shows at once.
const historyPageSize = 50

// datetimeLocal is the format of <input type="datetime-local"> (UTC on these pages).
const datetimeLocal = "2006-01-02T15:04"

// taskState is what a task page render keeps from the request: the section, and after a
// refused post the submitted values, messages and banners.
type taskState struct {
	status   int
	section  views.Section
	events   string // history cursor
	people   string // the people picker's search
	pick     string // the person chosen from the picker's suggestions (their id)
	conflict string
	// conflictCode is a conflict of a refused completion, put in words by the page;
	// closedMeanwhile says the task closed before the completion arrived (web_task_complete_note.go).
	conflictCode    models.Code
	closedMeanwhile bool
	errMsg          string
	complete        *completeState
	revealed        map[string]string
	assign          *views.AssignForm
	schedule        *views.ScheduleForm
	retry           *views.RetryForm
	cancel          *views.CancelForm
	invite          *invitationState // web_task_invitations.go
	activity        *activityState   // web_task_activity.go
	handover        *handoverState   // web_task_handover.go
}

// completeState is a refused completion form: the values as posted, the revision the person
// saw, and the messages by field key (untranslated; the page translates them).
type completeState struct {
	values   url.Values
	revision int
	errors   []models.FieldError
	code     models.Code
}

// taskPage handles GET /tasks/:id.
func (w *web) taskPage(c echo.Context) error {
	id := c.Param("id")
	st := taskState{}
	if n, ok := w.takeCompleteNote(c, id); ok {
		st = n.state()
	}
	st.section, st.events, st.people = views.Section(c.QueryParam("tab")), c.QueryParam("events"), c.QueryParam("people")
	st.pick = c.QueryParam("pick")
	st.handover = handoverQuery(c)
	if f, ok := w.takeRevealFlash(c, id); ok {
		st.revealed = map[string]string{f.Key: f.Value}
		if f.Revision > 0 {
			st.complete = &completeState{values: f.Values, revision: f.Revision}
		}
	}
	return w.renderTask(c, id, st)
}

// renderTask loads the task as the caller may see it and renders its page.
func (w *web) renderTask(c echo.Context, id string, st taskState) error {
	d, err := w.tasks.Detail(c.Request().Context(), webActor(c), id)
	if err != nil {
		return err
	}
	return w.renderDetail(c, d, st)
}

// renderDetail renders the page of a task the service answered with.
func (w *web) renderDetail(c echo.Context, d tasks.Detail, st taskState) error {
	ctx, a := c.Request().Context(), webActor(c)
	t, v := d.Task, d.TaskView
	m := views.TaskPage{Protected: v.Disclosure.CanViewProtected}
	m.Chrome = w.chrome(c, func(*i18n.Catalog) string { return t.Title })
	flash, _ := w.takeFlash(c)
	now := w.now()
	nm, err := w.taskNamer(ctx, a, m.T, t.ID, taskParticipants(t, v.Manager))
	if err != nil {
		return err
	}

	m.Task = views.TaskHeader{
		ID: t.ID, Href: taskHref(t.ID), Title: t.Title, TaskType: t.TaskType, Summary: t.Summary, Reference: t.Reference,
		Tags: t.Tags, Status: t.Status, Priority: t.Priority, Due: t.DueAt, Overdue: t.OverdueAt(now),
		Mine: t.IsAssignee(a.Subject), Created: t.CreatedAt, Updated: t.UpdatedAt, Assigned: t.AssignedAt,
		Completed: t.CompletedAt, Revision: t.Revision, Users: t.CandidateSummary.Users, Groups: t.CandidateSummary.Groups,
		WorkflowRef: firstNonEmpty(t.Workflow.DefinitionName, t.Workflow.DefinitionID),
	}
	if t.Assignee != nil {
		m.Task.Assignee = nm.label(*t.Assignee)
	}
	if t.Requester != nil {
		m.Task.Requester = nm.label(*t.Requester)
	}
	if t.Outcome.ActionKey != "" {
		m.Task.OutcomeKey = actionLabel(m.T, t, t.Outcome.ActionKey)
		m.Task.OutcomeBy = m.T.SystemActor
		if by := t.Outcome.CompletedBy; by != nil {
			m.Task.OutcomeBy = nm.label(*by)
		}
	}
	switch {
	case st.closedMeanwhile:
		// staleConflict (below) says who closed it and when.
		st.conflict = closedMessage(m.T, t)
	case st.conflictCode != "":
		st.conflict = m.T.Problem(st.conflictCode)
	}
	if v.Manager && t.Health.Severity != models.SeverityNone {
		m.Task.Health = &views.Health{Blocking: t.Health.Blocking(), Code: t.Health.Code, Form: formTrouble(t)}
	}

	allowed := func(act string) bool { return slices.Contains(v.AllowedActions, act) }
	if allowed(models.ActClaim) {
		m.Claim = &views.Command{Action: m.Task.Href + "/claim", Revision: t.Revision, OperationID: models.NewID()}
	}
	if allowed(models.ActRelease) {
		m.Release = &views.Command{Action: m.Task.Href + "/release", Revision: t.Revision, OperationID: models.NewID()}
	}
	m.Banners = taskBanners(m.T, v, st, flash)

	// Sections: Task always; Workflow and History only when disclosed.
	sections := []views.Section{views.SectionTask}
	if v.Disclosure.CanViewWorkflow {
		sections = append(sections, views.SectionWorkflow)
	}
	if v.Disclosure.CanViewHistory {
		sections = append(sections, views.SectionHistory)
	}
	m.Section = views.SectionTask
	if slices.Contains(sections, st.section) {
		m.Section = st.section
	}
	if len(sections) > 1 {
		labels := map[views.Section]string{views.SectionTask: m.T.SectionTask, views.SectionWorkflow: m.T.SectionWorkflow, views.SectionHistory: m.T.SectionHistory}
		for _, s := range sections {
			href := m.Task.Href
			if s != views.SectionTask {
				href += "?tab=" + string(s)
			}
			m.Tabs = append(m.Tabs, views.Tab{Key: string(s), Label: labels[s], Href: href, Current: s == m.Section})
		}
	}

	switch m.Section {
	case views.SectionWorkflow:
		m.Workflow = &views.WorkflowInfo{
			DefinitionID: t.Workflow.DefinitionID, DefinitionName: t.Workflow.DefinitionName, Version: t.Workflow.DefinitionVersion,
			InstanceID: t.Workflow.InstanceID, InstanceReference: t.Workflow.InstanceReference,
			ActivityInstanceID: t.Workflow.ActivityInstanceID, BookmarkID: t.Workflow.BookmarkID,
			Snapshot: t.Assignment.Mode == models.MembershipSnapshot,
		}
	case views.SectionHistory:
		evs, err := w.tasks.Events(ctx, a, t.ID, st.events, historyPageSize)
		if err != nil {
			return err
		}
		m.History = &views.History{}
		en, err := w.taskNamer(ctx, a, m.T, t.ID, eventParticipants(evs.Items))
		if err != nil {
			return err
		}
		for _, e := range evs.Items {
			row := views.EventRow{Type: e.Type, At: e.OccurredAt, Reason: e.Reason, Revision: e.Revision, Summary: en.eventSummary(e)}
			if e.Actor != nil {
				row.Actor = en.label(*e.Actor)
			}
			m.History.Events = append(m.History.Events, row)
		}
		if evs.NextCursor != "" {
			m.History.NextHref = m.Task.Href + "?tab=history&events=" + url.QueryEscape(evs.NextCursor)
		}
		if st.events != "" {
			m.History.FirstHref = m.Task.Href + "?tab=history"
		}
	default:
		m.Deadlines = deadlineRows(m.T, d.Deadlines)
		if m.Protected {
			m.Instructions = views.ParseMarkdown(ctx, t.Protected.Instructions)
			m.Form = taskForm(m.Clock(), d, st)
		}
	}
	if b := m.Banners.Conflict; b != nil {
		kept := st.complete != nil && m.Form != nil && m.Form.Editable
		b.Message = staleConflict(m.Clock(), nm, a, t, b.Message, kept)
		if !t.Status.IsOpen() {
			b.ReloadHref = "" // the page shows the task as it is now: nothing to reload
		}
	}
	if v.Manager {
		m.Manage = managePanel(m.T, m.Location, v, st)
	}
	if m.Manage != nil {
		m.Manage.FindPeople = w.tasks.HasDirectory()
		m.Manage.Candidates = candidateList(nm, t)
		if f := m.Manage.Assign; f != nil {
			f.People = w.peoplePicker(c, t.ID, m.Section, st.people, firstNonEmpty(f.Assignee, st.pick))
		}
	}
	w.addHandover(c, &m, v, nm, st)
	if err := w.addInvitations(c, &m, v, st); err != nil {
		return err
	}
	if m.Section == views.SectionTask {
		if err := w.addActivity(c, &m, v, st); err != nil {
			return err
		}
	}
	status := st.status
	if status == 0 {
		status = http.StatusOK
	}
	return w.render(c, status, views.TaskView(m))
}

// closedMessage is the refusal of a completion that arrived after the task closed, as its
// problem code says it; staleConflict replaces it with who closed the task and when.
func closedMessage(t *i18n.Catalog, task models.Task) string {
	switch {
	case task.Status.IsTransitional():
		return t.Problem(models.CodeTransitionInProgress)
	}
	return t.Problem(models.CodeTerminal)
}

// taskBanners chooses the banners above the task.
func taskBanners(t *i18n.Catalog, v tasks.TaskView, st taskState, flash webFlash) views.Banners {
	var b views.Banners
	task := v.Task
	if st.conflict != "" {
		b.Conflict = &views.Conflict{Message: st.conflict, ReloadHref: taskHref(task.ID)}
	}
	b.Error = st.errMsg
	switch {
	case flash.Key == flashSubmitted && flash.TaskID == task.ID, task.Status == models.StatusCompleting:
		b.Accepted = t.AcceptedBanner
	case task.Status == models.StatusCancelling:
		b.Accepted = t.CancellingBanner
	case task.Status == models.StatusTimingOut:
		b.Accepted = t.TimingOutBanner
	}
	if task.Status.IsTerminal() {
		b.Closed = t.Format(t.ClosedBanner, t.Status(task.Status))
	}
	if task.Status.IsOpen() && !slices.Contains(v.AllowedActions, models.ActComplete) {
		switch {
		case slices.Contains(v.AllowedActions, models.ActClaim):
			b.ReadOnly = t.ReadOnlyCandidate
		case v.Manager:
			b.ReadOnly = t.ReadOnlyManager
		default:
			b.ReadOnly = t.ReadOnlyOther
		}
	}
	return b
}

// taskForm builds the completion form (editable for the assignee) or the read-only values.
func taskForm(clock views.Clock, d tasks.Detail, st taskState) *views.TaskForm {
	t := clock.T
	editable := slices.Contains(d.AllowedActions, models.ActComplete)
	if d.Form == nil && !editable {
		return nil
	}
	href := taskHref(d.Task.ID)
	f := &views.TaskForm{
		Command:  views.Command{Action: href + "/complete", Revision: d.Task.Revision, OperationID: models.NewID()},
		Editable: editable, HasSchema: d.Form != nil,
	}
	if editable {
		for _, a := range d.Task.Actions {
			f.Actions = append(f.Actions, views.ActionButton{Key: a.Key, Label: actionLabel(t, d.Task, a.Key)})
		}
	}
	posted := st.complete
	if posted != nil && editable && posted.revision > 0 {
		f.Revision = posted.revision // a refused form keeps the revision the person saw
	}
	used := map[string]bool{}
	if d.Form != nil {
		for _, fv := range d.Form.Fields {
			fl := formField(clock, fv, st.revealed, posted, editable)
			if posted != nil {
				for _, fe := range posted.errors {
					if fe.Field == fv.Key && fl.Error == "" {
						fl.Error = sentence(fl.Label, t.FieldMessage(fe.Message))
						used[fe.Field] = true
					}
				}
			}
			if fv.Masked {
				f.RevealAction = href + "/reveal"
			}
			f.Fields = append(f.Fields, fl)
		}
	}
	if posted != nil {
		switch {
		case len(used) > 0:
			f.Error = t.FormHasErrors
		case posted.code == models.CodeFormInvalid:
			f.Error = t.CheckValues // no field of the form is marked: the data as a whole was refused
		case posted.code != "":
			f.Error = t.Problem(posted.code)
		}
	}
	return f
}

// formField is one field with its value: the posted one after a refused post, a revealed one,
// or the task's (masked values are never sent by the service).
func formField(clock views.Clock, fv tasks.FieldView, revealed map[string]string, posted *completeState, editable bool) views.Field {
	fl := views.Field{
		Key: fv.Key, ID: "f-" + fv.Key, Label: fv.Label, Type: fv.Type, Help: fv.Help, Format: fv.FormatHint,
		Required: fv.Required, Masked: fv.Masked,
	}
	if fv.Min != nil {
		fl.Min = strconv.FormatFloat(*fv.Min, 'f', -1, 64)
	}
	if fv.Max != nil {
		fl.Max = strconv.FormatFloat(*fv.Max, 'f', -1, 64)
	}
	switch fv.Type {
	case forms.TypeInteger:
		fl.Step = "1"
	case forms.TypeNumber:
		fl.Step = "any"
	}
	if fv.MinLength != nil {
		fl.MinLength = strconv.Itoa(*fv.MinLength)
	}
	if fv.MaxLength != nil {
		fl.MaxLength = strconv.Itoa(*fv.MaxLength)
	}

	var value string
	var checked, has bool
	switch {
	case posted != nil && editable:
		vs, present := posted.values[fv.Key]
		if fv.Type == forms.TypeCheckbox {
			checked = present && len(vs) > 0 && !isFalseValue(vs[0])
		} else if present && len(vs) > 0 {
			value = vs[0]
		}
		has = value != ""
		if rv, ok := revealed[fv.Key]; ok && value == "" {
			value, has, fl.Revealed = rv, rv != "", true
		}
		// A replacement the person typed does not reveal the stored value: the field still says
		// its value is hidden, next to the hint that leaving it empty keeps it.
	default:
		raw := fv.Value
		if rv, ok := revealed[fv.Key]; ok {
			raw, fl.Revealed = rv, true
		}
		value, checked, has = valueText(raw)
	}
	if (fv.Type == forms.TypeNumber || fv.Type == forms.TypeInteger) && value != "" {
		_, err := strconv.ParseFloat(value, 64)
		fl.AsText = err != nil
	}
	if fv.Type == forms.TypeDateTime && value != "" {
		if ts, err := time.Parse(time.RFC3339, value); err == nil {
			value = ts.UTC().Format(datetimeLocal)
			fl.Display = clock.Absolute(ts)
		}
	}
	fl.Value, fl.Checked, fl.HasValue = value, checked, has
	for i, o := range fv.Options {
		label := o
		if i < len(fv.OptionTitles) {
			label = fv.OptionTitles[i] // the title people read; the const is what is submitted
		}
		fl.Options = append(fl.Options, views.Option{Value: o, Label: label, Selected: o == value})
	}
	return fl
}

// valueText renders a form value (string, json.Number, bool or nil) for an input.
func valueText(v any) (text string, checked, has bool) {
	switch x := v.(type) {
	case nil:
		return "", false, false
	case string:
		return x, false, x != ""
	case bool:
		return "", x, true
	case json.Number:
		return x.String(), false, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), false, true
	}
	s := fmt.Sprint(v)
	return s, false, s != ""
}

// managePanel builds the manager's forms for the commands allowed now.
func managePanel(t *i18n.Catalog, loc *time.Location, v tasks.TaskView, st taskState) *views.ManagePanel {
	task := v.Task
	href := taskHref(task.ID)
	cmd := func(path string) views.Command {
		return views.Command{Action: href + path, Revision: task.Revision, OperationID: models.NewID()}
	}
	allowed := func(act string) bool { return slices.Contains(v.AllowedActions, act) }
	p := &views.ManagePanel{}
	if allowed(models.ActAssign) {
		p.Assign = &views.AssignForm{Command: cmd("/assign")}
		if st.assign != nil {
			p.Assign = st.assign
		}
	}
	if allowed(models.ActUpdateScheduling) {
		p.Schedule = &views.ScheduleForm{Command: cmd("/schedule"), Priority: strconv.Itoa(task.Priority)}
		if task.DueAt != nil {
			p.Schedule.Due = task.DueAt.In(loc).Format(datetimeLocal)
		}
		if st.schedule != nil {
			p.Schedule = st.schedule
		}
	}
	if allowed(models.ActRetryResolution) {
		p.Retry = &views.RetryForm{Command: cmd("/retry-resolution")}
		if st.retry != nil {
			p.Retry = st.retry
		}
	}
	if allowed(models.ActCancel) {
		p.Cancel = &views.CancelForm{Command: cmd("/cancel")}
		if st.cancel != nil {
			p.Cancel = st.cancel
		}
	}
	if p.Assign == nil && p.Schedule == nil && p.Retry == nil && p.Cancel == nil {
		return nil
	}
	return p
}

// actionLabel names an action key in the page's language: a workflow's own label as it is;
// the default action (a task whose workflow declared none) and the reserved outcomes of
// timeouts and cancellations in the catalogue's words. A workflow that declares exactly the
// default action looks the same and is translated too, which says the same thing.
func actionLabel(t *i18n.Catalog, task models.Task, key string) string {
	switch {
	case key == models.ActionTimeout:
		return t.Status(models.StatusTimedOut)
	case key == models.ActionCancelled:
		return t.Status(models.StatusCancelled)
	case key == models.ActionComplete && slices.Equal(task.Actions, models.DefaultActions()):
		return t.DefaultAction
	}
	if a, ok := task.FindAction(key); ok {
		return firstNonEmpty(a.Label, a.Key)
	}
	return key
}

// sentence joins a field label and a short message: "Decision is required."
func sentence(label, msg string) string {
	msg = strings.TrimSuffix(msg, ".")
	if label == "" {
		return msg + "."
	}
	return label + " " + msg + "."
}

func isFalseValue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "off", "0":
		return true
	}
	return false
}
