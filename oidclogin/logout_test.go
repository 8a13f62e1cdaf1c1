package oidclogin_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/auth"
	"usertasks/oidclogin"
	"usertasks/oidclogin/oidctest"
)

// logoutLogin discovers idp (its sign-out endpoints arranged first) as a client with secret.
func logoutLogin(t *testing.T, idp *oidctest.Provider, secret, postLogout string) *oidclogin.Login {
	t.Helper()
	login, err := oidclogin.New(context.Background(), oidclogin.Config{
		Issuer: idp.URL(), ClientID: "web-client", ClientSecret: secret, RedirectURL: "https://tasks.example/login/oidc/callback",
		PostLogoutRedirectURL: postLogout, Mapping: auth.DefaultConfig(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return login
}

// issuedRefreshToken signs in once and returns the refresh token the provider issued.
func issuedRefreshToken(t *testing.T, idp *oidctest.Provider, login *oidclogin.Login) string {
	t.Helper()
	idp.SetClaims(map[string]any{"sub": "u-42", "tenant": "acme"})
	st, target := login.Start("")
	_, tokens, err := login.Finish(context.Background(), st, idp.Authorize(t, target))
	if err != nil || tokens.Refresh == "" {
		t.Fatalf("sign-in: %+v, %v", tokens, err)
	}
	return tokens.Refresh
}

func TestRevokeRefreshTokens(t *testing.T) {
	t.Run("BasicByDefault", func(t *testing.T) {
		idp := oidctest.NewProvider(t)
		login := logoutLogin(t, idp, "pa:ss&word=", "")
		token := issuedRefreshToken(t, idp, login)
		if err := login.RevokeRefreshTokens(context.Background(), []string{token}); err != nil {
			t.Fatal(err)
		}
		revs := idp.Revocations()
		if len(revs) != 1 {
			t.Fatalf("%d revocations, want 1", len(revs))
		}
		r := revs[0]
		want := url.Values{"token": {token}, "token_type_hint": {"refresh_token"}}
		if r.Form.Encode() != want.Encode() || !r.BasicAuth || r.User != "web-client" || r.Password != url.QueryEscape("pa:ss&word=") {
			t.Fatalf("revocation form %v, basic %v %q/%q; want %v with the client in HTTP Basic", r.Form, r.BasicAuth, r.User, r.Password, want)
		}
		if idp.Redeemable(token) {
			t.Error("the provider still redeems the revoked token")
		}
	})
	t.Run("PostWhenTheProviderTakesOnlyThat", func(t *testing.T) {
		idp := oidctest.NewProvider(t)
		idp.SetRevocationAuthMethods("client_secret_post")
		login := logoutLogin(t, idp, "secret", "")
		if err := login.RevokeRefreshTokens(context.Background(), []string{"rt-a", "rt-b"}); err != nil {
			t.Fatal(err)
		}
		revs := idp.Revocations()
		if len(revs) != 2 || revs[1].Form.Get("token") != "rt-b" {
			t.Fatalf("revocations %+v, want one per token", revs)
		}
		for _, r := range revs {
			if r.BasicAuth || r.Form.Get("client_id") != "web-client" || r.Form.Get("client_secret") != "secret" {
				t.Errorf("revocation basic %v, form %v: want client_id and client_secret in the form only", r.BasicAuth, r.Form)
			}
		}
	})
	t.Run("PublicClientSendsItsID", func(t *testing.T) {
		idp := oidctest.NewProvider(t)
		login := logoutLogin(t, idp, "", "")
		if err := login.RevokeRefreshTokens(context.Background(), []string{"rt-a"}); err != nil {
			t.Fatal(err)
		}
		if r := idp.Revocations()[0]; r.BasicAuth || r.Form.Get("client_id") != "web-client" || r.Form.Has("client_secret") {
			t.Fatalf("revocation basic %v, form %v: want client_id alone", r.BasicAuth, r.Form)
		}
	})
	t.Run("GoesOnWhenTheRequestIsGone", func(t *testing.T) {
		// The person closed the tab: the request's context ends, the revocation still runs.
		idp := oidctest.NewProvider(t)
		login := logoutLogin(t, idp, "secret", "")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := login.RevokeRefreshTokens(ctx, []string{"rt-a"}); err != nil || len(idp.Revocations()) != 1 {
			t.Fatalf("revocation after the request ended: %v, %d requests", err, len(idp.Revocations()))
		}
	})
	t.Run("ErrProviderRefusesWithoutTheToken", func(t *testing.T) {
		idp := oidctest.NewProvider(t)
		idp.FailRevocations(http.StatusUnauthorized)
		login := logoutLogin(t, idp, "secret", "")
		err := login.RevokeRefreshTokens(context.Background(), []string{"rt-secret-1", "rt-secret-2"})
		if err == nil || !strings.Contains(err.Error(), "401") {
			t.Fatalf("err = %v, want the provider's 401", err)
		}
		if strings.Contains(err.Error(), "rt-secret") {
			t.Fatalf("the error holds a token: %v", err)
		}
		if len(idp.Revocations()) != 2 {
			t.Fatalf("%d revocations, want both tried", len(idp.Revocations()))
		}
	})
	t.Run("NoEndpoint", func(t *testing.T) {
		idp := oidctest.NewProvider(t)
		idp.WithoutLogout()
		login := logoutLogin(t, idp, "secret", "")
		if err := login.RevokeRefreshTokens(context.Background(), []string{"rt-a"}); err != nil || len(idp.Revocations()) != 0 {
			t.Fatalf("revocation without an endpoint: %v, %d requests", err, len(idp.Revocations()))
		}
	})
}

func TestEndSessionURL(t *testing.T) {
	idp := oidctest.NewProvider(t)
	const postLogout = "https://tasks.example/login?next=/inbox&q=a b&evil=\"><script>"
	login := logoutLogin(t, idp, "secret", postLogout)

	t.Run("WithHint", func(t *testing.T) {
		target, ok := login.EndSessionURL("header.pay.load")
		if !ok || !strings.HasPrefix(target, idp.URL()+"/end_session?") || strings.ContainsAny(target, " <>\"") {
			t.Fatalf("end-session URL %q, %v", target, ok)
		}
		u, _ := url.Parse(target)
		q := u.Query()
		if len(q) != 4 || q.Get("tenant") != "acme" || q.Get("id_token_hint") != "header.pay.load" ||
			q.Get("post_logout_redirect_uri") != postLogout || len(q.Get("state")) != 43 {
			t.Fatalf("end-session query %v", q)
		}
		again, _ := login.EndSessionURL("header.pay.load")
		if a, _ := url.Parse(again); a.Query().Get("state") == q.Get("state") {
			t.Error("the state repeats")
		}
	})
	t.Run("WithoutHint", func(t *testing.T) {
		target, _ := login.EndSessionURL("")
		u, _ := url.Parse(target)
		if q := u.Query(); q.Has("id_token_hint") || q.Get("client_id") != "web-client" {
			t.Fatalf("end-session query without an ID token %v, want client_id", q)
		}
	})
	t.Run("NoEndpoint", func(t *testing.T) {
		other := oidctest.NewProvider(t)
		other.WithoutLogout()
		none := logoutLogin(t, other, "secret", postLogout)
		if target, ok := none.EndSessionURL("header.pay.load"); ok || target != "" || none.EndSessionOrigin() != "" {
			t.Fatalf("end-session URL %q, %v without an endpoint", target, ok)
		}
	})
	if got := login.EndSessionOrigin(); got != idp.URL() {
		t.Errorf("end-session origin %q, want %q", got, idp.URL())
	}
}

func TestNewRefusesPostLogoutRedirectURLs(t *testing.T) {
	idp := oidctest.NewProvider(t)
	for _, bad := range []string{"/login", "javascript:alert(1)", "https://tasks.example/login#frag", "https://user:pw@tasks.example/", "tasks.example/login", "https:///login"} {
		_, err := oidclogin.New(context.Background(), oidclogin.Config{
			Issuer: idp.URL(), ClientID: "web-client", RedirectURL: "https://tasks.example/login/oidc/callback", PostLogoutRedirectURL: bad,
		})
		if err == nil {
			t.Errorf("post-logout redirect URL %q accepted", bad)
		}
	}
}
