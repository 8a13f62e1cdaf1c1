package websession_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

// fuzzManager is a session manager (production cookie names, base URL https://tasks.example)
// with one signed-in session: it returns the manager, the session and its cookie value.
func fuzzManager(f *testing.F) (*websession.Manager, websession.Session, string) {
	f.Helper()
	m := websessiontest.NewManager(f, websession.Config{BaseURL: "https://tasks.example"})
	rec := httptest.NewRecorder()
	s, err := m.Start(rec, httptest.NewRequest(http.MethodPost, "/login/dev", nil), ann, "dev", models.WebTokens{})
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == m.CookieName(websession.SessionCookie) {
			return m, s, c.Value
		}
	}
	f.Fatal("no session cookie")
	return nil, websession.Session{}, ""
}

// FuzzSessionCookie reads any Cookie header ("$SESSION" stands for the live session's cookie
// value): the session is found exactly when the header carries that value under the session
// cookie's name; anything else is ErrUnauthorized. Sealed cookies of any value do not open.
func FuzzSessionCookie(f *testing.F) {
	m, live, value := fuzzManager(f)
	name := m.CookieName(websession.SessionCookie)
	f.Add(name + "=$SESSION")
	f.Add(name + "=$SESSION; " + name + "=x")
	f.Add(name + "=\"$SESSION\"")
	f.Add(name + "=$SESSION=")
	f.Add("ut_session=" + strings.Repeat("A", 43))
	f.Add(name + "=" + strings.Repeat("_", 43) + "; ut_flash=MTcwMDAwMDAwMHxabc|xyz")
	f.Add("ut_flash=\x00\xff; ; =;" + name)

	f.Fuzz(func(t *testing.T, header string) {
		header = strings.ReplaceAll(header, "$SESSION", value)
		r := httptest.NewRequest(http.MethodGet, "/inbox", nil)
		r.Header.Set("Cookie", header)
		got, err := m.Read(r)
		sent, _ := r.Cookie(name)
		want := sent != nil && sent.Value == value
		switch {
		case want && (err != nil || got.Identity().Actor().Subject.ID != live.Actor().Subject.ID):
			t.Fatalf("Read(%q) = %+v, %v; want the live session", header, got, err)
		case !want && !errors.Is(err, models.ErrUnauthorized):
			t.Fatalf("Read(%q) = %+v, %v; want ErrUnauthorized", header, got, err)
		}
		var flash map[string]string
		if m.Open(r, "ut_flash", &flash) {
			t.Fatalf("Open(%q) opened a cookie nobody sealed: %v", header, flash)
		}
	})
}

// FuzzCSRFToken checks any submitted token against a signed-in session, the anonymous binding
// of a cookie and a guest session, from any origin: a check passes only for a request
// SameOrigin admits, carrying exactly the token of that binding.
func FuzzCSRFToken(f *testing.F) {
	m, live, _ := fuzzManager(f)
	sessionToken := m.CSRFToken(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil), &live)
	const credentialHash = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
	guestToken := m.GuestCSRFToken(credentialHash)
	binding := websession.RandomToken()
	f.Add("$SESSION", "https://tasks.example", "same-origin", "", true)
	f.Add("$ANON", "", "", binding, false)
	f.Add("$GUEST", "null", "same-origin", binding, false)
	f.Add("$SESSION", "https://evil.example", "cross-site", "", true)
	f.Add("$SESSION ", "HTTPS://TASKS.EXAMPLE:443/", "none", "short", true)
	f.Add("$ANON", "https://tasks.example.evil", "same-site", binding+"x", false)
	f.Add("", "null", "", "", false)

	f.Fuzz(func(t *testing.T, token, origin, fetchSite, cookie string, signedIn bool) {
		r := httptest.NewRequest(http.MethodPost, "https://tasks.example/tasks/1/claim", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if fetchSite != "" {
			r.Header.Set("Sec-Fetch-Site", fetchSite)
		}
		if cookie != "" {
			r.AddCookie(&http.Cookie{Name: m.CookieName(websession.CSRFCookie), Value: cookie})
		}
		anonToken := ""
		if sent, err := r.Cookie(m.CookieName(websession.CSRFCookie)); err == nil && len(sent.Value) >= 32 {
			anonToken = m.CSRFToken(httptest.NewRecorder(), r, nil)
		}
		token = strings.NewReplacer("$SESSION", sessionToken, "$ANON", anonToken, "$GUEST", guestToken).Replace(token)
		var s *websession.Session
		if signedIn {
			s = &live
		}
		sameOrigin := m.SameOrigin(r)
		if sameOrigin && fetchSite != "" && fetchSite != "same-origin" && fetchSite != "none" {
			t.Fatalf("SameOrigin admits Sec-Fetch-Site %q", fetchSite)
		}
		for _, anonymousForm := range []bool{false, true} {
			want := sameOrigin && token != "" &&
				((signedIn && token == sessionToken) || (anonymousForm && anonToken != "" && token == anonToken))
			if got := m.CheckCSRF(r, s, token, anonymousForm); got != want {
				t.Fatalf("CheckCSRF(token %q, origin %q, site %q, binding %q, signed in %v, anonymous form %v) = %v, want %v",
					token, origin, fetchSite, cookie, signedIn, anonymousForm, got, want)
			}
		}
		if m.CheckGuestCSRF(r, credentialHash, token) && token != guestToken {
			t.Fatalf("CheckGuestCSRF passed token %q", token)
		}
		if m.CheckGuestVerifyCSRF(r, token) && (anonToken == "" || token != anonToken) {
			t.Fatalf("CheckGuestVerifyCSRF passed token %q for binding %q", token, cookie)
		}
	})
}
