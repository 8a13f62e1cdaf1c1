package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/websession"
)

// errCrossSite refuses a state-changing browser request another site started: 403 (an HTML
// error page for a browser, problem+json on the API).
var errCrossSite = echo.NewHTTPError(http.StatusForbidden, "cross-site request refused")

// refuseCrossSiteWrites refuses every state-changing request (not GET, HEAD or OPTIONS) that
// the browser marks Sec-Fetch-Site: cross-site and that carries no Authorization header: a
// browser request riding on its cookies (pages, guest pages, the JSON API under a session), which
// another site must not be able to start. It stands in front of every route, before the session
// and CSRF checks each form has, so a route that forgot them is still covered. A bearer-token
// call (the JSON API, the runtime protocol) is not refused: its credential is not ambient, and
// a browser sends the header only after CORS allowed it, which this server never does.
func refuseCrossSiteWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if !websession.SafeMethod(r.Method) && r.Header.Get("Sec-Fetch-Site") == "cross-site" && r.Header.Get(echo.HeaderAuthorization) == "" {
			return errCrossSite
		}
		return next(c)
	}
}
