package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// setTimeZone handles POST /session/time-zone: static/timezone.js reports the browser's IANA
// zone (form field timeZone, CSRF token in X-CSRF-Token) and the session keeps it, so times can
// be shown in the person's zone (UTC until then). Anything but a known zone name is 422.
func (w *web) setTimeZone(c echo.Context) error {
	d, _ := webSession(c)
	err := w.sessions.SetTimeZone(c.Request().Context(), d.Session, c.FormValue("timeZone"))
	switch {
	case errors.Is(err, models.ErrInvalid):
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "time zone")
	case err != nil:
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.NoContent(http.StatusNoContent)
}
