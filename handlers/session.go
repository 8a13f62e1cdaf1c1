package handlers

import (
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// The browser session (SPEC 5.4): a signed and encrypted cookie holding the signed-in person's
// identity as the sign-in mapped it — tenant, subject, display name, groups, permissions and the
// manager flag. Nothing is stored on the server; the cookie expires after the lifetime
// (absolute, not sliding) and signing out deletes it.

// Cookie names. The session and CSRF cookies are HttpOnly and SameSite=Lax, Secure outside dev.
const (
	sessionCookieName = "ut_session"
	csrfCookieName    = "ut_csrf"
	flashCookieName   = "ut_flash"
	oidcCookieName    = "ut_oidc"
)

// DefaultSessionLifetime is how long a sign-in lasts.
const DefaultSessionLifetime = 8 * time.Hour

// MinSessionSecretBytes is the shortest accepted session secret.
const MinSessionSecretBytes = 32

// SessionConfig configures the browser session cookie.
type SessionConfig struct {
	// Secrets sign and encrypt the cookies (HMAC-SHA256 and AES-256 keys are derived from each
	// with HKDF). The first seals new cookies; all open them, so a secret can be rotated by
	// putting the new one first. Each must have at least MinSessionSecretBytes bytes.
	Secrets [][]byte
	// Lifetime of a sign-in; zero means DefaultSessionLifetime.
	Lifetime time.Duration
	// Insecure drops the Secure flag (dev mode on http://127.0.0.1). Never set it in production.
	Insecure bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Sessions reads and writes the web cookies: the session, the CSRF binding, one-time flash
// messages and the OIDC login state.
type Sessions struct {
	codecs   []securecookie.Codec
	csrfKey  []byte
	lifetime time.Duration
	secure   bool
	now      func() time.Time
}

// NewSessions checks the configuration and derives the keys.
func NewSessions(cfg SessionConfig) (*Sessions, error) {
	if len(cfg.Secrets) == 0 {
		return nil, errors.New("session: at least one secret is required")
	}
	s := &Sessions{lifetime: cfg.Lifetime, secure: !cfg.Insecure, now: cfg.Now}
	if s.lifetime <= 0 {
		s.lifetime = DefaultSessionLifetime
	}
	if s.now == nil {
		s.now = time.Now
	}
	for i, secret := range cfg.Secrets {
		if len(secret) < MinSessionSecretBytes {
			return nil, fmt.Errorf("session: secret %d is shorter than %d bytes", i+1, MinSessionSecretBytes)
		}
		hashKey, err := hkdf.Key(sha256.New, secret, nil, "usertasks session hash key", 64)
		if err != nil {
			return nil, err
		}
		blockKey, err := hkdf.Key(sha256.New, secret, nil, "usertasks session block key", 32)
		if err != nil {
			return nil, err
		}
		codec := securecookie.New(hashKey, blockKey)
		codec.SetSerializer(securecookie.JSONEncoder{})
		// The cookie's own expiry is checked from the payload; this bounds the signed timestamp.
		codec.MaxAge(int(s.lifetime / time.Second))
		s.codecs = append(s.codecs, codec)
		if i == 0 {
			if s.csrfKey, err = hkdf.Key(sha256.New, secret, nil, "usertasks csrf key", 32); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// GenerateSessionSecret returns a random secret for dev mode or for an operator to keep.
func GenerateSessionSecret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return b
}

// ParseSessionSecrets reads a configured secret list: secrets separated by commas, the first
// one sealing new cookies (for USERTASKS_SESSION_SECRET or its _FILE variant).
func ParseSessionSecrets(spec string) ([][]byte, error) {
	var out [][]byte
	for part := range strings.SplitSeq(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if len(part) < MinSessionSecretBytes {
			return nil, fmt.Errorf("session secret %d is shorter than %d bytes", len(out)+1, MinSessionSecretBytes)
		}
		out = append(out, []byte(part))
	}
	if len(out) == 0 {
		return nil, errors.New("no session secret")
	}
	return out, nil
}

// sessionData is the session cookie's payload. Group ids share the subject's provider.
type sessionData struct {
	ID          string   `json:"sid"`
	Tenant      string   `json:"t"`
	Provider    string   `json:"p"`
	Subject     string   `json:"s"`
	Name        string   `json:"n,omitempty"`
	Groups      []string `json:"g,omitempty"`
	Permissions []string `json:"perm,omitempty"`
	Manager     bool     `json:"m,omitempty"`
	Via         string   `json:"via"` // "dev" or "oidc"
	Expires     int64    `json:"exp"`
}

// actor rebuilds the actor the sign-in mapped.
func (d sessionData) actor() models.Actor {
	a := models.Actor{
		Tenant:      d.Tenant,
		Subject:     models.ParticipantRef{Tenant: d.Tenant, Provider: d.Provider, Type: models.UserParticipant, ID: d.Subject, DisplayName: d.Name},
		DisplayName: d.Name,
		Permissions: slices.Clone(d.Permissions),
		Manager:     d.Manager,
	}
	for _, g := range d.Groups {
		a.Groups = append(a.Groups, models.ParticipantRef{Tenant: d.Tenant, Provider: d.Provider, Type: models.GroupParticipant, ID: g})
	}
	return a
}

// sessionOf turns an actor into a session payload.
func (s *Sessions) sessionOf(a models.Actor, via string) sessionData {
	d := sessionData{
		ID: randomToken(), Tenant: a.Tenant, Provider: a.Subject.Provider, Subject: a.Subject.ID,
		Name: a.DisplayName, Permissions: slices.Clone(a.Permissions), Manager: a.Manager,
		Via: via, Expires: s.now().Add(s.lifetime).Unix(),
	}
	if d.Name == "" {
		d.Name = a.Subject.DisplayName
	}
	for _, g := range a.Groups {
		d.Groups = append(d.Groups, g.ID)
	}
	return d
}

// start signs the actor in: it writes a new session cookie (a fresh session id, so the CSRF
// token of the anonymous page does not carry over).
func (s *Sessions) start(c echo.Context, a models.Actor, via string) error {
	d := s.sessionOf(a, via)
	value, err := securecookie.EncodeMulti(sessionCookieName, d, s.codecs[0])
	if err != nil {
		return fmt.Errorf("session: encode: %w", err) // e.g. more groups than a cookie holds
	}
	c.SetCookie(s.cookie(sessionCookieName, value, s.lifetime))
	return nil
}

// end signs out: the session cookie is deleted.
func (s *Sessions) end(c echo.Context) {
	c.SetCookie(s.cookie(sessionCookieName, "", -1))
}

// read returns the request's valid, unexpired session.
func (s *Sessions) read(r *http.Request) (sessionData, bool) {
	ck, err := r.Cookie(sessionCookieName)
	if err != nil || ck.Value == "" {
		return sessionData{}, false
	}
	var d sessionData
	if err := securecookie.DecodeMulti(sessionCookieName, ck.Value, &d, s.codecs...); err != nil {
		return sessionData{}, false
	}
	if d.ID == "" || d.Tenant == "" || d.Subject == "" || s.now().Unix() >= d.Expires {
		return sessionData{}, false
	}
	return d, true
}

// RequestActor authenticates a JSON API request by the browser session cookie (SPEC 5.1: the
// API accepts a bearer token or the session). A request that changes state (any method but
// GET, HEAD, OPTIONS) must also send the page's CSRF token in the X-CSRF-Token header — the
// pages publish it in <meta name="csrf-token"> — because a cross-site page can make the browser
// send the cookie but cannot read the token. No valid session is models.ErrUnauthorized; a
// missing or wrong token is models.ErrForbidden.
func (s *Sessions) RequestActor(r *http.Request) (models.Actor, error) {
	d, ok := s.read(r)
	if !ok {
		return models.Actor{}, models.ErrUnauthorized
	}
	if !safeMethod(r.Method) {
		if crossSite(r) || !s.validCSRF(d.ID, r.Header.Get(echo.HeaderXCSRFToken)) {
			return models.Actor{}, models.ErrForbidden
		}
	}
	return d.actor(), nil
}

// HasSession reports whether the request carries a valid session cookie (the API's
// authentication middleware uses it to choose between the cookie and a bearer token).
func (s *Sessions) HasSession(r *http.Request) bool {
	_, ok := s.read(r)
	return ok
}

// cookie builds a cookie with the common attributes; maxAge < 0 deletes it.
func (s *Sessions) cookie(name, value string, maxAge time.Duration) *http.Cookie {
	ck := &http.Cookie{
		Name: name, Value: value, Path: "/",
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode,
	}
	if maxAge < 0 {
		ck.MaxAge = -1
		ck.Expires = time.Unix(1, 0)
	} else if maxAge > 0 {
		ck.MaxAge = int(maxAge / time.Second)
		ck.Expires = s.now().Add(maxAge)
	}
	return ck
}

// seal encodes a short-lived payload (flash, OIDC state) with the first codec.
func (s *Sessions) seal(name string, v any) (string, error) {
	return securecookie.EncodeMulti(name, v, s.codecs[0])
}

// open decodes a payload sealed by seal.
func (s *Sessions) open(r *http.Request, name string, dst any) bool {
	ck, err := r.Cookie(name)
	if err != nil || ck.Value == "" {
		return false
	}
	return securecookie.DecodeMulti(name, ck.Value, dst, s.codecs...) == nil
}

// randomToken returns 32 random bytes, base64url encoded.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func safeMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

// crossSite reports a request the browser marks as coming from another site.
func crossSite(r *http.Request) bool {
	return r.Header.Get("Sec-Fetch-Site") == "cross-site"
}
