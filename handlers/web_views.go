package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The inbox's list controls beside the plain filters: column sorting, the workflow choices and
// saved views (issue 10). A saved view is the inbox URL's query, normalized by parsing it into
// the filter (readInboxQuery, taskFilter) and rendering it again from its first page, so it
// never holds a cursor or an unknown parameter. Routes:
//
//	GET  /inbox?view=<id>            303 to the view's inbox URL (404 when not visible)
//	POST /inbox/views                save the current view; 303 to it, or the inbox again (422)
//	GET  /inbox/views                the views the person may open, with rename and delete
//	POST /inbox/views/:id/rename     the owner renames; 303 to /inbox/views, or the page again (422)
//	POST /inbox/views/:id/delete     the owner, or a manager for a shared view; 303 to /inbox/views

// InboxService is what the inbox needs beside the task list; *tasks.Inbox satisfies it.
type InboxService interface {
	SaveView(ctx context.Context, a models.Actor, in tasks.SaveViewInput) (models.SavedView, error)
	SavedViews(ctx context.Context, a models.Actor) ([]models.SavedView, error)
	SavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
	RenameView(ctx context.Context, a models.Actor, id, name string) (models.SavedView, error)
	DeleteView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
	WorkflowChoices(ctx context.Context, a models.Actor, scope models.Scope) ([]models.WorkflowChoice, error)
}

// Flash keys of saved views; the flash carries the view's name as its title.
const (
	flashViewSaved   = "view-saved"
	flashViewRenamed = "view-renamed"
	flashViewDeleted = "view-deleted"
)

// viewFlash puts a saved view's flash in words; "" for any other flash.
func viewFlash(t *i18n.Catalog, f webFlash) string {
	switch f.Key {
	case flashViewSaved:
		return t.Format(t.Views.FlashSaved, f.Title)
	case flashViewRenamed:
		return t.Format(t.Views.FlashRenamed, f.Title)
	case flashViewDeleted:
		return t.Format(t.Views.FlashDeleted, f.Title)
	}
	return ""
}

// Context keys for a refused save: the form to show again and the page's status.
const (
	ctxSaveViewForm = "usertasks.web.save-view"
	ctxInboxStatus  = "usertasks.web.inbox-status"
)

// inboxStatus is the inbox page's status: 409 with a conflict banner, 422 for a refused save.
func inboxStatus(c echo.Context, conflict string) int {
	if s, ok := c.Get(ctxInboxStatus).(int); ok {
		return s
	}
	if conflict != "" {
		return http.StatusConflict
	}
	return http.StatusOK
}

// savedQuery is the normalized query a view of q stores: its first page, the tab always named.
func savedQuery(q inboxQuery) string {
	v := q.firstPage().values()
	v.Set("tab", string(q.scope))
	return v.Encode()
}

