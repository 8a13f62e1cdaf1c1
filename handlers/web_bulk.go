package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// Bulk actions on a manager's lists (All, Needs attention). The list's bulk form posts to
// POST /tasks/bulk, which runs tasks.Service.Bulk, keeps every item's outcome on the server
// (a note of the session: too large for a cookie, never in the URL) and redirects to
// GET /tasks/bulk/:id, the result page. A refresh shows the result again; nothing is re-sent.

// bulkNote is what POST /tasks/bulk keeps for its result page: safe fields only.
type bulkNote struct {
	Action string         `json:"action"` // one of views.BulkActions
	Return string         `json:"return"` // the list to go back to
	Items  []bulkNoteItem `json:"items"`
}

type bulkNoteItem struct {
	TaskID  string            `json:"id"`
	Title   string            `json:"title,omitempty"`
	Outcome tasks.BulkOutcome `json:"outcome"`
	Code    models.Code       `json:"code,omitempty"`
}

// bulkFormKey holds, in the echo context, a refused bulk form for renderInbox to show again.
const bulkFormKey = "usertasks.bulk-form"

// bulkPosted is a refused bulk form: the values as typed, the rows checked, the messages.
type bulkPosted struct {
	form     views.BulkForm
	selected map[string]bool
	errors   map[string]string
}

// bulkScope reports whether a list offers bulk actions.
func bulkScope(s models.Scope) bool { return s == models.ScopeAll || s == models.ScopeNeedsAttention }

// addBulkToolbar puts the bulk form on a manager's All or Needs attention list, with a refused
// form's values when there is one, and returns the status to answer with (422 for a refused
// form).
func (w *web) addBulkToolbar(c echo.Context, m *views.InboxPage, q inboxQuery, status int) int {
	if d, ok := webSession(c); !ok || !d.Manager || !bulkScope(q.scope) || len(m.Rows) == 0 {
		return status
	}
	b := &views.BulkToolbar{Return: q.href(), OperationID: models.NewID(), Form: views.BulkForm{Action: views.BulkActions[0]}}
	if w.tasks.HasDirectory() {
		b.PeopleEndpoint = participantsPath
	}
	for _, r := range m.Rows {
		b.Page = append(b.Page, views.BulkRowRef{ID: r.ID, Revision: r.Revision, Title: r.Title})
	}
	if p, ok := c.Get(bulkFormKey).(*bulkPosted); ok {
		b.Form, b.Selected, b.Errors = p.form, p.selected, p.errors
		status = http.StatusUnprocessableEntity
	}
	m.Bulk = b
	return status
}

// bulkTasks handles POST /tasks/bulk (managers).
func (w *web) bulkTasks(c echo.Context) error {
	a := webActor(c)
	if err := tasks.MayBulk(a); err != nil {
		return err
	}
	t := catalog(c)
	ret, ok := localPath(c.FormValue("return"))
	if !ok || !strings.HasPrefix(ret, "/inbox") {
		ret = "/inbox?tab=" + string(models.ScopeAll)
	}
	p := &bulkPosted{form: views.BulkForm{
		Action: c.FormValue("action"), AllPage: c.FormValue("all") != "" && !isFalseValue(c.FormValue("all")),
		Assignee: strings.TrimSpace(c.FormValue("assignee")), Priority: strings.TrimSpace(c.FormValue("priority")),
		Due: strings.TrimSpace(c.FormValue("due")), Reason: strings.TrimSpace(bulkReason(c)),
	}, selected: map[string]bool{}, errors: map[string]string{}}
	in, err := p.input(c, t)
	if err != nil {
		return err
	}
	if len(p.errors) == 0 {
		var results []tasks.BulkItemResult
		results, err = w.tasks.Bulk(c.Request().Context(), a, in)
		if err == nil {
			return w.keepBulkResult(c, p.form.Action, ret, results)
		}
		var ve *models.ValidationError
		if !errors.As(err, &ve) {
			return err
		}
		p.refused(ve, t)
	}
	c.Set(bulkFormKey, p)
	u, _ := url.Parse(ret) // localPath parsed it already
	return w.renderInbox(c, readInboxQuery(u.Query()), "")
}

