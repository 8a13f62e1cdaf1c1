package handlers

import (
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/webguard"
	"usertasks/websession"
)

// timeZoneField is the sign-in forms' hidden field static/timezone.js fills with the browser's
// IANA zone.
const timeZoneField = "timeZone"

// pageLocation is the zone a page renders times in: the session's, else the browser's own
// (websession.TimeZoneCookie), else UTC.
func pageLocation(c echo.Context, session string) *time.Location {
	if session != "" {
		if loc, ok := websession.LoadTimeZone(session); ok {
			return loc
		}
	}
	if _, loc, ok := websession.BrowserTimeZone(c.Request()); ok {
		return loc
	}
	return time.UTC
}

// adoptTimeZone gives the session just started the browser's zone — as the sign-in form posted
// it, else as the browser's cookie says — so the first page after a sign-in already shows the
// person's zone. Without either the session stays in UTC until static/timezone.js reports.
// A failure only costs the zone: the sign-in stands.
func (w *web) adoptTimeZone(c echo.Context, posted string) {
	s, ok := webguard.Session(c)
	if !ok {
		return
	}
	zone := posted
	if _, ok := websession.LoadTimeZone(zone); !ok {
		name, _, ok := websession.BrowserTimeZone(c.Request())
		if !ok {
			return
		}
		zone = name
	}
	if err := w.sessions.SetTimeZone(c.Request().Context(), s, zone); err != nil {
		w.log.Warn("time zone of a new session not kept", "error", err.Error())
	}
}
