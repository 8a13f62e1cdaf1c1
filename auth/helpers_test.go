package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"

	"usertasks/auth/authtest"
	"usertasks/models"
)

// testSecret is a valid HS256 secret (32 bytes).
var testSecret = []byte("0123456789abcdef0123456789abcdef")

// The keys of authtest, and two more that nothing trusts.
var (
	rsaKey      = authtest.RSAKey
	otherRSAKey = sync.OnceValue(func() *rsa.PrivateKey { return authtest.MustRSA(2048) })
	ecKey       = authtest.ECKey
	otherECKey  = sync.OnceValue(func() *ecdsa.PrivateKey { return authtest.MustEC(elliptic.P256()) })
)

// fixedNow is the clock of every verifier built by newVerifier.
var fixedNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// claims returns valid registered claims for subject alice of tenant t1, merged with extra
// (nil deletes).
func claims(extra jwt.MapClaims) jwt.MapClaims {
	c := jwt.MapClaims{
		"sub":    "alice",
		"tenant": "t1",
		"iat":    fixedNow.Add(-time.Minute).Unix(),
		"exp":    fixedNow.Add(5 * time.Minute).Unix(),
	}
	for k, v := range extra {
		if v == nil {
			delete(c, k)
			continue
		}
		c[k] = v
	}
	return c
}

// sign builds a token; kid is set in the header when not empty.
func sign(t *testing.T, method jwt.SigningMethod, key any, c jwt.MapClaims, kid string) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, c)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return s
}

// newVerifier builds a verifier on the fixed clock and closes it with the test.
func newVerifier(t *testing.T, cfg Config) *Verifier {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return fixedNow }
	}
	v, err := NewVerifier(t.Context(), cfg)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	t.Cleanup(v.Close)
	return v
}

// requireUnauthorized fails unless err wraps models.ErrUnauthorized without echoing the token.
func requireUnauthorized(t *testing.T, err error, token string) {
	t.Helper()
	if !errors.Is(err, models.ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	for i := 0; i+8 <= len(token); i++ {
		if strings.Contains(err.Error(), token[i:i+8]) {
			t.Fatalf("error %q echoes the token", err)
		}
	}
}

// jwksKey is one key published by a test JWKS server.
type jwksKey struct {
	kid string
	alg jwkset.ALG
	use jwkset.USE
	key any
}

// jwksServer serves a key set that the test may replace, and counts requests.
type jwksServer struct {
	*httptest.Server
	mu    sync.Mutex
	body  []byte
	count int
}

func newJWKSServer(t *testing.T, keys ...jwksKey) *jwksServer {
	t.Helper()
	s := &jwksServer{}
	s.set(t, keys...)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.count++
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(s.body)
	}))
	t.Cleanup(s.Close)
	return s
}

// set replaces the published keys.
func (s *jwksServer) set(t *testing.T, keys ...jwksKey) {
	t.Helper()
	store := jwkset.NewMemoryStorage()
	for _, k := range keys {
		jwk, err := jwkset.NewJWKFromKey(k.key, jwkset.JWKOptions{
			Metadata: jwkset.JWKMetadataOptions{KID: k.kid, ALG: k.alg, USE: k.use},
		})
		if err != nil {
			t.Fatalf("jwk %s: %v", k.kid, err)
		}
		if err := store.KeyWrite(context.Background(), jwk); err != nil {
			t.Fatal(err)
		}
	}
	body, err := store.JSONPublic(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.setRaw(body)
}

// setRaw publishes body as is.
func (s *jwksServer) setRaw(body []byte) {
	s.mu.Lock()
	s.body = body
	s.mu.Unlock()
}

func (s *jwksServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}
