package websession_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

func TestGuestCSRFBinding(t *testing.T) {
	m := websessiontest.NewManager(t, websession.Config{})
	// Credential hashes are 64 hex digits; the anonymous binding takes values of 32 bytes or more.
	guest, otherGuest := strings.Repeat("a1", 32), strings.Repeat("b2", 32)
	token := m.GuestCSRFToken(guest)
	post := httptest.NewRequest(http.MethodPost, "/guest/complete", nil)

	t.Run("OK", func(t *testing.T) {
		if !m.CheckGuestCSRF(post, guest, token) {
			t.Fatal("the guest session's own token refused")
		}
	})
	t.Run("OtherGuestSession", func(t *testing.T) {
		if m.CheckGuestCSRF(post, otherGuest, token) || m.CheckGuestCSRF(post, "", token) {
			t.Fatal("a guest token accepted for another or no guest session")
		}
	})
	t.Run("MissingOrAltered", func(t *testing.T) {
		if m.CheckGuestCSRF(post, guest, "") || m.CheckGuestCSRF(post, guest, token+"x") {
			t.Fatal("a missing or altered token accepted")
		}
	})
	t.Run("CrossOrigin", func(t *testing.T) {
		cross := httptest.NewRequest(http.MethodPost, "/guest/complete", nil)
		cross.Header.Set("Sec-Fetch-Site", "cross-site")
		if m.CheckGuestCSRF(cross, guest, token) {
			t.Fatal("a cross-site post accepted")
		}
	})
	t.Run("NullOriginSameOrigin", func(t *testing.T) {
		// No referrer: the browser sends Origin: null, and marks its own post same-origin.
		req := httptest.NewRequest(http.MethodPost, "/guest/complete", nil)
		req.Header.Set("Origin", "null")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		if !m.CheckGuestCSRF(req, guest, token) {
			t.Fatal("a same-origin post without a referrer refused")
		}
		for name, site := range map[string]string{"NoFetchMetadata": "", "CrossSite": "cross-site", "SameSite": "same-site", "None": "none"} {
			req.Header.Set("Sec-Fetch-Site", site)
			if m.CheckGuestCSRF(req, guest, token) {
				t.Errorf("%s: a null origin accepted", name)
			}
		}
		if m.CheckCSRF(req, nil, token, true) {
			t.Fatal("the signed-in pages accept a null origin")
		}
	})
	t.Run("Verification", func(t *testing.T) {
		page := httptest.NewRequest(http.MethodGet, "/guest", nil)
		rec := httptest.NewRecorder()
		anonToken := m.CSRFToken(rec, page, nil)
		form := httptest.NewRequest(http.MethodPost, "/guest/verify", nil)
		for _, c := range rec.Result().Cookies() {
			form.AddCookie(c)
		}
		form.Header.Set("Origin", "null")
		form.Header.Set("Sec-Fetch-Site", "same-origin")
		if !m.CheckGuestVerifyCSRF(form, anonToken) {
			t.Fatal("the anonymous binding's token refused")
		}
		if m.CheckGuestVerifyCSRF(form, "") || m.CheckGuestVerifyCSRF(form, anonToken+"x") || m.CheckGuestVerifyCSRF(form, token) {
			t.Fatal("a missing, altered or guest session token accepted")
		}
		form.Header.Set("Sec-Fetch-Site", "cross-site")
		if m.CheckGuestVerifyCSRF(form, anonToken) {
			t.Fatal("a cross-site verification accepted")
		}
	})
	t.Run("KindsSeparated", func(t *testing.T) {
		// An anonymous binding with the same value never yields the guest token, nor the reverse.
		anon := httptest.NewRequest(http.MethodGet, "/guest", nil)
		anon.AddCookie(&http.Cookie{Name: m.CookieName(websession.CSRFCookie), Value: guest})
		anonToken := m.CSRFToken(httptest.NewRecorder(), anon, nil)
		if anonToken == token || m.CheckGuestCSRF(post, guest, anonToken) {
			t.Fatal("an anonymous token accepted as a guest token")
		}
		form := httptest.NewRequest(http.MethodPost, "/login/dev", nil)
		form.AddCookie(&http.Cookie{Name: m.CookieName(websession.CSRFCookie), Value: guest})
		if m.CheckCSRF(form, nil, token, true) {
			t.Fatal("a guest token accepted on a sign-in form")
		}
		req := signIn(t, m, ann, models.WebViaDev)
		s, err := m.Read(req)
		if err != nil {
			t.Fatal(err)
		}
		if m.CheckCSRF(post, &s, token, false) {
			t.Fatal("a guest token accepted for a signed-in action")
		}
	})
}
