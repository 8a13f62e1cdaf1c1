package handlers

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// accessPage handles GET /tasks/:id/access?type=user|group&id=: the Manage panel's "Check
// access". The service decides everything (403 for non-managers before loading, 404 for an
// invisible task, 422 for a participant it cannot read). Being a GET it records nothing; without
// an id the page shows the form only.
func (w *web) accessPage(c echo.Context) error {
	ctx, a, id := c.Request().Context(), webActor(c), c.Param("id")
	form := views.AccessForm{Action: taskHref(id) + "/access", Type: c.QueryParam("type"), ID: c.QueryParam("id")}
	if typ, pid, ok := strings.Cut(c.QueryParam("participant"), ":"); ok {
		form.Type, form.ID = typ, pid // a choice of the people picker: "type:id"
	}
	// A GET records nothing (the API's explanation is the audited one): a top-level link from
	// another site carries the manager's SameSite=Lax cookie, and must not write history.
	in := tasks.AccessInput{Unrecorded: true}
	if form.Type != "" || form.ID != "" {
		in.Participant = form.Type + ":" + form.ID
	}
	w.accessPeople(c, &form)
	got, err := w.tasks.Access(ctx, a, id, in)
	status := http.StatusOK
	var invalid *models.ValidationError
	switch {
	case errors.As(err, &invalid) && in.Participant == "":
		err = nil // the empty form: nothing asked yet
	case errors.As(err, &invalid):
		status, err = http.StatusUnprocessableEntity, nil
		form.Error = catalog(c).Access.Invalid
	case err != nil:
		return err
	}
	d, err := w.tasks.Detail(ctx, a, id)
	if err != nil {
		return err
	}
	m := views.AccessPage{TaskTitle: d.Task.Title, TaskHref: taskHref(id), Form: form}
	m.Chrome = w.chrome(c, func(t *i18n.Catalog) string { return t.Format(t.Access.PageTitle, d.Task.Title) })
	if status == http.StatusOK && in.Participant != "" {
		m.Result = accessResult(m.T, got)
	}
	return w.render(c, status, views.AccessView(m))
}

// accessResult puts an explanation into the page's language. The permissions another person is
// assumed to hold (one note per permission and operation) are said once, among the premises.
func accessResult(t *i18n.Catalog, a models.Access) *views.AccessResult {
	r := &views.AccessResult{Participant: a.Participant.Label(), Premises: accessSteps(t, a.Premises)}
	var assumed []string
	for _, d := range []struct {
		key string
		d   models.AccessDecision
	}{{i18n.AccessView, a.View}, {i18n.AccessClaim, a.Claim}, {i18n.AccessComplete, a.Complete}} {
		var because []models.Reason
		for _, rs := range d.d.Because {
			if rs.Rule == models.RulePermissionAssumed {
				for _, p := range rs.Args {
					if !slices.Contains(assumed, p) {
						assumed = append(assumed, p)
					}
				}
				continue
			}
			because = append(because, rs)
		}
		r.Decisions = append(r.Decisions, views.AccessDecision{Key: d.key, Label: t.Access.Operations[d.key],
			Allowed: d.d.Allowed, Steps: accessSteps(t, because)})
	}
	if len(assumed) > 0 {
		names := make([]string, len(assumed))
		for i, p := range assumed {
			names[i] = permissionName(t, p)
		}
		r.Premises = append(r.Premises, views.AccessStep{Rule: string(models.RulePermissionAssumed), Effect: string(models.EffectNote),
			Text: t.Format(t.Labels.AccessAssumed, strings.Join(names, ", ")), Detail: strings.Join(assumed, ", ")})
	}
	return r
}

// permissionName is a permission or grant as people read it, quoted; an unknown one is its code.
func permissionName(t *i18n.Catalog, code string) string {
	return t.Format(t.Labels.Quoted, firstNonEmpty(t.Labels.Permissions[code], code))
}

// accessSteps translates reasons; statuses and health codes among their values are named in
// the page's language too.
func accessSteps(t *i18n.Catalog, rs []models.Reason) []views.AccessStep {
	out := make([]views.AccessStep, 0, len(rs))
	for _, r := range rs {
		args := append([]string(nil), r.Args...)
		var detail string
		for i, v := range args {
			switch r.Rule {
			case models.RuleStatus, models.RuleStatusDenies:
				args[i] = t.Status(models.Status(v))
			case models.RuleHealthBlocking, models.RuleHealthBlockingManager:
				args[i] = t.HealthName(v)
			case models.RulePermission, models.RulePermissionMissing, models.RulePermissionAssumed:
				args[i] = permissionName(t, v) // the codes stay in the step's tooltip
				detail = strings.Join(r.Args, " · ")
			}
		}
		out = append(out, views.AccessStep{Rule: string(r.Rule), Effect: string(r.Effect), Text: t.Access.Rule(r.Rule, args...), Detail: detail})
	}
	return out
}

// accessPeople fills the access form's people picker: with a directory, the participant is
// found by name (users and groups); the search's results are choices whose value is "type:id".
func (w *web) accessPeople(c echo.Context, form *views.AccessForm) {
	if !w.tasks.HasDirectory() {
		return
	}
	t := catalog(c)
	form.FindPeople = true
	form.People = strings.TrimSpace(c.QueryParam("people"))
	if form.People == "" {
		return
	}
	form.Searched = true
	page, err := w.tasks.Participants(c.Request().Context(), webActor(c), tasks.ParticipantQuery{Search: form.People, Limit: pickerSize})
	var ve *models.ValidationError
	switch {
	case errors.As(err, &ve):
		form.PeopleError = t.People.SearchInvalid
		return
	case err != nil:
		w.log.WarnContext(c.Request().Context(), "check access: the directory search failed", "error", err.Error())
		form.PeopleError = t.People.Unavailable
		return
	}
	for _, r := range page.Items {
		value := string(r.Type) + ":" + r.ID
		form.Choices = append(form.Choices, views.AccessChoice{Value: value, Label: participantLabel(t, r, nil),
			Checked: string(r.Type) == form.Type && r.ID == form.ID})
	}
}
