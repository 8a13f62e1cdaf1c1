package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The Out of office pages (SPEC 10.5): one's own at /settings/absence, and the managers' for a
// person of their tenant at /manage/people/absence?user=<id>. The person's id travels as a
// query parameter and a hidden field, never in the path, so ids holding "/", "?" or "#" need
// no path escaping. Both pages post to their own path (PRG back to it) and to …/delete.

// Flash keys of the Out of office pages.
const (
	flashAbsenceSaved   = "absence-saved"
	flashAbsenceRemoved = "absence-removed"
)

const (
	ownAbsencePath  = "/settings/absence"
	teamAbsencePath = "/manage/people/absence"
	// The pickers' prefixes (views.PeoplePicker.Prefix): the substitute's, and the managers'
	// choice of the person.
	substitutePrefix = "substitute-"
	personPrefix     = "person-"
	// defaultAbsence is how long the form proposes an absence to last.
	defaultAbsence = 7 * 24 * time.Hour
)

// absenceTarget is whose absence a request is about: nil the caller's own; on the managers'
// page a user of the tenant (the default provider, as the absence API's ?provider= default).
type absenceTarget struct{ who *models.ParticipantRef }

func teamTarget(id string) absenceTarget {
	return absenceTarget{who: &models.ParticipantRef{Type: models.UserParticipant, ID: id}}
}

// path is the page's path without the person: what its forms post to.
func (tg absenceTarget) path() string {
	if tg.who == nil {
		return ownAbsencePath
	}
	return teamAbsencePath
}

// href is the page, with the person.
func (tg absenceTarget) href() string {
	if tg.who == nil {
		return ownAbsencePath
	}
	return teamAbsencePath + "?user=" + url.QueryEscape(tg.who.ID)
}

// hidden is what the page's forms carry along: the person.
func (tg absenceTarget) hidden() []views.HiddenInput {
	if tg.who == nil {
		return nil
	}
	return []views.HiddenInput{{Name: "user", Value: tg.who.ID}}
}

// absencePage handles GET /settings/absence: one's own absence and the form that sets it.
func (w *web) absencePage(c echo.Context) error {
	return w.renderAbsence(c, http.StatusOK, absenceTarget{}, nil)
}

// saveAbsence handles POST /settings/absence.
func (w *web) saveAbsence(c echo.Context) error { return w.putAbsence(c, absenceTarget{}) }

// removeAbsence handles POST /settings/absence/delete.
func (w *web) removeAbsence(c echo.Context) error { return w.endAbsence(c, absenceTarget{}) }

// teamAbsencePage handles GET /manage/people/absence (managers; others get the 403 page): the
// choice of a person, and with ?user= that person's absence and form.
func (w *web) teamAbsencePage(c echo.Context) error {
	if !webActor(c).Manager {
		return models.ErrForbidden
	}
	if id := strings.TrimSpace(c.QueryParam("user")); id != "" {
		return w.renderAbsence(c, http.StatusOK, teamTarget(id), nil)
	}
	return w.renderFinder(c)
}

// saveTeamAbsence handles POST /manage/people/absence: a manager sets a person's absence.
func (w *web) saveTeamAbsence(c echo.Context) error {
	id := strings.TrimSpace(c.FormValue("user"))
	if id == "" {
		return errBadForm
	}
	return w.putAbsence(c, teamTarget(id))
}

// removeTeamAbsence handles POST /manage/people/absence/delete.
func (w *web) removeTeamAbsence(c echo.Context) error {
	id := strings.TrimSpace(c.FormValue("user"))
	if id == "" {
		return errBadForm
	}
	return w.endAbsence(c, teamTarget(id))
}

// putAbsence sets tg's absence from the posted form: success → flash and 303 to the page; a
// refusal of this page or of the service → the page with the values and the messages (422).
func (w *web) putAbsence(c echo.Context, tg absenceTarget) error {
	t := catalog(c)
	form := &views.AbsenceForm{From: strings.TrimSpace(c.FormValue("from")), Until: strings.TrimSpace(c.FormValue("until")),
		Substitute: strings.TrimSpace(c.FormValue("substitute")), Errors: map[string]string{}}
	loc := w.pageZone(c)
	in := tasks.AbsenceInput{Substitute: models.ParticipantRef{Type: models.UserParticipant, ID: form.Substitute}}
	var ok bool
	if in.From, ok = absenceTime(form.From, loc); !ok {
		form.Errors["from"] = t.Delegation.TimeInvalid
	}
	if in.Until, ok = absenceTime(form.Until, loc); !ok {
		form.Errors["until"] = t.Delegation.TimeInvalid
	}
	if form.Substitute == "" {
		form.Errors["substitute"] = t.Delegation.SubRequired
	}
	if len(form.Errors) > 0 {
		return w.renderAbsence(c, http.StatusUnprocessableEntity, tg, form)
	}
	_, err := w.tasks.PutAbsence(c.Request().Context(), webActor(c), tg.who, in)
	var ve *models.ValidationError
	switch {
	case err == nil:
		w.setFlash(c, webFlash{Key: flashAbsenceSaved})
		return c.Redirect(http.StatusSeeOther, tg.href())
	case errors.As(err, &ve):
		for _, fe := range ve.Fields {
			key, msg := absenceError(t, ve.Code, fe)
			form.Errors[key] = msg
		}
		if len(form.Errors) == 0 {
			form.Errors["form"] = t.CheckValues
		}
		return w.renderAbsence(c, http.StatusUnprocessableEntity, tg, form)
	case tg.who != nil && errors.Is(err, models.ErrNotFound):
		// The managers' page for a person the configured directory does not know.
		form.Errors["form"] = t.Delegation.UnknownPerson
		return w.renderAbsence(c, http.StatusUnprocessableEntity, tg, form)
	}
	return err
}

