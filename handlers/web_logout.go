package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/webguard"
	"usertasks/websession"
)

// logout handles POST /logout: the session ends (its row is deleted, so a copy of the cookie
// stops working too) and the cookie is cleared; an OIDC session also ends at the provider
// (signedOut). Only a live session needs the CSRF token: a request without one has nothing to
// end. GET /logout is no route (405): a link cannot sign anyone out.
func (w *web) logout(c echo.Context) error {
	if d, signedIn := w.sessions.Current(c.Request()); signedIn {
		webguard.Remember(c, d)
		if !w.sessions.CheckPost(c, false) {
			return errCSRF
		}
	}
	out, err := w.sessions.End(c.Response(), c.Request())
	if err != nil {
		return err
	}
	return w.signedOut(c, out, flashSignedOut)
}

// logoutEverywhere handles POST /logout/everywhere: every session of the signed-in person in
// this tenant ends, this one included (another device, a forgotten browser, a stolen cookie),
// and at the provider as logout does.
func (w *web) logoutEverywhere(c echo.Context) error {
	d, _ := webSession(c)
	out, err := w.sessions.EndEverywhere(c.Response(), c.Request(), d.Session)
	if err != nil {
		return err
	}
	w.log.InfoContext(c.Request().Context(), "signed out everywhere", "tenant", d.Tenant, "sessions", out.Sessions)
	return w.signedOut(c, out, flashSignedOutEverywhere)
}

// signedOut finishes a sign-out whose sessions have ended here. With the OIDC login, the
// ended sessions' refresh tokens are revoked at the provider — best effort: a failure is
// logged (never a token) and the sign-out goes on — and a browser whose own session was an
// OIDC one goes to the provider's end-session endpoint, which sends it back to the login page
// (RP-initiated logout). Otherwise, or when the provider offers no end-session endpoint, it
// goes straight to the login page.
func (w *web) signedOut(c echo.Context, out websession.SignOut, flash string) error {
	w.setFlash(c, webFlash{Key: flash})
	if w.oidc == nil {
		return c.Redirect(http.StatusSeeOther, "/login")
	}
	ctx := c.Request().Context()
	if err := w.oidc.RevokeRefreshTokens(ctx, out.RefreshTokens); err != nil {
		w.log.WarnContext(ctx, "revoking refresh tokens at the identity provider failed", "tokens", len(out.RefreshTokens), "error", err.Error())
	}
	if out.Via == models.WebViaOIDC {
		if target, ok := w.oidc.EndSessionURL(out.IDToken); ok {
			c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
			return c.Redirect(http.StatusSeeOther, target)
		}
	}
	return c.Redirect(http.StatusSeeOther, "/login")
}

// pageHeaders are the pages' security headers. With an end-session endpoint at the provider
// the CSP's form-action also names its origin: the sign-out form's answer redirects there,
// and browsers hold a form post's redirects to form-action too.
func (w *web) pageHeaders() echo.MiddlewareFunc {
	if w.oidc == nil {
		return webSecurityHeaders
	}
	return webSecurityHeadersWith(w.oidc.EndSessionOrigin())
}
