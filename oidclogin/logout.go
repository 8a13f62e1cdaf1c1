package oidclogin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/client"
	httphelper "github.com/zitadel/oidc/v3/pkg/http"
	zoidc "github.com/zitadel/oidc/v3/pkg/oidc"

	"usertasks/websession"
)

// The sign-out at the provider: the session's refresh tokens are revoked at the
// revocation_endpoint (RFC 7009) and the browser is sent to the end_session_endpoint (OpenID
// Connect RP-Initiated Logout 1.0), each when the provider's discovery advertises it.

// RevokeTimeout bounds the revocations of one sign-out: they are best effort, and the person
// waits for them.
const RevokeTimeout = 5 * time.Second

// logoutEndpoints are what the discovery document says about signing out.
type logoutEndpoints struct {
	Revocation            string   `json:"revocation_endpoint"`
	RevocationAuthMethods []string `json:"revocation_endpoint_auth_methods_supported"`
	EndSession            string   `json:"end_session_endpoint"`
}

// check refuses endpoints that are not absolute http(s) URLs: a broken discovery document is a
// configuration error, reported at start.
func (e logoutEndpoints) check() error {
	for name, u := range map[string]string{"revocation_endpoint": e.Revocation, "end_session_endpoint": e.EndSession} {
		if u != "" && !absoluteHTTP(u) {
			return fmt.Errorf("oidc: the discovery document's %s %q is not an http(s) URL", name, u)
		}
	}
	return nil
}

// absoluteHTTP reports an absolute http(s) URL with a host and no fragment.
func absoluteHTTP(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.Fragment == "" && u.User == nil
}

// revocation is the form of a revocation request (RFC 7009 section 2.1). Unlike zitadel's
// client.RevokeRequest it leaves out an empty client_id: with HTTP Basic the form names no
// client.
type revocation struct {
	Token         string `schema:"token"`
	TokenTypeHint string `schema:"token_type_hint"`
	ClientID      string `schema:"client_id,omitempty"`
	ClientSecret  string `schema:"client_secret,omitempty"`
}

// revoker is what zitadel's client needs to call the revocation endpoint.
type revoker struct {
	endpoint string
	client   *http.Client
}

func (r revoker) GetRevokeEndpoint() string { return r.endpoint }
func (r revoker) HttpClient() *http.Client  { return r.client }

// RevokeRefreshTokens revokes refresh tokens at the provider's revocation endpoint, one request
// each (token_type_hint refresh_token), authenticating as at the token endpoint: HTTP Basic
// with the client secret unless the provider lists only client_secret_post; a client without
// a secret sends its id. Without a revocation endpoint it does nothing. It gives up after
// RevokeTimeout, even when ctx ends earlier (the person may have closed the tab), and returns
// what failed — the errors never hold a token.
func (o *Login) RevokeRefreshTokens(ctx context.Context, tokens []string) error {
	if o.logout.Revocation == "" || len(tokens) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), RevokeTimeout)
	defer cancel()
	caller := revoker{endpoint: o.logout.Revocation, client: o.client}
	var errs []error
	for _, token := range tokens {
		if token == "" {
			continue
		}
		req := revocation{Token: token, TokenTypeHint: "refresh_token"}
		var auth any
		switch {
		case o.oauth.ClientSecret == "":
			req.ClientID = o.oauth.ClientID
		case o.postSecret():
			req.ClientID, req.ClientSecret = o.oauth.ClientID, o.oauth.ClientSecret
		default:
			auth = httphelper.AuthorizeBasic(o.oauth.ClientID, o.oauth.ClientSecret)
		}
		if err := client.CallRevokeEndpoint(ctx, req, auth, caller); err != nil {
			errs = append(errs, errors.New(scrub(err.Error(), token)))
		}
	}
	return errors.Join(errs...)
}

// postSecret reports a provider whose revocation endpoint takes the client secret only in the
// form (client_secret_post); the default is HTTP Basic (RFC 8414).
func (o *Login) postSecret() bool {
	m := o.logout.RevocationAuthMethods
	return slices.Contains(m, string(zoidc.AuthMethodPost)) && !slices.Contains(m, string(zoidc.AuthMethodBasic))
}

// scrub bounds an error message and removes the token from it, should the provider's answer
// echo it.
func scrub(msg, token string) string {
	msg = strings.ReplaceAll(msg, token, "[token]")
	if len(msg) > 300 {
		msg = strings.ToValidUTF8(msg[:300], "") + "…"
	}
	return msg
}

// EndSessionURL is where to send the browser to end the person's session at the provider
// (RP-initiated logout): the end_session_endpoint with id_token_hint (the ID token the session
// kept; without one, client_id so the provider knows the app), post_logout_redirect_uri when
// configured, and a fresh state. ok is false when the provider advertises no end-session
// endpoint.
func (o *Login) EndSessionURL(idToken string) (target string, ok bool) {
	if o.logout.EndSession == "" {
		return "", false
	}
	u, err := url.Parse(o.logout.EndSession)
	if err != nil {
		return "", false // checked in New
	}
	q := u.Query() // keep the provider's own parameters (a policy, a tenant)
	if idToken != "" {
		q.Set("id_token_hint", idToken)
	} else {
		q.Set("client_id", o.oauth.ClientID)
	}
	if o.postLogoutRedirect != "" {
		q.Set("post_logout_redirect_uri", o.postLogoutRedirect)
	}
	q.Set("state", websession.RandomToken())
	u.RawQuery = q.Encode()
	return u.String(), true
}

// EndSessionOrigin is the origin of the provider's end-session endpoint ("" without one): the
// pages' CSP lets the sign-out form lead there.
func (o *Login) EndSessionOrigin() string {
	u, err := url.Parse(o.logout.EndSession)
	if o.logout.EndSession == "" || err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
