package handlers

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"

	"usertasks/auth"
	"usertasks/models"
	"usertasks/websession"
)

// OIDCConfig is the browser login through an OpenID Connect provider (SPEC 9:
// USERTASKS_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET).
type OIDCConfig struct {
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
	// UserInfo also reads the provider's userinfo endpoint; its claims fill in what the ID
	// token lacks (some providers put groups or roles only there).
	UserInfo bool
	// HTTPClient talks to the provider; nil means a client with a 10 second timeout.
	HTTPClient *http.Client
}

// OIDCLogin runs the authorization-code flow with PKCE, state and nonce.
type OIDCLogin struct {
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	oauth    oauth2.Config
	mapping  auth.Config
	userInfo bool
	client   *http.Client
}

// oidcStateLifetime bounds how long a sign-in at the provider may take.
const oidcStateLifetime = 10 * time.Minute

// NewOIDCLogin discovers the provider (a network call to the issuer's
// /.well-known/openid-configuration) and prepares the flow.
func NewOIDCLogin(ctx context.Context, cfg OIDCConfig) (*OIDCLogin, error) {
	if cfg.Issuer == "" || cfg.ClientID == "" || cfg.RedirectURL == "" {
		return nil, errors.New("oidc: issuer, client id and redirect URL are required")
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
	mapping := cfg.Mapping
	defaults := auth.DefaultConfig()
	if mapping.Claims == (auth.ClaimNames{}) {
		mapping.Claims = defaults.Claims
	}
	if mapping.ManagerRole == "" {
		mapping.ManagerRole = defaults.ManagerRole
	}
	return &OIDCLogin{
		provider: provider,
		verifier: provider.Verifier(&oidc.Config{ClientID: cfg.ClientID}),
		oauth: oauth2.Config{
			ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, RedirectURL: cfg.RedirectURL,
			Endpoint: provider.Endpoint(), Scopes: append([]string{oidc.ScopeOpenID}, scopes...),
		},
		mapping:  mapping,
		userInfo: cfg.UserInfo,
		client:   client,
	}, nil
}

// oidcState is what the browser holds between leaving for the provider and coming back, in a
// sealed cookie: the state to compare, the nonce the ID token must carry, the PKCE verifier,
// and where to go afterwards.
type oidcState struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	Next     string `json:"next,omitempty"`
	Expires  int64  `json:"exp"`
}

// oidcStart handles GET /login/oidc: it sends the browser to the provider. (A link, not a
// form: the CSP's form-action 'self' would stop a form's redirect to another origin.)
func (w *web) oidcStart(c echo.Context) error {
	if w.oidc == nil {
		return echo.ErrNotFound
	}
	st := oidcState{State: websession.RandomToken(), Nonce: websession.RandomToken(), Verifier: oauth2.GenerateVerifier(),
		Expires: w.now().Add(oidcStateLifetime).Unix()}
	if p, ok := localPath(c.QueryParam("next")); ok {
		st.Next = p
	}
	value, err := w.sessions.seal(oidcCookieName, st)
	if err != nil {
		return err
	}
	// Path=/ like every cookie: the __Host- prefix requires it.
	c.SetCookie(w.sessions.cookie(oidcCookieName, value, oidcStateLifetime))
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.Redirect(http.StatusFound, w.oidc.oauth.AuthCodeURL(st.State, oidc.Nonce(st.Nonce), oauth2.S256ChallengeOption(st.Verifier)))
}

// oidcCallback handles GET /login/oidc/callback: it checks the state, redeems the code with the
// PKCE verifier, verifies the ID token and its nonce, maps the claims and starts the session.
// Every failure shows the login page with one generic message; the reason is logged.
func (w *web) oidcCallback(c echo.Context) error {
	if w.oidc == nil {
		return echo.ErrNotFound
	}
	var st oidcState
	ok := w.sessions.open(c.Request(), oidcCookieName, &st)
	c.SetCookie(w.sessions.cookie(oidcCookieName, "", -1))
	fail := func(reason string, err error) error {
		attrs := []any{"reason", reason}
		if err != nil {
			attrs = append(attrs, "error", err.Error())
		}
		w.log.Warn("oidc sign-in refused", attrs...)
		return w.renderLogin(c, http.StatusUnauthorized, st.Next, catalog(c).LoginFailed)
	}
	switch {
	case !ok || w.now().Unix() >= st.Expires:
		return fail("missing or expired state cookie", nil)
	case subtle.ConstantTimeCompare([]byte(c.QueryParam("state")), []byte(st.State)) != 1:
		return fail("state mismatch", nil)
	case c.QueryParam("error") != "":
		return fail("provider error: "+truncateText(c.QueryParam("error"), 64), nil)
	case c.QueryParam("code") == "":
		return fail("no code", nil)
	}
	a, refreshToken, err := w.oidc.exchange(c.Request().Context(), c.QueryParam("code"), st)
	if err != nil {
		return fail("exchange", err)
	}
	if err := w.sessions.start(c, a, models.WebViaOIDC, refreshToken); err != nil {
		return fail("session", err)
	}
	return c.Redirect(http.StatusSeeOther, nextOrInbox(st.Next))
}