// absenceTime reads a datetime-local value in the page's zone; years a database cannot keep
// everywhere (before 1970, after 9999) are refused with the unreadable ones.
func absenceTime(s string, loc *time.Location) (time.Time, bool) {
	t, err := parseDatetimeLocal(s, loc)
	if err != nil || t.Year() < 1970 || t.Year() > 9999 {
		return time.Time{}, false
	}
	return t, true
}

// absenceError puts a refused absence's field error in words, with the input it belongs to.
func absenceError(t *i18n.Catalog, code models.Code, fe models.FieldError) (string, string) {
	d := t.Delegation
	switch {
	case fe.Field == "from":
		return "from", d.TimeInvalid
	case fe.Field == "until" && fe.Message == "must be after from":
		return "until", d.UntilBeforeFrom
	case fe.Field == "until" && strings.Contains(fe.Message, "365 days"):
		return "until", d.TooLong
	case fe.Field == "until":
		return "until", d.TimeInvalid
	case strings.HasPrefix(fe.Field, "substitute"):
		switch {
		case code == models.CodeUnknownParticipant:
			return "substitute", t.Problem(code)
		case fe.Message == "cannot be the absent user":
			return "substitute", d.SubSelf
		}
		return "substitute", sentence(d.Substitute, t.FieldMessage(fe.Message))
	}
	return "form", t.CheckValues
}

// endAbsence removes tg's absence: flash and 303 to the page. None to remove (a second click,
// or removed meanwhile) is what was asked, and answered the same.
func (w *web) endAbsence(c echo.Context, tg absenceTarget) error {
	err := w.tasks.DeleteAbsence(c.Request().Context(), webActor(c), tg.who)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return err
	}
	w.setFlash(c, webFlash{Key: flashAbsenceRemoved})
	return c.Redirect(http.StatusSeeOther, tg.href())
}

// renderAbsence renders tg's page: the stored absence, and form (a refused post's) or one
// holding the stored absence, else an absence from now for a week.
func (w *web) renderAbsence(c echo.Context, status int, tg absenceTarget, form *views.AbsenceForm) error {
	ctx, a, t := c.Request().Context(), webActor(c), catalog(c)
	cur, err := w.tasks.Absence(ctx, a, tg.who)
	var current *tasks.AbsenceView
	switch {
	case err == nil:
		current = &cur
	case errors.Is(err, models.ErrNotFound):
		// None yet; on the managers' page also a person the directory does not know, which
		// the form's save then says.
	default:
		return err
	}
	var refs []models.ParticipantRef
	var person models.ParticipantRef
	if tg.who != nil {
		person = models.ParticipantRef{Tenant: a.Tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: tg.who.ID}
		refs = append(refs, person)
	}
	if current != nil {
		refs = append(refs, current.Substitute)
	}
	nm := w.newNamer(ctx, a, t, refs) // one directory lookup for the page
	m := views.AbsencePage{Heading: t.Delegation.Title, Intro: t.Delegation.Intro}
	if tg.who != nil {
		m.Heading, m.Intro, m.BackHref = t.Format(t.Delegation.PersonTitle, nm.label(person)), t.Delegation.PersonIntro, teamAbsencePath
	} else if a.Manager {
		m.TeamHref = teamAbsencePath
	}
	m.Chrome = w.chrome(c, func(*i18n.Catalog) string { return m.Heading })
	now := w.now()
	if current != nil {
		m.Current = &views.AbsenceNow{From: current.From, Until: current.Until, Substitute: nm.label(current.Substitute), State: absenceState(*current, now)}
		m.Remove = &views.AbsenceRemove{Action: tg.path() + "/delete", Hidden: tg.hidden()}
	}
	if form == nil {
		form = &views.AbsenceForm{}
		loc := m.Location
		if loc == nil {
			loc = time.UTC
		}
		from, until := now.In(loc).Truncate(time.Minute), now.In(loc).Truncate(time.Minute).Add(defaultAbsence)
		if current != nil && current.Until.After(now) {
			from, until, form.Substitute = current.From.In(loc), current.Until.In(loc), current.Substitute.ID
		}
		form.From, form.Until = from.Format(datetimeLocal), until.Format(datetimeLocal)
	}
	form.Action, form.Hidden = tg.path(), tg.hidden()
	if w.tasks.HasDirectory() {
		param := substitutePrefix + "people"
		sep := "?"
		if tg.who != nil {
			sep = "&"
		}
		// "Enter an ID instead" asks for no search, which the page then does not propose.
		p := &views.PeoplePicker{Action: tg.path(), Endpoint: participantsPath, ClearHref: tg.href() + sep + param + "=#absence-form-heading",
			Prefix: substitutePrefix, Field: "substitute", Target: "absence-substitute", Keep: tg.hidden()}
		query := c.FormValue(param)
		if c.Request().Method == http.MethodGet && !c.QueryParams().Has(param) && current != nil && current.Substitute.DisplayName != "" && form.Substitute == current.Substitute.ID {
			// The stored substitute is listed by name, chosen, rather than as a bare id.
			query = current.Substitute.DisplayName
		}
		form.People = w.searchPeople(c, p, query, firstNonEmpty(c.QueryParam(substitutePrefix+"pick"), form.Substitute))
	}
	m.Form = form
	return w.render(c, status, views.AbsenceView(m))
}

