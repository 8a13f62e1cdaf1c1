package handlers

import (
	"errors"
	"net/http"

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
	// A GET records nothing (the API's explanation is the audited one): a top-level link from
	// another site carries the manager's SameSite=Lax cookie, and must not write history.
	in := tasks.AccessInput{Unrecorded: true}
	if form.Type != "" || form.ID != "" {
		in.Participant = form.Type + ":" + form.ID
	}
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

// accessResult puts an explanation into the page's language.
func accessResult(t *i18n.Catalog, a models.Access) *views.AccessResult {
	r := &views.AccessResult{Participant: a.Participant.Label(), Premises: accessSteps(t, a.Premises)}
	for _, d := range []struct {
		key string
		d   models.AccessDecision
	}{{i18n.AccessView, a.View}, {i18n.AccessClaim, a.Claim}, {i18n.AccessComplete, a.Complete}} {
		r.Decisions = append(r.Decisions, views.AccessDecision{Key: d.key, Label: t.Access.Operations[d.key],
			Allowed: d.d.Allowed, Steps: accessSteps(t, d.d.Because)})
	}
	return r
}

// accessSteps translates reasons; statuses and health codes among their values are named in
// the page's language too.
func accessSteps(t *i18n.Catalog, rs []models.Reason) []views.AccessStep {
	out := make([]views.AccessStep, 0, len(rs))
	for _, r := range rs {
		args := append([]string(nil), r.Args...)
		for i, v := range args {
			switch r.Rule {
			case models.RuleStatus, models.RuleStatusDenies:
				args[i] = t.Status(models.Status(v))
			case models.RuleHealthBlocking, models.RuleHealthBlockingManager:
				args[i] = t.HealthName(v)
			}
		}
		out = append(out, views.AccessStep{Rule: string(r.Rule), Effect: string(r.Effect), Text: t.Access.Rule(r.Rule, args...)})
	}
	return out
}