// exchange redeems the code and maps the verified ID token to an actor. It also returns the
// refresh token, if the provider issued one.
func (o *OIDCLogin) exchange(ctx context.Context, code string, st oidcState) (models.Actor, string, error) {
	ctx = oidc.ClientContext(ctx, o.client)
	tok, err := o.oauth.Exchange(ctx, code, oauth2.VerifierOption(st.Verifier))
	if err != nil {
		return models.Actor{}, "", fmt.Errorf("token: %w", err)
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok || raw == "" {
		return models.Actor{}, "", errors.New("no id_token in the token response")
	}
	idt, err := o.verifier.Verify(ctx, raw)
	if err != nil {
		return models.Actor{}, "", fmt.Errorf("id token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(st.Nonce)) != 1 {
		return models.Actor{}, "", errors.New("nonce mismatch")
	}
	a, err := o.actorOf(ctx, tok, idt)
	return a, tok.RefreshToken, err
}

// Refresh implements websession.IdentitySource: it redeems the session's refresh token and
// maps the answer's ID token (and userinfo, when configured) exactly like a sign-in. Without a
// refresh token, or when the provider refuses it or answers without an identity, the identity
// cannot be re-read and the session ends. A rotated refresh token is returned for storing.
func (o *OIDCLogin) Refresh(ctx context.Context, ws models.WebSession) (models.WebIdentity, string, error) {
	if ws.RefreshToken == "" {
		return models.WebIdentity{}, "", errors.New("the provider issued no refresh token")
	}
	ctx = oidc.ClientContext(ctx, o.client)
	tok, err := o.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: ws.RefreshToken}).Token()
	if err != nil {
		return models.WebIdentity{}, "", fmt.Errorf("refresh: %w", err)
	}
	var idt *oidc.IDToken
	if raw, _ := tok.Extra("id_token").(string); raw != "" {
		if idt, err = o.verifier.Verify(ctx, raw); err != nil {
			return models.WebIdentity{}, "", fmt.Errorf("refreshed id token: %w", err)
		}
	} else if !o.userInfo {
		return models.WebIdentity{}, "", errors.New("the refresh answer carries no ID token")
	}
	a, err := o.actorOf(ctx, tok, idt)
	if err != nil {
		return models.WebIdentity{}, "", err
	}
	rotated := ""
	if tok.RefreshToken != ws.RefreshToken {
		rotated = tok.RefreshToken
	}
	return models.IdentityOf(a), rotated, nil
}

// actorOf maps the claims of a verified ID token (nil: none) and, when configured, of the
// userinfo endpoint, which fill in what the ID token lacks.
func (o *OIDCLogin) actorOf(ctx context.Context, tok *oauth2.Token, idt *oidc.IDToken) (models.Actor, error) {
	claims := map[string]any{}
	if idt != nil {
		if err := idt.Claims(&claims); err != nil {
			return models.Actor{}, fmt.Errorf("claims: %w", err)
		}
	}
	if o.userInfo {
		ui, err := o.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return models.Actor{}, fmt.Errorf("userinfo: %w", err)
		}
		if idt != nil && ui.Subject != idt.Subject {
			return models.Actor{}, errors.New("userinfo subject differs from the ID token's")
		}
		extra := map[string]any{}
		if err := ui.Claims(&extra); err != nil {
			return models.Actor{}, fmt.Errorf("userinfo claims: %w", err)
		}
		for k, v := range extra {
			if _, ok := claims[k]; !ok {
				claims[k] = v
			}
		}
	}
	return o.mapping.ActorFromClaims(claims)
}

// truncateText shortens s to at most n bytes without splitting a character.
func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
