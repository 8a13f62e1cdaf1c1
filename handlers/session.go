package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/websession"
)

// The browser session (SPEC 5.4) is kept on the server by websession; this file adapts it to
// the pages: it remembers the request's session for the rest of the request, and names the
// cookies the pages use.

// Cookie base names of the pages (websession adds the __Host- prefix outside dev).
const (
	flashCookieName = websession.FlashCookie
	oidcCookieName  = websession.OIDCCookie
)

// webSessions is the session manager as the page handlers use it.
type webSessions struct {
	*websession.Manager
	log *slog.Logger
}

// sessionContextKey keeps the request's session in its context once read.
type sessionContextKey struct{}

// withSessionContext remembers s as the request's session.
func withSessionContext(c echo.Context, s websession.Session) {
	r := c.Request()
	c.SetRequest(r.WithContext(context.WithValue(r.Context(), sessionContextKey{}, s)))
}

// read returns the request's live session. A store failure is logged and reads as signed out
// on pages that do not require a session (the login page, error pages); requireSession
// reports it instead.
func (s webSessions) read(r *http.Request) (websession.Session, bool) {
	if d, ok := r.Context().Value(sessionContextKey{}).(websession.Session); ok {
		return d, true
	}
	d, err := s.Read(r)
	if err != nil && !errors.Is(err, models.ErrUnauthorized) {
		s.log.WarnContext(r.Context(), "reading the web session failed", "error", err.Error())
	}
	return d, err == nil
}

// start signs the actor in and remembers the new session for the rest of the request.
func (s webSessions) start(c echo.Context, a models.Actor, via, refreshToken string) error {
	d, err := s.Start(c.Response(), c.Request(), a, via, refreshToken)
	if err != nil {
		return err
	}
	withSessionContext(c, d)
	return nil
}

// seal, open and cookie keep the flash and OIDC state cookies' call sites short.
func (s webSessions) seal(name string, v any) (string, error) { return s.Seal(name, v) }

func (s webSessions) open(r *http.Request, name string, dst any) bool { return s.Open(r, name, dst) }

func (s webSessions) cookie(name, value string, maxAge time.Duration) *http.Cookie {
	return s.Cookie(name, value, maxAge)
}
