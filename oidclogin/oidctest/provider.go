// Package oidctest runs a fake OpenID Connect provider for tests of the browser sign-in.
package oidctest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/models"
)

// Provider is a minimal OpenID provider: discovery, JWKS, and a token endpoint that checks the
// PKCE verifier against the challenge of the authorization request. Its ID tokens carry the
// claims SetClaims gave it, for client "web-client".
type Provider struct {
	srv    *httptest.Server
	key    *rsa.PrivateKey
	mu     sync.Mutex
	codes  map[string]grant // code → what the authorization request carried
	claims map[string]any
	// refresh holds the refresh tokens the provider would redeem; each is good once (rotated).
	refresh map[string]bool
	// noRefresh makes the provider issue no refresh tokens.
	noRefresh bool
	// logout is what the provider offers for signing out (logout.go).
	logout logoutState
}

type grant struct{ challenge, nonce string }

// NewProvider starts a provider that stops with the test.
func NewProvider(t testing.TB) *Provider {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &Provider{key: key, codes: map[string]grant{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		doc := map[string]any{
			"issuer": p.srv.URL, "authorization_endpoint": p.srv.URL + "/authorize", "token_endpoint": p.srv.URL + "/token",
			"jwks_uri": p.srv.URL + "/jwks", "id_token_signing_alg_values_supported": []string{"RS256"},
			"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
			"scopes_supported": []string{"openid", "profile", "email", "offline_access"},
		}
		p.mu.Lock()
		p.logout.discover(doc, p.srv.URL)
		p.mu.Unlock()
		json.NewEncoder(w).Encode(doc)
	})
	mux.HandleFunc("/revoke", p.revoke)
	mux.HandleFunc("/end_session", p.endSession)
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		pub := p.key.PublicKey
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
			"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
		}}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		p.mu.Lock()
		g, ok := p.codes[r.PostForm.Get("code")]
		delete(p.codes, r.PostForm.Get("code"))
		if r.PostForm.Get("grant_type") == "refresh_token" {
			// A refresh: the token must be one issued and not used yet; the answer has no nonce.
			ok = p.refresh[r.PostForm.Get("refresh_token")]
			delete(p.refresh, r.PostForm.Get("refresh_token"))
			g = grant{}
		}
		claims := p.claims
		refreshToken := ""
		if !p.noRefresh {
			refreshToken = "rt-" + models.NewID()
			p.refresh[refreshToken] = true
		}
		p.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || (r.PostForm.Get("grant_type") != "refresh_token" && base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		c := jwt.MapClaims{"iss": p.srv.URL, "aud": "web-client", "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()}
		if g.nonce != "" {
			c["nonce"] = g.nonce
		}
		for k, v := range claims {
			c[k] = v
		}
		tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
		tok.Header["kid"] = "k1"
		signed, _ := tok.SignedString(p.key)
		w.Header().Set("Content-Type", "application/json")
		answer := map[string]any{"access_token": "at", "token_type": "Bearer", "expires_in": 3600, "id_token": signed}
		if refreshToken != "" {
			answer["refresh_token"] = refreshToken
		}
		json.NewEncoder(w).Encode(answer)
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// Authorize plays the person signing in at the provider: it reads the authorization request
// (the URL the browser was sent to) and returns the callback's query with a fresh code.
func (p *Provider) Authorize(t testing.TB, location string) url.Values {
	t.Helper()
	u, err := url.Parse(location)
	if err != nil || !strings.HasPrefix(location, p.srv.URL+"/authorize") {
		t.Fatalf("redirect to %q, want the provider's authorization endpoint", location)
	}
	q := u.Query()
	for _, k := range []string{"state", "nonce", "code_challenge"} {
		if q.Get(k) == "" {
			t.Fatalf("authorization request without %s: %s", k, location)
		}
	}
	if q.Get("code_challenge_method") != "S256" || q.Get("client_id") != "web-client" || !strings.Contains(q.Get("scope"), "openid") {
		t.Fatalf("authorization request %v", q)
	}
	code := "code-" + q.Get("state")[:8]
	p.mu.Lock()
	p.codes[code] = grant{challenge: q.Get("code_challenge"), nonce: q.Get("nonce")}
	p.mu.Unlock()
	return url.Values{"state": {q.Get("state")}, "code": {code}}
}

// URL is the provider's issuer URL.
func (p *Provider) URL() string { return p.srv.URL }

// SetClaims sets the claims of the ID tokens issued from now on.
func (p *Provider) SetClaims(claims map[string]any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.claims = claims
}

// ForgeNonce makes the ID token redeemed for code carry another nonce than the authorization
// request asked for.
func (p *Provider) ForgeNonce(code, nonce string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.codes[code]
	g.nonce = nonce
	p.codes[code] = g
}

// RevokeRefreshTokens refuses every refresh token issued so far (the person was disabled).
func (p *Provider) RevokeRefreshTokens() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.refresh)
}

// StopIssuingRefreshTokens makes the provider answer without refresh tokens from now on.
func (p *Provider) StopIssuingRefreshTokens() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.noRefresh = true
}
