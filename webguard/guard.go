// Package webguard puts the browser session (websession) in front of the echo routes: it reads
// the request's session once and remembers it for the rest of the request, sends anonymous
// page requests to the sign-in page, and refuses state-changing posts that do not come from our
// origin with the page's CSRF token. The handlers only ask who is signed in.
package webguard

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/websession"
)

// Guard is the session manager as the routes use it.
type Guard struct {
	*websession.Manager
	log        *slog.Logger
	signInPath string
}

// New guards routes with the sessions of m; anonymous page requests go to signInPath. A nil
// log means slog.Default().
func New(m *websession.Manager, log *slog.Logger, signInPath string) *Guard {
	if log == nil {
		log = slog.Default()
	}
	return &Guard{Manager: m, log: log, signInPath: signInPath}
}

// sessionKey keeps the request's session in its context once read.
type sessionKey struct{}

// Remember keeps s as the request's session for the rest of the request.
func Remember(c echo.Context, s websession.Session) {
	r := c.Request()
	c.SetRequest(r.WithContext(context.WithValue(r.Context(), sessionKey{}, s)))
}

// Session is the session RequireSession (or Remember) left in the request.
func Session(c echo.Context) (websession.Session, bool) {
	s, ok := c.Request().Context().Value(sessionKey{}).(websession.Session)
	return s, ok
}

// Current returns the request's live session. A store failure is logged and reads as signed
// out on pages that do not require a session (the sign-in page, error pages); RequireSession
// reports it instead.
func (g *Guard) Current(r *http.Request) (websession.Session, bool) {
	if s, ok := r.Context().Value(sessionKey{}).(websession.Session); ok {
		return s, true
	}
	s, err := g.Read(r)
	if err != nil && !errors.Is(err, models.ErrUnauthorized) {
		g.log.WarnContext(r.Context(), "reading the web session failed", "error", err.Error())
	}
	return s, err == nil
}

// SignIn starts a session for the actor and remembers it for the rest of the request.
func (g *Guard) SignIn(c echo.Context, a models.Actor, via string, tokens models.WebTokens) error {
	s, err := g.Start(c.Response(), c.Request(), a, via, tokens)
	if err != nil {
		return err
	}
	Remember(c, s)
	return nil
}

// RequireSession puts the signed-in person in the request's context; anonymous requests (and
// ended sessions) go to the sign-in page, remembering the page to return to for GETs. A store
// failure is an error, not a sign-out.
func (g *Guard) RequireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s, err := g.Read(c.Request())
		if errors.Is(err, models.ErrUnauthorized) {
			target := g.signInPath
			if c.Request().Method == http.MethodGet {
				target += "?next=" + url.QueryEscape(c.Request().URL.RequestURI())
			}
			return c.Redirect(http.StatusSeeOther, target)
		}
		if err != nil {
			return err
		}
		Remember(c, s)
		return next(c)
	}
}