// input reads the posted rows and the fields of the chosen action into the service's request;
// what the person has to fix goes to p.errors. A row value that no page of ours sends is 400.
func (p *bulkPosted) input(c echo.Context, t *i18n.Catalog) (tasks.BulkInput, error) {
	form, err := c.FormParams()
	if err != nil {
		return tasks.BulkInput{}, errBadForm
	}
	values := form["task"]
	if p.form.AllPage {
		values = form["page"]
	}
	in := tasks.BulkInput{OperationID: bulkOperationID(c.FormValue("operationId"), p.form)}
	for _, v := range values {
		rev, id, ok := strings.Cut(v, ":")
		n, err := strconv.Atoi(rev)
		if !ok || err != nil || n < 1 || id == "" {
			return tasks.BulkInput{}, errBadForm
		}
		if !p.selected[id] {
			in.Items = append(in.Items, tasks.BulkItem{TaskID: id, ExpectedRevision: n})
		}
		p.selected[id] = true
	}
	switch {
	case len(in.Items) == 0:
		p.errors["form"] = t.Bulk.NoSelection
	case len(in.Items) > tasks.MaxBulkItems:
		p.errors["form"] = t.Format(t.Bulk.TooMany, tasks.MaxBulkItems)
	}
	f := p.form
	switch f.Action {
	case "assign":
		in.Action, in.Reason = tasks.BulkAssign, f.Reason
		if f.Assignee == "" {
			p.errors["assignee"] = t.AssigneeRequired
		} else {
			in.Assignee = &models.ParticipantRef{Type: models.UserParticipant, ID: f.Assignee}
		}
	case "priority":
		in.Action = tasks.BulkSchedule
		n, err := strconv.Atoi(f.Priority)
		switch {
		case f.Priority == "":
			p.errors["priority"] = t.Bulk.PriorityRequired
		case err != nil || n < models.MinPriority || n > models.MaxPriority:
			p.errors["priority"] = t.WholeNumber0to100
		default:
			in.Priority = &n
		}
	case "reschedule":
		in.Action = tasks.BulkSchedule
		due, err := parseDatetimeLocal(f.Due, webLocation(c))
		switch {
		case f.Due == "":
			p.errors["due"] = t.Bulk.DueRequired
		case err != nil:
			p.errors["due"] = t.DueInvalid
		default:
			in.DueAt = &due
		}
	case "cancel":
		in.Action, in.Reason = tasks.BulkCancel, f.Reason
		if f.Reason == "" {
			p.errors["reason"] = t.ReasonRequired
		}
	case "retry-resolution":
		in.Action = tasks.BulkRetryResolution
	default:
		p.errors["action"] = t.InvalidChoice
	}
	return in, nil
}

// bulkReason is the reason of the chosen action: the form's assign and cancel sections each have
// their own (both are sent); a form with a single "reason" field is read as before.
func bulkReason(c echo.Context) string {
	if c.FormValue("action") == "assign" {
		if r, ok := c.Request().PostForm["assignReason"]; ok && len(r) > 0 {
			return r[0]
		}
	}
	return c.FormValue("reason")
}

// refused puts what the service refused next to the fields it came from.
func (p *bulkPosted) refused(ve *models.ValidationError, t *i18n.Catalog) {
	for _, fe := range ve.Fields {
		switch field := fe.Field; {
		case field == "priority":
			p.errors["priority"] = t.WholeNumber0to100
		case field == "dueAt":
			p.errors["due"] = t.DueInvalid
		case field == "reason" && p.form.Action == "assign":
			p.errors["assignReason"] = sentence(t.Bulk.AssignReason, t.FieldMessage(fe.Message))
		case field == "reason":
			p.errors["reason"] = sentence(t.CancelReason, t.FieldMessage(fe.Message))
		case strings.HasPrefix(field, "assignee"):
			p.errors["assignee"] = sentence(t.AssignUser, t.FieldMessage(fe.Message))
		default:
			p.errors["form"] = t.CheckValues
		}
	}
}

// bulkOperationID is the bulk request's operation id: the one the rendered form carried (a
// double submit replays), told apart by what was chosen, so that the same page sent again with
// another action or other values is a new request rather than an idempotency conflict.
func bulkOperationID(posted string, f views.BulkForm) string {
	posted = strings.TrimSpace(posted)
	if posted == "" || len(posted) > 36 || models.TextProblem(posted, models.Identifier) != "" {
		posted = models.NewID()
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{f.Action, f.Assignee, f.Priority, f.Due, f.Reason}, "\x00")))
	return posted + "." + hex.EncodeToString(sum[:8])
}

// keepBulkResult keeps the outcomes for the result page and redirects to it (Post/Redirect/Get).
func (w *web) keepBulkResult(c echo.Context, action, ret string, results []tasks.BulkItemResult) error {
	d, _ := webSession(c)
	note := bulkNote{Action: action, Return: ret, Items: make([]bulkNoteItem, len(results))}
	for i, r := range results {
		note.Items[i] = bulkNoteItem{TaskID: r.TaskID, Title: r.Title, Outcome: r.Outcome, Code: r.Code}
	}
	id, err := w.sessions.Keep(c.Request().Context(), d.Session, note)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/tasks/bulk/"+id)
}

// bulkResult handles GET /tasks/bulk/:id: the outcomes a bulk action of this session kept.
func (w *web) bulkResult(c echo.Context) error {
	if err := tasks.MayBulk(webActor(c)); err != nil {
		return err
	}
	d, _ := webSession(c)
	var note bulkNote
	if err := w.sessions.Kept(c.Request().Context(), d.Session, c.Param("id"), &note); err != nil {
		return err
	}
	m := views.BulkResultPage{Action: note.Action, BackHref: note.Return}
	m.Chrome = w.chrome(c, func(t *i18n.Catalog) string { return t.Bulk.ResultTitle })
	if p, ok := localPath(note.Return); !ok || !strings.HasPrefix(p, "/inbox") {
		m.BackHref = "/inbox"
	}
	for _, it := range note.Items {
		item := views.BulkResultItem{Outcome: string(it.Outcome), Title: it.Title}
		if it.Code != models.CodeNotFound {
			item.Href = taskHref(it.TaskID)
		}
		switch it.Outcome {
		case tasks.BulkDone:
			m.Done++
		case tasks.BulkConflict:
			m.Conflicts++
			item.Reason = m.T.Bulk.Changed
		default:
			m.Refused++
			item.Reason = m.T.Problem(it.Code)
		}
		m.Items = append(m.Items, item)
	}
	return w.render(c, http.StatusOK, views.BulkResultView(m))
}