// orderStatuses keeps each status once, in the order of models.AllStatuses, unknown values
// last in the order given (so they are shown back and refused).
func orderStatuses(in []string) []string {
	var out []string
	for _, s := range models.AllStatuses {
		if slices.Contains(in, string(s)) {
			out = append(out, string(s))
		}
	}
	for _, s := range in {
		if s != "" && !models.Status(s).Valid() && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// fillInboxLists adds the sort headers, the workflow choices and the saved views to the inbox
// page; f is the parsed filter (its sort is the page's when problems is empty).
func (w *web) fillInboxLists(c echo.Context, m *views.InboxPage, q inboxQuery, f models.TaskFilter, problems map[string]string) {
	m.Lists.Sorts = map[string]views.SortHeader{}
	for _, k := range []models.SortKey{models.SortTitle, models.SortPriority, models.SortDue, models.SortCompleted, models.SortUpdated} {
		s := q.firstPage()
		s.filters.Sort, s.filters.Direction = string(k), ""
		h := views.SortHeader{}
		if len(problems) == 0 && f.Sort == k {
			h.Sorted, s.filters.Direction = "ascending", "desc"
			if f.Descending {
				h.Sorted, s.filters.Direction = "descending", "asc"
			}
		}
		h.Href = s.href()
		m.Lists.Sorts[string(k)] = h
	}
	ctx, a := c.Request().Context(), webActor(c)
	if w.lists == nil || (q.scope.ManagerOnly() && !a.Manager) {
		return // no saved views here, or a list that is refused anyway
	}
	if choices, err := w.lists.WorkflowChoices(ctx, a, q.scope); err == nil {
		m.Lists.Workflows = workflowOptions(m.T, choices, q.filters.Workflow)
	} else if !errors.Is(err, models.ErrForbidden) {
		w.log.WarnContext(ctx, "inbox workflow choices", "error", err) // the free-text input stands in
	}
	saved, err := w.lists.SavedViews(ctx, a)
	if err != nil {
		if !errors.Is(err, models.ErrForbidden) {
			w.log.WarnContext(ctx, "inbox saved views", "error", err)
		}
		return
	}
	bar := &views.SavedViewsBar{CanShare: models.CanShareViews(a), Limit: models.MaxSavedViews,
		Save: views.SaveViewForm{Query: savedQuery(q)}}
	if form, ok := c.Get(ctxSaveViewForm).(views.SaveViewForm); ok {
		bar.Save = form
	}
	current, own := savedQuery(q), 0
	for _, v := range saved {
		label := v.Name
		if v.Shared {
			label += " · " + m.T.Views.SharedMark
		}
		if v.Query == current {
			label += " " + m.T.Views.Current
		}
		bar.Views = append(bar.Views, views.Option{Value: v.ID, Label: label, Selected: v.Query == current})
		if models.MayRenameSavedView(a, v) {
			own++
		}
	}
	bar.Full = own >= models.MaxSavedViews
	m.Lists.Saved = bar
}

// workflowOptions offers the choices by name ("Any workflow" first). A name two definitions
// share, or a definition without one, shows its id too; a filtered id that is no choice is
// kept as an option, so the page shows what it filters on.
func workflowOptions(t *i18n.Catalog, choices []models.WorkflowChoice, selected string) []views.Option {
	names := map[string]int{}
	for _, ch := range choices {
		names[ch.Name]++
	}
	out := []views.Option{{Value: "", Label: t.Views.AnyWorkflow, Selected: selected == ""}}
	found := selected == ""
	for _, ch := range choices {
		label := ch.Name
		switch {
		case label == "":
			label = ch.ID
		case names[ch.Name] > 1:
			label += " (" + ch.ID + ")"
		}
		out = append(out, views.Option{Value: ch.ID, Label: label, Selected: ch.ID == selected})
		found = found || ch.ID == selected
	}
	if !found {
		out = append(out, views.Option{Value: selected, Label: selected, Selected: true})
	}
	return out
}

// withInbox answers not found where the inbox has no saved views.
func (w *web) withInbox(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if w.lists == nil {
			return models.ErrNotFound
		}
		return next(c)
	}
}

// openView handles GET /inbox?view=<id>: the view's inbox URL (303), or not found.
func (w *web) openView(c echo.Context, id string) error {
	if w.lists == nil {
		return models.ErrNotFound
	}
	v, err := w.lists.SavedView(c.Request().Context(), webActor(c), id)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/inbox?"+v.Query)
}

// saveView handles POST /inbox/views: the posted query is parsed like an inbox URL and stored
// normalized under the name. Refusals show the inbox of that query again with the form (422).
func (w *web) saveView(c echo.Context) error {
	t := catalog(c)
	raw := c.FormValue("query")
	parsed, perr := url.ParseQuery(raw)
	q := readInboxQuery(parsed)
	form := views.SaveViewForm{Query: savedQuery(q), Name: c.FormValue("name"), Shared: c.FormValue("shared") == "true", Errors: map[string]string{}}
	if len(form.Name) > 4*models.MaxSavedViewName {
		form.Name = models.Truncate(form.Name, 4*models.MaxSavedViewName)
	}
	if q.scope.ManagerOnly() && !webActor(c).Manager {
		return models.ErrForbidden // the list itself is refused to them
	}
	_, problems := q.taskFilter(t)
	if perr != nil || len(raw) > models.MaxSavedViewQuerySize || len(problems) > 0 || q.badPrev {
		form.Errors["form"] = t.Views.QueryInvalid
		return w.refuseSave(c, q, form)
	}
	v, err := w.lists.SaveView(c.Request().Context(), webActor(c), tasks.SaveViewInput{Name: form.Name, Query: form.Query, Shared: form.Shared})
	var ve *models.ValidationError
	switch {
	case err == nil:
		w.setFlash(c, webFlash{Key: flashViewSaved, Title: v.Name})
		return c.Redirect(http.StatusSeeOther, "/inbox?"+v.Query)
	case errors.As(err, &ve):
		for _, fe := range ve.Fields {
			switch fe.Field {
			case "name":
				form.Errors["name"] = viewNameProblem(t, form.Name)
				form.Name = echoText(form.Name, len(form.Name))
			case "views":
				form.Errors["form"] = t.Format(t.Views.LimitReached, models.MaxSavedViews)
			default:
				form.Errors["form"] = t.Views.QueryInvalid
			}
		}
		return w.refuseSave(c, q, form)
	}
	return err
}

// refuseSave shows the inbox of q again with the refused save form (422).
func (w *web) refuseSave(c echo.Context, q inboxQuery, form views.SaveViewForm) error {
	c.Set(ctxSaveViewForm, form)
	c.Set(ctxInboxStatus, http.StatusUnprocessableEntity)
	return w.renderInbox(c, q.firstPage(), "")
}

// viewNameProblem says what is wrong with a refused name; a name that is fine in itself is
// one the person already uses.
func viewNameProblem(t *i18n.Catalog, raw string) string {
	name := strings.TrimSpace(raw)
	switch {
	case name == "":
		return t.Views.NameRequired
	case models.TextProblem(name, models.Label) != "":
		return t.Views.NameInvalid
	case utf8.RuneCountInString(name) > models.MaxSavedViewName:
		return t.Views.NameTooLong
	}
	return t.Views.NameTaken
}

// manageViews handles GET /inbox/views.
func (w *web) manageViews(c echo.Context) error {
	return w.renderManageViews(c, http.StatusOK, "", "", "")
}

// renderManageViews renders the manage page; a refused rename shows its name and message on
// the view's row.
func (w *web) renderManageViews(c echo.Context, status int, refusedID, refusedName, message string) error {
	a := webActor(c)
	saved, err := w.lists.SavedViews(c.Request().Context(), a)
	if err != nil {
		return err
	}
	m := views.ManageViewsPage{}
	m.Chrome = w.chrome(c, func(t *i18n.Catalog) string { return t.Views.ManageTitle })
	for _, v := range saved {
		r := views.SavedViewRow{ID: v.ID, Name: v.Name, Href: "/inbox?view=" + url.QueryEscape(v.ID), Shared: v.Shared,
			CanRename: models.MayRenameSavedView(a, v), CanDelete: models.MayDeleteSavedView(a, v), Rename: v.Name}
		if !r.CanRename {
			r.Owner = firstNonEmpty(v.Owner.DisplayName, v.Owner.ID)
		}
		if v.ID == refusedID {
			r.Rename, r.Error = refusedName, message
		}
		m.Rows = append(m.Rows, r)
	}
	return w.render(c, status, views.ManageViewsView(m))
}

// renameView handles POST /inbox/views/:id/rename.
func (w *web) renameView(c echo.Context) error {
	id, name := c.Param("id"), c.FormValue("name")
	v, err := w.lists.RenameView(c.Request().Context(), webActor(c), id, name)
	var ve *models.ValidationError
	switch {
	case err == nil:
		w.setFlash(c, webFlash{Key: flashViewRenamed, Title: v.Name})
		return c.Redirect(http.StatusSeeOther, "/inbox/views")
	case errors.As(err, &ve):
		return w.renderManageViews(c, http.StatusUnprocessableEntity, id, echoText(name, 4*models.MaxSavedViewName), viewNameProblem(catalog(c), name))
	}
	return err
}

// deleteView handles POST /inbox/views/:id/delete.
func (w *web) deleteView(c echo.Context) error {
	v, err := w.lists.DeleteView(c.Request().Context(), webActor(c), c.Param("id"))
	if err != nil {
		return err
	}
	w.setFlash(c, webFlash{Key: flashViewDeleted, Title: v.Name})
	return c.Redirect(http.StatusSeeOther, "/inbox/views")
}
