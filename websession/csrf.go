package websession

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// CSRF protection of every state-changing request, in two layers:
//
//   - Where it came from: a request the browser marks Sec-Fetch-Site cross-site or same-site
//     (a sibling subdomain is not us), or whose Origin header is present and not our origin, is
//     refused. Our origin is the configured base URL's; in dev mode, or without a base URL, also
//     the origin the request itself addresses (scheme and Host).
//   - A synchronizer token: HMAC-SHA256, under a key derived from the first secret, of what binds
//     the browser. Signed in, that is the session (its id hash) and nothing else. Before signing
//     in it is a random value in the ut_csrf cookie, accepted only by the sign-in forms: that
//     cookie carries no signature, and a value a sibling site planted must never authorize
//     anything a signed-in person can do.
//
// The two bindings are domain-separated, so no anonymous token ever equals a session token.

// csrfBindingLifetime is how long the anonymous binding cookie lives.
const csrfBindingLifetime = 12 * time.Hour

// CSRFToken returns the token for a page rendered for s (nil: nobody signed in). Anonymous
// pages get the token of the ut_csrf binding, which is created (and set on w) when missing.
func (m *Manager) CSRFToken(w http.ResponseWriter, r *http.Request, s *Session) string {
	if s != nil {
		return m.tokenFor("session", s.idHash)
	}
	if binding := m.cookieValue(r, CSRFCookie); len(binding) >= 32 {
		return m.tokenFor("anonymous", binding)
	}
	binding := RandomToken()
	http.SetCookie(w, m.Cookie(CSRFCookie, binding, csrfBindingLifetime))
	// A second render in this request must see the same binding.
	r.AddCookie(&http.Cookie{Name: m.CookieName(CSRFCookie), Value: binding})
	return m.tokenFor("anonymous", binding)
}

// tokenFor is the token of one binding of one kind.
func (m *Manager) tokenFor(kind, binding string) string {
	mac := hmac.New(sha256.New, m.csrfKey)
	mac.Write([]byte("csrf\x00" + kind + "\x00" + binding))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// validToken compares a submitted token with the binding's, in constant time.
func (m *Manager) validToken(kind, binding, token string) bool {
	if binding == "" || token == "" {
		return false
	}
	return hmac.Equal([]byte(token), []byte(m.tokenFor(kind, binding)))
}

// CheckCSRF verifies a state-changing request: its origin, and its token (the given form
// value, else the X-CSRF-Token header). Signed in (s non-nil), only the session's token counts.
// anonymousForm allows the anonymous binding, for the sign-in forms only.
func (m *Manager) CheckCSRF(r *http.Request, s *Session, formToken string, anonymousForm bool) bool {
	if !m.SameOrigin(r) {
		return false
	}
	token := formToken
	if token == "" {
		token = r.Header.Get("X-CSRF-Token")
	}
	if s != nil && m.validToken("session", s.idHash, token) {
		return true
	}
	return anonymousForm && m.validToken("anonymous", m.cookieValue(r, CSRFCookie), token)
}

// SameOrigin reports whether a request may change state as far as its provenance tells:
// neither Sec-Fetch-Site nor Origin names another site. A request without either (a non-browser
// client, an old browser) passes here and still needs its token.
func (m *Manager) SameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default: // cross-site, same-site, or anything unknown
		return false
	}
	origin, present := r.Header["Origin"]
	if !present {
		return true
	}
	if len(origin) != 1 {
		return false
	}
	got := normalizeOrigin(origin[0])
	if got == "" {
		return false // "null" (sandboxed frames, some redirects) and anything unparsable
	}
	if m.origin != "" && got == m.origin {
		return true
	}
	return m.hostOrigins && got == requestOrigin(r)
}

// requestOrigin is the origin the request addresses: its scheme and Host.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return normalizeOrigin(scheme + "://" + r.Host)
}

// normalizeOrigin reduces a URL to its origin as browsers serialize it (lower-case scheme and
// host, default port dropped); "" for anything that is not an http(s) origin.
func normalizeOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // IPv6 literal
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

// originOf is the origin of the configured base URL (which may carry a path).
func originOf(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	return normalizeOrigin(u.Scheme + "://" + u.Host)
}
