package handlers

import (
	"github.com/labstack/echo/v4"
)

// withSession lets a request without an Authorization header authenticate with the browser
// session cookie (SPEC 5.1); state-changing requests then also need the page's CSRF token
// (Sessions.RequestActor). A request with a header always goes through bearer.
func withSession(bearer echo.MiddlewareFunc, sessions *Sessions) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		viaBearer := bearer(next)
		return func(c echo.Context) error {
			if c.Request().Header.Get(echo.HeaderAuthorization) != "" || !sessions.HasSession(c.Request()) {
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
