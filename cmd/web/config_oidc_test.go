package main

import (
	"strings"
	"testing"
)

func TestLoadConfigOIDCPostLogoutRedirect(t *testing.T) {
	oidc := map[string]string{
		"USERTASKS_BASE_URL": "https://tasks.example/", "USERTASKS_OIDC_ISSUER": "https://idp.example", "USERTASKS_OIDC_CLIENT_ID": "web",
	}
	t.Run("DefaultsToTheLoginPage", func(t *testing.T) {
		cfg, err := loadConfig(env(productionVarsWith(t, oidc)), true)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := cfg.OIDC.PostLogoutRedirectURL, "https://tasks.example/login"; got != want {
			t.Fatalf("post-logout redirect %q, want %q", got, want)
		}
		if got, want := cfg.OIDC.RedirectURL, "https://tasks.example/login/oidc/callback"; got != want {
			t.Fatalf("callback %q, want %q", got, want)
		}
	})
	t.Run("Configured", func(t *testing.T) {
		vars := productionVarsWith(t, oidc)
		vars["USERTASKS_OIDC_POST_LOGOUT_REDIRECT_URL"] = "https://portal.example/signed-out?app=tasks"
		cfg, err := loadConfig(env(vars), true)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.OIDC.PostLogoutRedirectURL; got != "https://portal.example/signed-out?app=tasks" {
			t.Fatalf("post-logout redirect %q", got)
		}
	})
	t.Run("NoIssuer", func(t *testing.T) {
		cfg, err := loadConfig(env(productionVarsWith(t, map[string]string{"USERTASKS_OIDC_POST_LOGOUT_REDIRECT_URL": "https://portal.example/"})), true)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.OIDC.PostLogoutRedirectURL != "" {
			t.Fatalf("post-logout redirect %q without OIDC", cfg.OIDC.PostLogoutRedirectURL)
		}
	})
}

// The API's bearer audience and the OIDC sign-in client must differ: with the same value the
// provider's ID tokens for the sign-in would pass as API bearer tokens. The start is refused,
// and otherwise the client id becomes the audience bearer tokens must not carry.
func TestLoadConfigOIDCAudienceOverlap(t *testing.T) {
	vars := map[string]string{"USERTASKS_BASE_URL": "https://tasks.example/", "USERTASKS_OIDC_ISSUER": "https://idp.example",
		"USERTASKS_OIDC_CLIENT_ID": "user-tasks"} // productionVars' USERTASKS_JWT_AUDIENCE
	t.Run("ErrSameAudience", func(t *testing.T) {
		_, err := loadConfig(env(productionVarsWith(t, vars)), true)
		if err == nil || !strings.Contains(err.Error(), "USERTASKS_JWT_AUDIENCE must differ from USERTASKS_OIDC_CLIENT_ID") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%v, want a one-line refusal naming both variables", err)
		}
	})
	t.Run("OK_SeparateAudience", func(t *testing.T) {
		vars["USERTASKS_OIDC_CLIENT_ID"] = "tasks-web"
		cfg, err := loadConfig(env(productionVarsWith(t, vars)), true)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Auth.RefusedAudience != "tasks-web" {
			t.Fatalf("refused audience %q, want the sign-in client", cfg.Auth.RefusedAudience)
		}
	})
}
