package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/views"
	"usertasks/views/i18n"
	"usertasks/workflow"
)

// The managers' default deadline pages (issue 30 item 4): the list of workflow definitions
// with their defaults, and a page per definition with a no-JS form (the deadlines as JSON,
// exactly as a projection sends them), the delete form and the audit. Anyone but a manager
// gets the 403 page, as on /manage.

const (
	flashPolicySaved   = "policy-saved"
	flashPolicyDeleted = "policy-deleted"
	policiesPath       = "/manage/deadline-policies"
	// policyQueryPath addresses a definition by ?id= for the ids a path segment cannot carry.
	policyQueryPath = policiesPath + "/definition"
)

// policyExample is the worked example under the form.
const policyExample = `[
  {
    "kind": "start",
    "after": "PT4H",
    "actions": [
      {"type": "reassign", "candidateGroups": [{"id": "team-leads"}]},
      {"type": "notify", "to": "managers"}
    ]
  },
  {
    "kind": "completion",
    "after": "P2D",
    "actions": [
      {"type": "set-priority", "priority": 90},
      {"type": "flag"}
    ]
  }
]`

// registerPolicyPages adds the default deadline pages.
func (w *web) registerPolicyPages(e *echo.Echo, signedIn, posted []echo.MiddlewareFunc) {
	e.GET(policiesPath, w.policyList, signedIn...)
	for _, path := range []string{policiesPath + "/:id", policyQueryPath} {
		e.GET(path, w.policyPage, signedIn...)
		e.POST(path, w.savePolicy, posted...)
		e.POST(path+"/delete", w.deletePolicy, posted...)
	}
}

// policyHref is a definition's page; the id is one path segment, whatever it holds, except
// where the segment would not survive: a browser resolves "." and ".." (escaped or not) as
// dot segments before sending the request, and the segment "definition" is the query form's
// own path. Those ids go in the query (policyQueryPath).
func policyHref(id string) string {
	if queryAddressed(id) {
		return policyQueryPath + "?id=" + url.QueryEscape(id)
	}
	return policiesPath + "/" + url.PathEscape(id)
}

// policyDeleteHref is the delete form's action of a definition's page.
func policyDeleteHref(id string) string {
	if queryAddressed(id) {
		return policyQueryPath + "/delete?id=" + url.QueryEscape(id)
	}
	return policyHref(id) + "/delete"
}

func queryAddressed(id string) bool { return id == "." || id == ".." || id == "definition" }

// policyID is the definition a policy page or form is for: the path segment, or ?id= on the
// query form.
func policyID(c echo.Context) string {
	if strings.HasPrefix(c.Path(), policyQueryPath) {
		return c.QueryParam("id")
	}
	return definitionParam(c)
}

func policyFlash(t *i18n.Catalog, key string) string {
	switch key {
	case flashPolicySaved:
		return t.Policies.FlashSaved
	case flashPolicyDeleted:
		return t.Policies.FlashDeleted
	}
	return ""
}

// policyList handles GET /manage/deadline-policies; with ?definition= it opens that
// definition's page (a definition without tasks yet), or says why the id cannot be one.
func (w *web) policyList(c echo.Context) error {
	a := webActor(c)
	defs, err := w.policies.Definitions(c.Request().Context(), a)
	if err != nil {
		return err
	}
	ch := w.chrome(c, func(t *i18n.Catalog) string { return t.Policies.Title })
	m := views.PolicyListPage{Chrome: ch}
	status := http.StatusOK
	if other, ok := c.QueryParams()["definition"]; ok {
		id := ""
		if len(other) > 0 {
			id = other[0]
		}
		bad := models.CheckDefinitionID(id)
		if bad == nil {
			return c.Redirect(http.StatusSeeOther, policyHref(id))
		}
		m.OtherValue, m.OtherError, status = id, fieldMessages(ch.T, bad), http.StatusUnprocessableEntity
	}
	clock := ch.Clock()
	for _, d := range defs {
		row := views.PolicyListRow{Name: firstNonEmpty(d.Name, d.ID), Href: policyHref(d.ID)}
		if d.Name != "" && d.Name != d.ID {
			row.ID = d.ID
		}
		if p := d.Policy; p != nil {
			row.Lines = policyLines(ch, p.Deadlines)
			row.Changed = personName(p.ChangedBy) + ", " + clock.Absolute(p.UpdatedAt)
		}
		m.Rows = append(m.Rows, row)
	}
	return w.render(c, status, views.PolicyListView(m))
}

// policyForm is what a refused post shows again.
type policyForm struct {
	text     string
	errors   []string
	conflict bool
}

// policyPage handles GET /manage/deadline-policies/:id.
func (w *web) policyPage(c echo.Context) error {
	return w.renderPolicyPage(c, http.StatusOK, policyID(c), nil)
}

