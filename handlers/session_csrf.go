package handlers

import (
	"github.com/labstack/echo/v4"

	"usertasks/views"
)

// CSRF on the pages (the rules are websession's): every page carries the token of its binding
// in <meta name="csrf-token"> and the hidden field of every form; every POST must come from our
// origin and send the token. Refusals are 403.

// csrfToken returns the token of the page being rendered: the session's when signed in, else
// the anonymous binding's (created on first use).
func (s webSessions) csrfToken(c echo.Context) string {
	if d, ok := s.read(c.Request()); ok {
		return s.CSRFToken(c.Response(), c.Request(), &d)
	}
	return s.CSRFToken(c.Response(), c.Request(), nil)
}

// checkCSRF verifies a POST: origin, and the token of the form field (or the X-CSRF-Token
// header, for scripts). Signed in, only the session's token counts; anonymousForm also accepts
// the anonymous binding, for the sign-in forms.
func (s webSessions) checkCSRF(c echo.Context, anonymousForm bool) bool {
	r := c.Request()
	token := r.PostFormValue(views.CSRFField)
	if d, ok := s.read(r); ok {
		return s.CheckCSRF(r, &d, token, anonymousForm)
	}
	return s.CheckCSRF(r, nil, token, anonymousForm)
}
