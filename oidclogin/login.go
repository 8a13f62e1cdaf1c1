// Package oidclogin is the browser sign-in through an OpenID Connect provider (SPEC 5.4): the
// authorization-code flow with PKCE, state and nonce, the mapping of the ID token's claims to
// an actor exactly like bearer tokens, and the re-reading of a session's identity through its
// refresh token. It keeps no cookies itself: the caller keeps the State between Start and
// Finish (in a sealed cookie).
package oidclogin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"usertasks/auth"
)

// Config is the browser sign-in through an OpenID Connect provider (SPEC 9:
// USERTASKS_OIDC_ISSUER, USERTASKS_OIDC_CLIENT_ID, USERTASKS_OIDC_CLIENT_SECRET).
type Config struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	// RedirectURL is the callback registered at the provider: USERTASKS_BASE_URL +
	// "/login/oidc/callback".
	RedirectURL string
	// Scopes requested besides "openid"; nil means profile and email. offline_access is added
	// when the provider offers it, for the refresh token that keeps sessions' permissions
	// current (without one a session ends at its first refresh and the person signs in again).
	Scopes []string
	// Mapping maps the ID token's claims to the actor exactly like bearer tokens: claim names,
	// manager role, default tenant (empty refuses an ID token without a tenant claim). Only
	// those fields are read.
	Mapping auth.Config
	// PostLogoutRedirectURL is where the provider sends the browser back after the sign-out at
	// the provider (USERTASKS_OIDC_POST_LOGOUT_REDIRECT_URL; by default the login page under
	// USERTASKS_BASE_URL); it must be registered at the provider. Empty leaves the browser on
	// the provider's own signed-out page.
	PostLogoutRedirectURL string
	// UserInfo also reads the provider's userinfo endpoint; its claims fill in what the ID
	// token lacks (some providers put groups or roles only there).
	UserInfo bool
	// HTTPClient talks to the provider; nil means a client with a 10 second timeout.
	HTTPClient *http.Client
	// Now is the clock of the state's expiry; nil means time.Now.
	Now func() time.Time
}

// Login runs the authorization-code flow with PKCE, state and nonce.
type Login struct {
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	oauth    oauth2.Config
	mapping  auth.Config
	userInfo bool
	client   *http.Client
	now      func() time.Time
	// logout is the discovery's revocation and end-session endpoints (logout.go).
	logout             logoutEndpoints
	postLogoutRedirect string
}

// StateLifetime bounds how long a sign-in at the provider may take.
const StateLifetime = 10 * time.Minute

// New discovers the provider (a network call to the issuer's
// /.well-known/openid-configuration) and prepares the flow.
func New(ctx context.Context, cfg Config) (*Login, error) {
	if cfg.Issuer == "" || cfg.ClientID == "" || cfg.RedirectURL == "" {
		return nil, errors.New("oidc: issuer, client id and redirect URL are required")
	}
	if cfg.PostLogoutRedirectURL != "" && !absoluteHTTP(cfg.PostLogoutRedirectURL) {
		return nil, fmt.Errorf("oidc: the post-logout redirect URL %q is not an absolute http(s) URL", cfg.PostLogoutRedirectURL)
	}
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	provider, err := oidc.NewProvider(oidc.ClientContext(ctx, client), cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("oidc: discover %s: %w", cfg.Issuer, err)
	}
	scopes := slices.Clone(cfg.Scopes)
	if scopes == nil {
		scopes = []string{"profile", "email"}
	}
	var offered struct {
		Scopes []string `json:"scopes_supported"`
	}
	if provider.Claims(&offered) == nil && slices.Contains(offered.Scopes, oidc.ScopeOfflineAccess) && !slices.Contains(scopes, oidc.ScopeOfflineAccess) {
		scopes = append(scopes, oidc.ScopeOfflineAccess)
	}
	var logout logoutEndpoints
	if err := provider.Claims(&logout); err != nil {
		return nil, fmt.Errorf("oidc: discovery of %s: %w", cfg.Issuer, err)
	}
	if err := logout.check(); err != nil {
		return nil, err
	}
	mapping := cfg.Mapping
	defaults := auth.DefaultConfig()
	if mapping.Claims == (auth.ClaimNames{}) {
		mapping.Claims = defaults.Claims
	}
	if mapping.ManagerRole == "" {
		mapping.ManagerRole = defaults.ManagerRole
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Login{
		provider: provider,
		verifier: provider.Verifier(&oidc.Config{ClientID: cfg.ClientID}),
		oauth: oauth2.Config{
			ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, RedirectURL: cfg.RedirectURL,
			Endpoint: provider.Endpoint(), Scopes: append([]string{oidc.ScopeOpenID}, scopes...),
		},
		mapping:  mapping,
		userInfo: cfg.UserInfo,
		client:   client,
		now:      now,
		logout:   logout,

		postLogoutRedirect: cfg.PostLogoutRedirectURL,
	}, nil
}
