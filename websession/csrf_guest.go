package websession

import "net/http"

// The guest pages (SPEC 5.4 /guest) differ from the others in two ways.
//
// Their forms are not signed in, yet once verified a guest session is open: the task form
// carries a token bound to that session, a third kind beside "session" and "anonymous". The
// binding is the guest session credential's hash, so the token changes with every guest session,
// a value planted in the unsigned ut_csrf cookie authorizes nothing there, and no guest token
// ever equals a token of the other two kinds. The verification form, before any session,
// carries the anonymous binding's token.
//
// They send no referrer at all (Referrer-Policy: no-referrer, as their first URL holds the
// invitation token), and browsers then send "Origin: null" with their form posts. A post the
// browser itself marks Sec-Fetch-Site: same-origin (a header no page can set) therefore passes
// with that null origin; every other provenance is judged as SameOrigin judges it.

// GuestCSRFToken is the token of the pages of the guest session whose credential hashes to
// credentialHash.
func (m *Manager) GuestCSRFToken(credentialHash string) string {
	return m.tokenFor("guest", credentialHash)
}

// CheckGuestCSRF verifies a guest page's post in a guest session: our origin and the token of
// that guest session.
func (m *Manager) CheckGuestCSRF(r *http.Request, credentialHash, formToken string) bool {
	return credentialHash != "" && m.guestSameOrigin(r) && m.validToken("guest", credentialHash, formToken)
}

// CheckGuestVerifyCSRF verifies the guest verification post: our origin and the token of the
// anonymous binding (CSRFToken with no session).
func (m *Manager) CheckGuestVerifyCSRF(r *http.Request, formToken string) bool {
	return m.guestSameOrigin(r) && m.validToken("anonymous", m.cookieValue(r, CSRFCookie), formToken)
}

// guestSameOrigin is SameOrigin for pages without a referrer.
func (m *Manager) guestSameOrigin(r *http.Request) bool {
	if origin := r.Header.Values("Origin"); len(origin) == 1 && origin[0] == "null" && r.Header.Get("Sec-Fetch-Site") == "same-origin" {
		return true
	}
	return m.SameOrigin(r)
}
