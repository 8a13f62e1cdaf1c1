package websession

import "net/http"

// A guest page (SPEC 5.4 /guest) is not signed in, yet a guest session is open: its forms carry
// a token bound to that session, a third kind beside "session" and "anonymous". The binding is
// the guest session credential's hash, so the token changes with every guest session, a value
// planted in the unsigned ut_csrf cookie authorizes nothing here, and no guest token ever equals
// a token of the other two kinds.

// GuestCSRFToken is the token of the pages of the guest session whose credential hashes to
// credentialHash.
func (m *Manager) GuestCSRFToken(credentialHash string) string {
	return m.tokenFor("guest", credentialHash)
}

// CheckGuestCSRF verifies a guest page's post: our origin and the token of that guest session.
func (m *Manager) CheckGuestCSRF(r *http.Request, credentialHash, formToken string) bool {
	if credentialHash == "" || !m.SameOrigin(r) {
		return false
	}
	return m.validToken("guest", credentialHash, formToken)
}
