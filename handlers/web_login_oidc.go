package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/oidclogin"
	"usertasks/websession"
)

// oidcStart handles GET /login/oidc: it sends the browser to the provider, keeping the
// sign-in's state in a sealed cookie until it comes back. (A link, not a form: the CSP's
// form-action 'self' would stop a form's redirect to another origin.)
func (w *web) oidcStart(c echo.Context) error {
	if w.oidc == nil {
		return echo.ErrNotFound
	}
	next, _ := localPath(c.QueryParam("next"))
	st, target := w.oidc.Start(next)
	value, err := w.sessions.Seal(websession.OIDCCookie, st)
	if err != nil {
		return err
	}
	// Path=/ like every cookie: the __Host- prefix requires it.
	c.SetCookie(w.sessions.Cookie(websession.OIDCCookie, value, oidclogin.StateLifetime))
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.Redirect(http.StatusFound, target)
}

// oidcCallback handles GET /login/oidc/callback: the state cookie is used up, oidclogin checks
// the answer and maps the identity, and the session starts. Every failure shows the login page
// with one generic message; the reason is logged.
func (w *web) oidcCallback(c echo.Context) error {
	if w.oidc == nil {
		return echo.ErrNotFound
	}
	var st oidclogin.State // stays zero, and so expired, without a valid cookie
	w.sessions.Open(c.Request(), websession.OIDCCookie, &st)
	c.SetCookie(w.sessions.Cookie(websession.OIDCCookie, "", -1))
	a, tokens, err := w.oidc.Finish(c.Request().Context(), st, c.QueryParams())
	if err == nil {
		if err = w.sessions.SignIn(c, a, models.WebViaOIDC, tokens); err != nil {
			err = &oidclogin.Refusal{Reason: "session", Err: err}
		}
	}
	if err != nil {
		w.log.Warn("oidc sign-in refused", oidclogin.LogAttrs(err)...)
		return w.renderLogin(c, http.StatusUnauthorized, st.Next, catalog(c).LoginFailed)
	}
	w.adoptTimeZone(c, "") // the sign-in page's script left the browser's zone in its cookie
	w.recordSignIn(c, a)   // the email claim, which the session does not keep
	return c.Redirect(http.StatusSeeOther, nextOrInbox(st.Next))
}