// renderFinder renders the managers' page before a person is chosen: the people picker (its
// choices open the person's page) or, without a directory or a search, the id typed.
func (w *web) renderFinder(c echo.Context) error {
	t := catalog(c)
	m := views.AbsencePage{Heading: t.Delegation.TeamTitle, Intro: t.Delegation.TeamIntro}
	m.Chrome = w.chrome(c, func(t *i18n.Catalog) string { return t.Delegation.TeamTitle })
	f := &views.PersonFinder{Action: teamAbsencePath}
	if w.tasks.HasDirectory() {
		p := &views.PeoplePicker{Action: teamAbsencePath, Endpoint: participantsPath, ClearHref: teamAbsencePath,
			Prefix: personPrefix, Field: "user", Target: "absence-user", Pick: "user"}
		f.People = w.searchPeople(c, p, c.QueryParam(personPrefix+"people"), "")
	}
	m.Finder = f
	return w.render(c, http.StatusOK, views.AbsenceView(m))
}

// absenceState says where now stands in an absence: active on the database clock (the
// service's answer), else planned or ended by the page's clock.
func absenceState(v tasks.AbsenceView, now time.Time) views.AbsenceState {
	switch {
	case v.Active:
		return views.AbsenceActive
	case now.Before(v.From):
		return views.AbsencePlanned
	}
	return views.AbsenceEnded
}

// pageZone is the zone the page shows and reads times in: the session's, else the browser's
// (as chrome decides it for the page).
func (w *web) pageZone(c echo.Context) *time.Location {
	var zone string
	if d, ok := w.sessions.Current(c.Request()); ok {
		zone = d.TimeZone
	}
	return pageLocation(c, zone)
}

// awayBanner is the reader's own absence while it is active, for the inbox's banner; nil
// without one. A failing read costs the banner, not the inbox.
func (w *web) awayBanner(c echo.Context, a models.Actor) *views.AwayBanner {
	v, err := w.tasks.Absence(c.Request().Context(), a, nil)
	switch {
	case errors.Is(err, models.ErrNotFound), errors.Is(err, models.ErrForbidden):
		return nil
	case err != nil:
		w.log.WarnContext(c.Request().Context(), "inbox: reading the absence failed", "error", err.Error())
		return nil
	case !v.Active:
		return nil
	}
	return &views.AwayBanner{Until: v.Until, Substitute: participantLabel(catalog(c), v.Substitute, nil), Href: ownAbsencePath}
}

// onBehalf tells the rows of an available page the reader sees standing in for an absent user
// (tasks.Service.OnBehalfOf); nil for everyone who stands in for nobody. A failure costs the
// notes, not the list.
func (w *web) onBehalf(c echo.Context, f models.TaskFilter, page tasks.Page) []*models.ParticipantRef {
	if len(page.StandsInFor) == 0 {
		return nil
	}
	out, err := w.tasks.OnBehalfOf(c.Request().Context(), webActor(c), f, page)
	if err != nil {
		w.log.WarnContext(c.Request().Context(), "inbox: telling the stand-in rows failed", "error", err.Error())
		return nil
	}
	return out
}
