package webguard

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/views"
)

// CSRF on the pages (the rules are websession's): every page carries the token of its binding
// in <meta name="csrf-token"> and the hidden field of every form; every POST must come from our
// origin and send the token.

// ErrCSRF refuses a post without our origin or a valid token: 403.
var ErrCSRF = echo.NewHTTPError(http.StatusForbidden, "csrf")

// PageCSRFToken returns the token of the page being rendered: the session's when signed in,
// else the anonymous binding's (created on first use).
func (g *Guard) PageCSRFToken(c echo.Context) string {
	if s, ok := g.Current(c.Request()); ok {
		return g.CSRFToken(c.Response(), c.Request(), &s)
	}
	return g.CSRFToken(c.Response(), c.Request(), nil)
}

// CheckPost verifies a POST: origin, and the token of the form field (or the X-CSRF-Token
// header, for scripts). Signed in, only the session's token counts; anonymousForm also accepts
// the anonymous binding, for the sign-in forms.
func (g *Guard) CheckPost(c echo.Context, anonymousForm bool) bool {
	r := c.Request()
	token := r.PostFormValue(views.CSRFField)
	if s, ok := g.Current(r); ok {
		return g.CheckCSRF(r, &s, token, anonymousForm)
	}
	return g.CheckCSRF(r, nil, token, anonymousForm)
}

// RequireCSRF refuses a signed-in POST from another origin or without the session's CSRF token
// with ErrCSRF.
func (g *Guard) RequireCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return g.requirePost(next, false)
}

// RequireSignInCSRF is RequireCSRF for the sign-in forms, which may carry the anonymous
// binding's token.
func (g *Guard) RequireSignInCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return g.requirePost(next, true)
}

func (g *Guard) requirePost(next echo.HandlerFunc, anonymousForm bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !g.CheckPost(c, anonymousForm) {
			return ErrCSRF
		}
		return next(c)
	}
}
