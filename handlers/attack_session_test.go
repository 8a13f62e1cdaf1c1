package handlers_test

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/websession"
)

// TestAttackSessionFixation: a session id planted in a browser before its user signs in — one
// the attacker made up, or one of the attacker's that has ended — is never adopted. Signing in
// issues a new id, and the planted one does not become the victim's session.
func TestAttackSessionFixation(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{dev: true})
	attacker := f.signIn(t, "bob")
	ended := attacker.cookie(websession.SessionCookie).Value
	attacker.post("/logout", url.Values{"csrf_token": {attacker.get("/inbox").csrf()}}).wantStatus(http.StatusSeeOther)
	raw := make([]byte, 32)
	rand.Read(raw)
	for name, planted := range map[string]string{
		"MadeUp":         base64.RawURLEncoding.EncodeToString(raw),
		"AttackersEnded": ended,
	} {
		t.Run(name, func(t *testing.T) {
			victim := f.browser(t)
			plant(t, victim, planted)
			victim.signIn("ann")
			got := victim.cookie(websession.SessionCookie)
			if got == nil || got.Value == planted {
				t.Fatalf("the session id after sign-in is the planted one (%v)", got)
			}
			if who := wantSignedIn(t, victim).text("user-name"); !strings.Contains(who, "Ann Approver") {
				t.Fatalf("the victim is signed in as %q", who)
			}
			thief := f.browser(t)
			plant(t, thief, planted)
			wantSignedOut(t, thief)
		})
	}
}

// plant sets the session cookie of b to value, as an attacker with a foothold on the site's
// domain could.
func plant(t *testing.T, b *webBrowser, value string) {
	t.Helper()
	b.client.Jar.SetCookies(mustURL(t, b.f.srv.URL), []*http.Cookie{{Name: websession.SessionCookie, Value: value, Path: "/"}})
}
