package handlers

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/views"
	"usertasks/views/i18n"
)

// DevUser is a demo user of the dev login (SPEC 9: dev mode only). The lead maps the demo
// seed's users to it. Provider is "default"; Manager follows the same rule as tokens: the
// manager flag counts only with the user-tasks:supervise permission.
type DevUser struct {
	ID          string
	DisplayName string
	Tenant      string
	Groups      []string
	Manager     bool
	Permissions []string
	// Shows is the key of what signing in as the user shows (i18n.DemoUsersText.Shows); the
	// login page labels the user with it.
	Shows string
}

// key identifies the user in the dev login form; ids may repeat across tenants.
func (u DevUser) key() string { return u.Tenant + "/" + u.ID }

// actor is the actor a dev sign-in yields.
func (u DevUser) actor() models.Actor {
	a := models.Actor{
		Tenant:      u.Tenant,
		Subject:     models.ParticipantRef{Tenant: u.Tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: u.ID, DisplayName: u.DisplayName},
		DisplayName: u.DisplayName,
		Permissions: slices.Clone(u.Permissions),
		Manager:     u.Manager && models.HasPermission(u.Permissions, models.PermSupervise),
	}
	for _, g := range u.Groups {
		a.Groups = append(a.Groups, models.ParticipantRef{Tenant: u.Tenant, Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: g})
	}
	return a
}

// devDirectory is where dev sessions re-read their identity: the demo user list this node
// runs with. A user no longer listed (or listed in another tenant) ends their sessions.
type devDirectory []DevUser

// Refresh implements websession.IdentitySource.
func (d devDirectory) Refresh(_ context.Context, ws models.WebSession) (models.WebIdentity, models.WebTokens, error) {
	i := slices.IndexFunc(d, func(u DevUser) bool { return u.Tenant == ws.Tenant && u.ID == ws.Subject })
	if i < 0 || ws.Provider != models.DefaultProvider {
		return models.WebIdentity{}, models.WebTokens{}, fmt.Errorf("dev user %s/%s is no longer listed", ws.Tenant, ws.Subject)
	}
	return models.IdentityOf(d[i].actor()), models.WebTokens{}, nil
}

// loginPage handles GET /login: the OIDC button and, in dev mode, the demo users. Someone
// already signed in goes on to where they wanted to be.
func (w *web) loginPage(c echo.Context) error {
	next := c.QueryParam("next")
	if _, ok := w.sessions.Current(c.Request()); ok {
		return c.Redirect(http.StatusSeeOther, nextOrInbox(next))
	}
	return w.renderLogin(c, http.StatusOK, next, "")
}

// renderLogin renders the login page with an optional error.
func (w *web) renderLogin(c echo.Context, status int, next, errMsg string) error {
	m := views.LoginPage{DevAction: "/login/dev", Error: errMsg}
	m.Chrome = w.chrome(c, func(t *i18n.Catalog) string { return t.LoginTitle })
	if p, ok := localPath(next); ok {
		m.Next = p
	}
	if w.oidc != nil {
		m.OIDCHref = "/login/oidc"
		if m.Next != "" {
			m.OIDCHref += "?next=" + queryEscape(m.Next)
		}
	}
	for _, u := range w.devUsers {
		m.DevUsers = append(m.DevUsers, views.DevUser{
			Key: u.key(), ID: u.ID, Name: firstNonEmpty(u.DisplayName, u.ID), Tenant: u.Tenant,
			Groups: u.Groups, Manager: u.actor().Manager, Shows: m.T.DemoUsers.Shows(u.Shows),
		})
	}
	return w.render(c, status, views.LoginView(m))
}

// devLogin handles POST /login/dev: one click signs in as a demo user.
func (w *web) devLogin(c echo.Context) error {
	key, next := c.FormValue("user"), c.FormValue("next")
	i := slices.IndexFunc(w.devUsers, func(u DevUser) bool { return u.key() == key })
	if i < 0 {
		return w.renderLogin(c, http.StatusUnprocessableEntity, next, catalog(c).LoginFailed)
	}
	if err := w.sessions.SignIn(c, w.devUsers[i].actor(), models.WebViaDev, models.WebTokens{}); err != nil {
		w.log.Warn("dev login refused", "error", err.Error())
		return w.renderLogin(c, http.StatusUnprocessableEntity, next, catalog(c).LoginFailed)
	}
	w.adoptTimeZone(c, c.FormValue(timeZoneField))
	return c.Redirect(http.StatusSeeOther, nextOrInbox(next))
}

// nextOrInbox is where to go after signing in.
func nextOrInbox(next string) string {
	if p, ok := localPath(next); ok {
		return p
	}
	return "/inbox"
}