// renderPolicyPage renders the definition's page, with a refused post's text and messages
// when form is set. The service is asked first, so anyone but a manager gets the 403 page.
func (w *web) renderPolicyPage(c echo.Context, status int, id string, form *policyForm) error {
	ctx, a := c.Request().Context(), webActor(c)
	p, err := w.policies.Policy(ctx, a, id)
	switch {
	case errors.Is(err, models.ErrNotFound):
		p = models.DeadlinePolicy{}
	case err != nil:
		return err
	}
	if models.CheckDefinitionID(id) != nil {
		return models.ErrNotFound
	}
	audit, err := w.policies.Audit(ctx, a, id)
	if err != nil {
		return err
	}
	ch := w.chrome(c, func(t *i18n.Catalog) string { return t.Format(t.Policies.EditTitle, id) })
	clock := ch.Clock()
	m := views.PolicyEditPage{Chrome: ch, Name: id, DefinitionID: id, Action: policyHref(id), DeleteAction: policyDeleteHref(id),
		Revision: p.Revision, Lines: policyLines(ch, p.Deadlines), Example: policyExample}
	if p.Revision > 0 {
		m.Changed = ch.T.Format(ch.T.Policies.ChangedBy, strconv.Itoa(p.Revision), personName(p.ChangedBy), clock.Absolute(p.UpdatedAt))
		if raw, err := json.MarshalIndent(workflow.DeadlineSpecs(p.Deadlines), "", "  "); err == nil {
			m.JSON = string(raw)
		}
	}
	if form != nil {
		m.JSON, m.Errors, m.Conflict = form.text, form.errors, form.conflict
	}
	for _, e := range audit {
		row := views.PolicyAuditRow{Revision: strconv.Itoa(e.Revision), What: ch.T.Policies.AuditPut, Who: personName(e.Actor),
			When: clock.Absolute(e.At), Machine: clock.Machine(e.At)}
		if e.Action == models.DeadlinePolicyDelete {
			row.What = ch.T.Policies.AuditDelete
		}
		m.Audit = append(m.Audit, row)
	}
	return w.render(c, status, views.PolicyEditView(m))
}

// savePolicy handles POST /manage/deadline-policies/:id: the textarea's deadlines as the
// policy, expecting the revision the page showed. Refusals show the page again with the text
// (422 for the deadlines, 409 when someone changed the policy meanwhile); success redirects
// to the page with a flash.
func (w *web) savePolicy(c echo.Context) error {
	id := policyID(c)
	text := c.FormValue("deadlines")
	form := &policyForm{text: text}
	if models.CheckDefinitionID(id) != nil {
		return w.renderPolicyPage(c, http.StatusNotFound, id, form)
	}
	t := catalog(c)
	expected, rerr := formRevision(c)
	specs, ferr := parseDeadlineSpecs(json.RawMessage(text))
	switch {
	case rerr != nil:
		form.errors = []string{"expectedRevision: " + t.FieldMessage(rerr.Error())}
	case ferr != nil:
		form.errors = []string{t.Policies.InvalidJSON}
	}
	if len(form.errors) > 0 {
		return w.renderPolicyPage(c, http.StatusUnprocessableEntity, id, form)
	}
	_, err := w.policies.Put(c.Request().Context(), webActor(c), id, workflow.DeadlineDefinitions(specs), expected)
	var invalid *models.ValidationError
	switch {
	case errors.As(err, &invalid):
		for _, f := range invalid.Fields {
			form.errors = append(form.errors, f.Field+": "+t.FieldMessage(f.Message))
		}
		return w.renderPolicyPage(c, http.StatusUnprocessableEntity, id, form)
	case models.ErrorCode(err) == models.CodeRevisionConflict:
		form.conflict = true
		return w.renderPolicyPage(c, http.StatusConflict, id, form)
	case err != nil:
		return err
	}
	w.setFlash(c, webFlash{Key: flashPolicySaved})
	return c.Redirect(http.StatusSeeOther, policyHref(id))
}

// deletePolicy handles POST /manage/deadline-policies/:id/delete, expecting the revision the
// page showed; a policy changed or removed meanwhile shows the page again (409).
func (w *web) deletePolicy(c echo.Context) error {
	id := policyID(c)
	if models.CheckDefinitionID(id) != nil {
		return w.renderPolicyPage(c, http.StatusNotFound, id, nil)
	}
	expected, rerr := formRevision(c)
	if rerr != nil || expected == 0 {
		// The form always names the revision it showed; without one nothing is removed.
		return w.renderPolicyPage(c, http.StatusConflict, id, &policyForm{conflict: true})
	}
	err := w.policies.Delete(c.Request().Context(), webActor(c), id, expected)
	switch {
	case errors.Is(err, models.ErrNotFound) || models.ErrorCode(err) == models.CodeRevisionConflict:
		return w.renderPolicyPage(c, http.StatusConflict, id, &policyForm{conflict: true})
	case err != nil:
		return err
	}
	w.setFlash(c, webFlash{Key: flashPolicyDeleted})
	return c.Redirect(http.StatusSeeOther, policiesPath)
}

// formRevision reads the form's expectedRevision (0: the page showed no policy).
func formRevision(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.FormValue("expectedRevision"))
	if err != nil || n < 0 {
		return 0, errors.New("must be a whole number")
	}
	return n, nil
}

// policyLines puts a policy's deadlines in words: kind and when, one line per action (counts
// of participants, never their names, as the task page does).
func policyLines(ch views.Chrome, defs []models.DeadlineDefinition) []views.PolicyLine {
	t, clock := ch.T, ch.Clock()
	out := make([]views.PolicyLine, 0, len(defs))
	for _, d := range defs {
		when := t.Format(t.Policies.After, d.After)
		if d.At != "" {
			when = t.Format(t.Policies.At, d.At)
			if at, err := time.Parse(time.RFC3339Nano, d.At); err == nil {
				when = t.Format(t.Policies.At, clock.Absolute(at))
			}
		}
		line := views.PolicyLine{When: t.DeadlineKind(d.Kind) + " · " + when}
		for _, a := range d.Actions {
			line.Actions = append(line.Actions, t.DeadlineAction(d.Kind, a))
		}
		out = append(out, line)
	}
	return out
}

// personName is how a page names who changed a policy: the recorded name, else the id.
func personName(p models.ParticipantRef) string { return firstNonEmpty(p.DisplayName, p.ID) }

// fieldMessages is a validation error's messages in the page's language.
func fieldMessages(t *i18n.Catalog, err error) string {
	var invalid *models.ValidationError
	if !errors.As(err, &invalid) || len(invalid.Fields) == 0 {
		return err.Error()
	}
	return t.FieldMessage(invalid.Fields[0].Message)
}
