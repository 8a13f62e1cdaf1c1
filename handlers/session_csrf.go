package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/views"
)

// CSRF protection of every form POST: a synchronizer token derived from what binds the browser
// — the session id when signed in, otherwise a random value in the ut_csrf cookie (for the
// sign-in forms) — as HMAC-SHA256 under a key derived from the session secret. A cross-site page
// can make the browser send the cookies but can neither read nor compute the token. Requests the
// browser marks `Sec-Fetch-Site: cross-site` are refused outright. Refusals are 403.

// csrfBindingLifetime is how long the anonymous binding cookie lives.
const csrfBindingLifetime = 12 * time.Hour

// csrfToken returns the token for the page being rendered, creating the anonymous binding
// cookie when the browser has no session and no binding yet.
func (s *Sessions) csrfToken(c echo.Context) string {
	if d, ok := s.read(c.Request()); ok {
		return s.tokenFor(d.ID)
	}
	if ck, err := c.Request().Cookie(csrfCookieName); err == nil && len(ck.Value) >= 32 {
		return s.tokenFor(ck.Value)
	}
	binding := randomToken()
	c.SetCookie(s.cookie(csrfCookieName, binding, csrfBindingLifetime))
	// Later code in this request (a second render) must see the same binding.
	c.Request().AddCookie(&http.Cookie{Name: csrfCookieName, Value: binding})
	return s.tokenFor(binding)
}

// tokenFor is the token of one binding.
func (s *Sessions) tokenFor(binding string) string {
	mac := hmac.New(sha256.New, s.csrfKey)
	mac.Write([]byte("csrf\x00" + binding))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// validCSRF compares a submitted token with the binding's, in constant time.
func (s *Sessions) validCSRF(binding, token string) bool {
	if binding == "" || token == "" {
		return false
	}
	return hmac.Equal([]byte(token), []byte(s.tokenFor(binding)))
}

// checkCSRF verifies a POST's token (the form field, or the X-CSRF-Token header for scripts)
// against the request's bindings: the session, or the anonymous ut_csrf cookie.
func (s *Sessions) checkCSRF(r *http.Request) bool {
	if crossSite(r) {
		return false
	}
	token := r.PostFormValue(views.CSRFField)
	if token == "" {
		token = r.Header.Get(echo.HeaderXCSRFToken)
	}
	if d, ok := s.read(r); ok && s.validCSRF(d.ID, token) {
		return true
	}
	// A form rendered before signing in (in another tab, say) carries the anonymous binding.
	ck, err := r.Cookie(csrfCookieName)
	return err == nil && s.validCSRF(ck.Value, token)
}
