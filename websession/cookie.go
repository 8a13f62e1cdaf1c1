package websession

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/securecookie"
)

// Cookie base names. Outside dev mode every cookie is sent as "__Host-" + base: the browser
// then accepts it only when Secure, for Path=/ and without a Domain, so a sibling subdomain can
// neither set nor shadow it. Dev mode on http://127.0.0.1 cannot use the prefix (it requires
// Secure) and keeps the plain names.
const (
	SessionCookie = "ut_session"
	CSRFCookie    = "ut_csrf"
	FlashCookie   = "ut_flash"
	OIDCCookie    = "ut_oidc"
)

// hostPrefix is the cookie name prefix of RFC 6265bis 4.1.3.2.
const hostPrefix = "__Host-"

// MinSecretBytes is the shortest accepted secret.
const MinSecretBytes = 32

// GenerateSecret returns a random secret for dev mode or for an operator to keep.
func GenerateSecret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return b
}

// ParseSecrets reads a configured secret list: secrets separated by commas, the first one
// sealing new cookies.
func ParseSecrets(spec string) ([][]byte, error) {
	var out [][]byte
	for part := range strings.SplitSeq(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if len(part) < MinSecretBytes {
			return nil, fmt.Errorf("session secret %d is shorter than %d bytes", len(out)+1, MinSecretBytes)
		}
		out = append(out, []byte(part))
	}
	if len(out) == 0 {
		return nil, errors.New("no session secret")
	}
	return out, nil
}

// CookieName is the name a cookie of that base name is sent under.
func (m *Manager) CookieName(base string) string {
	if m.secure {
		return hostPrefix + base
	}
	return base
}

// Cookie builds a cookie with the common attributes: HttpOnly, SameSite=Lax, Path=/, no
// Domain, Secure outside dev. maxAge < 0 deletes it; 0 makes a browser-session cookie.
func (m *Manager) Cookie(base, value string, maxAge time.Duration) *http.Cookie {
	ck := &http.Cookie{
		Name: m.CookieName(base), Value: value, Path: "/",
		HttpOnly: true, Secure: m.secure, SameSite: http.SameSiteLaxMode,
	}
	if maxAge < 0 {
		ck.MaxAge = -1
		ck.Expires = time.Unix(1, 0)
	} else if maxAge > 0 {
		ck.MaxAge = int(maxAge / time.Second)
		ck.Expires = m.now().Add(maxAge)
	}
	return ck
}

// cookieValue reads the request's cookie of that base name; "" when absent.
func (m *Manager) cookieValue(r *http.Request, base string) string {
	ck, err := r.Cookie(m.CookieName(base))
	if err != nil {
		return ""
	}
	return ck.Value
}

// Seal encodes a short-lived payload (a flash message, the OIDC login state) for a cookie of
// that base name: signed and encrypted with the first secret.
func (m *Manager) Seal(base string, v any) (string, error) {
	return securecookie.EncodeMulti(base, v, m.codecs[0])
}

// Open decodes the request's cookie of that base name sealed by Seal under any configured
// secret.
func (m *Manager) Open(r *http.Request, base string, dst any) bool {
	value := m.cookieValue(r, base)
	return value != "" && securecookie.DecodeMulti(base, value, dst, m.codecs...) == nil
}

// Unseal decodes a value sealed by Seal under that base name with any configured secret, for
// a sealed value kept elsewhere than in a cookie (a note on the server).
func (m *Manager) Unseal(base, value string, dst any) bool {
	return value != "" && securecookie.DecodeMulti(base, value, dst, m.codecs...) == nil
}

// The session cookie holds a random id of sessionIDBytes bytes, base64url without padding; the
// store knows only its SHA-256 hash.
const sessionIDBytes = 32

// newSessionID returns a fresh id for the cookie and its hash for the store.
func newSessionID() (id, idHash string) {
	raw := make([]byte, sessionIDBytes)
	_, _ = rand.Read(raw)
	return base64.RawURLEncoding.EncodeToString(raw), hashID(raw)
}

// parseSessionID returns the hash of a well-formed cookie value. Anything else (a tampered,
// truncated or hostile value) is refused before the store is asked.
func parseSessionID(value string) (string, bool) {
	if len(value) != base64.RawURLEncoding.EncodedLen(sessionIDBytes) {
		return "", false
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(value)
	if err != nil || len(raw) != sessionIDBytes {
		return "", false
	}
	return hashID(raw), true
}

func hashID(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// RandomToken returns 32 random bytes, base64url encoded (CSRF bindings, OIDC state and nonce).
func RandomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
