package webguard_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/views"
	"usertasks/webguard"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

var ann = models.Actor{Tenant: "t1", Subject: models.ParticipantRef{Provider: models.DefaultProvider, ID: "ann"},
	DisplayName: "Ann", Permissions: []string{"user-tasks:*"}}

// guarded serves a few routes behind the guard: a page that needs a session, a sign-in form,
// a signed-in post, and the token a page would carry.
func guarded(t *testing.T) *httptest.Server {
	t.Helper()
	g := webguard.New(websessiontest.NewManager(t, websession.Config{Insecure: true}), nil, "/login")
	e := echo.New()
	e.GET("/page", func(c echo.Context) error {
		s, ok := webguard.Session(c)
		current, again := g.Current(c.Request())
		if !ok || !again || current.Subject != s.Subject {
			return c.String(http.StatusInternalServerError, "the guard's session is not the request's")
		}
		return c.String(http.StatusOK, s.Subject)
	}, g.RequireSession)
	e.POST("/sign-in", func(c echo.Context) error {
		if err := g.SignIn(c, ann, models.WebViaDev, models.WebTokens{}); err != nil {
			return err
		}
		if s, ok := webguard.Session(c); !ok || s.Subject != "ann" {
			return c.String(http.StatusInternalServerError, "the new session is not remembered")
		}
		return c.NoContent(http.StatusNoContent)
	}, g.RequireSignInCSRF)
	e.POST("/post", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }, g.RequireSession, g.RequireCSRF)
	e.GET("/token", func(c echo.Context) error { return c.String(http.StatusOK, g.PageCSRFToken(c)) })
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv
}

// browser keeps cookies and does not follow redirects.
func browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func call(t *testing.T, b *http.Client, method, url string, form url.Values) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(form.Encode()))
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(body)
}

func TestRequireSession(t *testing.T) {
	srv := guarded(t)
	b := browser()
	t.Run("AnonymousGetGoesToSignIn", func(t *testing.T) {
		status, location, _ := call(t, b, http.MethodGet, srv.URL+"/page?x=1", nil)
		if status != http.StatusSeeOther || location != "/login?next=%2Fpage%3Fx%3D1" {
			t.Fatalf("%d → %q, want 303 → /login with the page to return to", status, location)
		}
	})
	t.Run("AnonymousPostGoesToSignIn", func(t *testing.T) {
		status, location, _ := call(t, b, http.MethodPost, srv.URL+"/post", url.Values{})
		if status != http.StatusSeeOther || location != "/login" {
			t.Fatalf("%d → %q, want 303 → /login", status, location)
		}
	})
	t.Run("SignedIn/OK", func(t *testing.T) {
		_, _, anonymous := call(t, b, http.MethodGet, srv.URL+"/token", nil)
		if status, _, body := call(t, b, http.MethodPost, srv.URL+"/sign-in", url.Values{views.CSRFField: {anonymous}}); status != http.StatusNoContent {
			t.Fatalf("sign-in: %d %s", status, body)
		}
		if status, _, body := call(t, b, http.MethodGet, srv.URL+"/page", nil); status != http.StatusOK || body != "ann" {
			t.Fatalf("page: %d %q, want ann's", status, body)
		}
	})
}

func TestRequireCSRF(t *testing.T) {
	srv := guarded(t)
	b := browser()
	_, _, anonymous := call(t, b, http.MethodGet, srv.URL+"/token", nil)
	t.Run("ErrSignInWithoutToken", func(t *testing.T) {
		if status, _, _ := call(t, b, http.MethodPost, srv.URL+"/sign-in", url.Values{}); status != http.StatusForbidden {
			t.Fatalf("sign-in without a token: %d, want 403", status)
		}
	})
	if status, _, _ := call(t, b, http.MethodPost, srv.URL+"/sign-in", url.Values{views.CSRFField: {anonymous}}); status != http.StatusNoContent {
		t.Fatalf("sign-in with the anonymous token: %d", status)
	}
	t.Run("ErrAnonymousTokenOnceSignedIn", func(t *testing.T) {
		if status, _, _ := call(t, b, http.MethodPost, srv.URL+"/post", url.Values{views.CSRFField: {anonymous}}); status != http.StatusForbidden {
			t.Fatalf("signed-in post with the anonymous token: %d, want 403", status)
		}
	})
	t.Run("SessionToken/OK", func(t *testing.T) {
		_, _, token := call(t, b, http.MethodGet, srv.URL+"/token", nil)
		if token == anonymous {
			t.Fatal("the signed-in page carries the anonymous token")
		}
		if status, _, _ := call(t, b, http.MethodPost, srv.URL+"/post", url.Values{views.CSRFField: {token}}); status != http.StatusNoContent {
			t.Fatalf("signed-in post with the session's token: %d, want 204", status)
		}
	})
}
