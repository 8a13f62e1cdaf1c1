package handlers

import (
	"github.com/labstack/echo/v4"

	"usertasks/websession"
)

// withSession lets a request without an Authorization header authenticate with the browser
// session cookie (SPEC 5.1); state-changing requests then also need our origin and the page's
// CSRF token (websession.Manager.RequestActor). A request with the header always goes through
// bearer. Without either, the answer is 401.
func withSession(bearer echo.MiddlewareFunc, sessions *websession.Manager) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		viaBearer := bearer(next)
		return func(c echo.Context) error {
			if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
				return viaBearer(c)
			}
			a, err := sessions.RequestActor(c.Request())
			if err != nil {
				return err
			}
			c.Set(actorKey, a)
			c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
			return next(c)
		}
	}
}
