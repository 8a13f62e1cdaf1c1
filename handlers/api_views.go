package handlers

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views/i18n"
)

// The saved views API: the inbox's saved views for other clients (the rules are
// models.SavedView's; the pages are web_views.go).
//
//	GET    /api/v1/user-task-views        200 {items}: the caller's views and, for managers, shared ones
//	POST   /api/v1/user-task-views        201 the view: {name, query, shared?}
//	GET    /api/v1/user-task-views/{id}   200 the view; 404 when not visible
//	DELETE /api/v1/user-task-views/{id}   204; 404 when the caller may not delete it

// viewsAPI holds the saved views handlers.
type viewsAPI struct{ inbox InboxService }

// registerViewsAPI adds the saved views routes to the API group.
func registerViewsAPI(v1 *echo.Group, inbox InboxService, authed echo.MiddlewareFunc) {
	h := &viewsAPI{inbox: inbox}
	v1.GET("/user-task-views", h.listViews, authed)
	v1.POST("/user-task-views", h.createView, authed)
	v1.GET("/user-task-views/:id", h.getView, authed)
	v1.DELETE("/user-task-views/:id", h.deleteView, authed)
}

// savedViewJSON is a saved view on the wire; href opens it in the inbox.
type savedViewJSON struct {
	ID        string                  `json:"id"`
	Name      string                  `json:"name"`
	Query     string                  `json:"query"`
	Href      string                  `json:"href"`
	Shared    bool                    `json:"shared"`
	Mine      bool                    `json:"mine"`
	Owner     *models.WireParticipant `json:"owner"`
	CreatedAt string                  `json:"createdAt"`
	UpdatedAt string                  `json:"updatedAt"`
}

func savedViewOf(a models.Actor, v models.SavedView) savedViewJSON {
	return savedViewJSON{ID: v.ID, Name: v.Name, Query: v.Query, Href: "/inbox?" + v.Query, Shared: v.Shared,
		Mine: models.MayRenameSavedView(a, v), Owner: v.Owner.Wire(),
		CreatedAt: rfc3339(v.CreatedAt), UpdatedAt: rfc3339(v.UpdatedAt)}
}

// listViews handles GET /api/v1/user-task-views.
func (h *viewsAPI) listViews(c echo.Context) error {
	a := actorOf(c)
	vs, err := h.inbox.SavedViews(c.Request().Context(), a)
	if err != nil {
		return err
	}
	out := struct {
		Items []savedViewJSON `json:"items"`
	}{Items: make([]savedViewJSON, 0, len(vs))}
	for _, v := range vs {
		out.Items = append(out.Items, savedViewOf(a, v))
	}
	return c.JSON(http.StatusOK, out)
}

// createView handles POST /api/v1/user-task-views. The query is an inbox URL's query; it is
// stored normalized (its first page, no unknown parameter) and refused (422) when the inbox
// would refuse it.
func (h *viewsAPI) createView(c echo.Context) error {
	var body struct {
		Name   string `json:"name"`
		Query  string `json:"query"`
		Shared bool   `json:"shared"`
	}
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	a := actorOf(c)
	if a.Guest != nil || !models.ActorCan(a, models.PermView) {
		return models.ErrForbidden // the permission before the request's validation (SPEC 4)
	}
	parsed, err := url.ParseQuery(body.Query)
	q := readInboxQuery(parsed)
	_, problems := q.taskFilter(i18n.Supported[0])
	if err != nil || len(body.Query) > models.MaxSavedViewQuerySize || len(problems) > 0 || q.badPrev {
		return models.InvalidField("query", "must be a valid inbox query")
	}
	if q.scope.ManagerOnly() && !a.Manager {
		return models.ErrForbidden
	}
	v, err := h.inbox.SaveView(c.Request().Context(), a, tasks.SaveViewInput{Name: body.Name, Query: savedQuery(q), Shared: body.Shared})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, savedViewOf(a, v))
}

// getView handles GET /api/v1/user-task-views/{id}.
func (h *viewsAPI) getView(c echo.Context) error {
	a := actorOf(c)
	v, err := h.inbox.SavedView(c.Request().Context(), a, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, savedViewOf(a, v))
}

// deleteView handles DELETE /api/v1/user-task-views/{id}.
func (h *viewsAPI) deleteView(c echo.Context) error {
	if _, err := h.inbox.DeleteView(c.Request().Context(), actorOf(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
