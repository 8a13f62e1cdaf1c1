package e2e

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/oidclogin"
)

// TestOIDCRefreshAgainstProvider runs oidclogin's flow against the same provider as
// TestOIDCSignIn without a browser (an HTTP client fills in the login page), for what the
// browser suite cannot wait for: the re-reading of a session's identity through the refresh
// token (SPEC 5.4), which the app does at most once a minute. The provider rotates refresh
// tokens: the rotated one is returned for storing and the old one stops working; a revoked one
// stops working too.
func TestOIDCRefreshAgainstProvider(t *testing.T) {
	const appBase = "http://app.invalid"
	provider := startIDP(t, appBase)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	login, err := oidclogin.New(ctx, oidclogin.Config{Issuer: provider.URL, ClientID: idpClientID, ClientSecret: idpClientSecret,
		RedirectURL: appBase + "/login/oidc/callback"})
	if err != nil {
		t.Fatal(err)
	}
	st, authURL := login.Start("/inbox")
	a, tokens, err := login.Finish(ctx, st, provider.signInHTTP(t, appBase, authURL))
	if err != nil {
		t.Fatalf("sign-in: %v", err)
	}
	if a.Tenant != "acme" || a.Subject.ID != idpUser || a.DisplayName != "Ben Brooks" || !slices.Contains(a.Permissions, "user-tasks:claim") {
		t.Errorf("signed in as %+v, want ben of acme, Ben Brooks, with the worker's permissions", a)
	}
	refresh := tokens.Refresh
	if refresh == "" {
		t.Fatal("no refresh token: the session would end at its first refresh")
	}

	id, renewed, err := login.Refresh(ctx, models.WebSession{RefreshToken: refresh})
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if want := models.IdentityOf(a); !reflect.DeepEqual(id, want) {
		t.Errorf("refreshed identity %+v, want the signed-in one %+v", id, want)
	}
	rotated := renewed.Refresh
	if rotated == "" || rotated == refresh {
		t.Fatalf("the provider rotates refresh tokens, but Refresh returned %q for storing", rotated)
	}
	if _, _, err := login.Refresh(ctx, models.WebSession{RefreshToken: refresh}); err == nil {
		t.Error("the replaced refresh token still works")
	}
	_, again, err := login.Refresh(ctx, models.WebSession{RefreshToken: rotated})
	if err != nil || again.Refresh == "" || again.ID == "" {
		t.Fatalf("refresh with the rotated token: %+v, %v", again, err)
	}
	// The sign-out revokes the session's refresh token (RFC 7009): the provider refuses it after.
	if err := login.RevokeRefreshTokens(ctx, []string{again.Refresh}); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	if _, _, err := login.Refresh(ctx, models.WebSession{RefreshToken: again.Refresh}); err == nil {
		t.Error("the revoked refresh token still works")
	}
	if _, _, err := login.Refresh(ctx, models.WebSession{RefreshToken: "not-a-token"}); err == nil {
		t.Error("a made-up refresh token was accepted")
	}
}

// signInHTTP signs the provider's user in from authURL with a plain HTTP client, as the
// browser does in TestOIDCSignIn, and returns the query of the redirect back to the app.
func (p *idp) signInHTTP(t *testing.T, appBase, authURL string) url.Values {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), appBase) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	res, err := client.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	id := res.Request.URL.Query().Get("authRequestID")
	if res.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("the authorization request led to %d at %s, want the provider's login page", res.StatusCode, res.Request.URL)
	}
	res, err = client.PostForm(p.URL+"/login/username", url.Values{"id": {id}, "username": {idpUser}, "password": {idpPassword}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	back, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound || !strings.HasPrefix(back.String(), appBase+"/login/oidc/callback") {
		t.Fatalf("the login led to %d %q, want a redirect to the app's callback", res.StatusCode, res.Header.Get("Location"))
	}
	return back.Query()
}
