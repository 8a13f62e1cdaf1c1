package websession_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

// signInOIDC starts an OIDC session holding tokens and returns a request carrying its cookie.
func signInOIDC(t *testing.T, m *websession.Manager, a models.Actor, tokens models.WebTokens) *http.Request {
	t.Helper()
	return startSession(t, m, a, models.WebViaOIDC, tokens)
}

func TestSignOutTokens(t *testing.T) {
	clock := &testfactory.Clock{}
	m := websessiontest.NewManager(t, websession.Config{Store: testfactory.OpenStore(t, testfactory.SQLite, &testfactory.StoreOpts{Clock: clock.Now})})

	t.Run("End", func(t *testing.T) {
		req := signInOIDC(t, m, ann, models.WebTokens{Refresh: "rt-1", ID: "idt-1"})
		out, err := m.End(httptest.NewRecorder(), req)
		if err != nil || out.Sessions != 1 || out.Via != models.WebViaOIDC || out.IDToken != "idt-1" || !slices.Equal(out.RefreshTokens, []string{"rt-1"}) {
			t.Fatalf("sign-out %+v, %v", out, err)
		}
		// A copy of the cookie ends nothing more: the tokens are given out once.
		if out, err := m.End(httptest.NewRecorder(), req); err != nil || out.Sessions != 0 || out.IDToken != "" || len(out.RefreshTokens) != 0 {
			t.Fatalf("second sign-out %+v, %v", out, err)
		}
	})
	t.Run("EndWithoutSession", func(t *testing.T) {
		rec := httptest.NewRecorder()
		out, err := m.End(rec, httptest.NewRequest(http.MethodPost, "/logout", nil))
		if err != nil || out.Sessions != 0 || out.Via != "" {
			t.Fatalf("sign-out without a session %+v, %v", out, err)
		}
		if c := rec.Result().Cookies(); len(c) != 1 || c[0].MaxAge >= 0 {
			t.Fatalf("cookies %v, want the session cookie cleared", c)
		}
	})
	t.Run("EndDevSession", func(t *testing.T) {
		out, err := m.End(httptest.NewRecorder(), signIn(t, m, ann, models.WebViaDev))
		if err != nil || out.Sessions != 1 || out.Via != models.WebViaDev || out.IDToken != "" || len(out.RefreshTokens) != 0 {
			t.Fatalf("dev sign-out %+v, %v", out, err)
		}
	})
	t.Run("RefreshReplacesTokens", func(t *testing.T) {
		m.SetIdentitySource(models.WebViaOIDC, &identities{next: func(ws models.WebSession) (models.WebIdentity, error) { return ws.WebIdentity, nil },
			tokens: models.WebTokens{Refresh: "rt-rotated", ID: "idt-fresh"}})
		req := signInOIDC(t, m, ann, models.WebTokens{Refresh: "rt-2", ID: "idt-2"})
		clock.Advance(websession.DefaultRefreshInterval)
		if _, err := m.Read(req); err != nil {
			t.Fatal(err)
		}
		out, err := m.End(httptest.NewRecorder(), req)
		if err != nil || out.IDToken != "idt-fresh" || !slices.Equal(out.RefreshTokens, []string{"rt-rotated"}) {
			t.Fatalf("sign-out after a refresh %+v, %v", out, err)
		}
	})
	t.Run("EndEverywhere", func(t *testing.T) {
		bob := ann
		bob.Subject.ID = "bob"
		laptop := signInOIDC(t, m, ann, models.WebTokens{Refresh: "rt-laptop", ID: "idt-laptop"})
		signInOIDC(t, m, ann, models.WebTokens{Refresh: "rt-phone", ID: "idt-phone"})
		signInOIDC(t, m, ann, models.WebTokens{ID: "idt-no-refresh"})
		signIn(t, m, ann, models.WebViaDev)
		other := signInOIDC(t, m, bob, models.WebTokens{Refresh: "rt-bob", ID: "idt-bob"})
		s, err := m.Read(laptop)
		if err != nil {
			t.Fatal(err)
		}
		out, err := m.EndEverywhere(httptest.NewRecorder(), laptop, s)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(out.RefreshTokens)
		if out.Sessions != 4 || out.Via != models.WebViaOIDC || out.IDToken != "idt-laptop" || !slices.Equal(out.RefreshTokens, []string{"rt-laptop", "rt-phone"}) {
			t.Fatalf("sign-out everywhere %+v", out)
		}
		if _, err := m.Read(other); err != nil {
			t.Fatalf("another person's session ended: %v", err)
		}
	})
}
