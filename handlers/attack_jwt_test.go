package handlers_test

import (
	"context"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/auth"
	"usertasks/auth/authtest"
	"usertasks/handlers"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// TestAttackJWT sends forged, stale and malformed bearer tokens to the JSON API of a server
// that trusts one RSA key (issuer and audience checked, no default tenant) and one that trusts a
// JWKS: every one is the same 401 problem — never a 500, never a reason, never the token.
func TestAttackJWT(t *testing.T) {
	key := authtest.RSAKey()
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "RSA", "kid": "k1", "alg": "RS256", "use": "sig",
			"n": base64.RawURLEncoding.EncodeToString(key.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(key.E)).Bytes()),
		}}})
	}))
	t.Cleanup(jwks.Close)
	static := jwtServer(t, auth.Config{PublicKeys: []crypto.PublicKey{&key.PublicKey}, Issuer: "https://idp.example", Audience: "user-tasks"})
	viaJWKS := jwtServer(t, auth.Config{JWKSURL: jwks.URL, Issuer: "https://idp.example", Audience: "user-tasks"})

	now := time.Now()
	claims := func(change jwt.MapClaims) jwt.MapClaims {
		c := jwt.MapClaims{"sub": "ann", "tenant": "t1", "iss": "https://idp.example", "aud": "user-tasks",
			"iat": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(), "permissions": []string{"user-tasks:*"}}
		for k, v := range change {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return c
	}
	sign := func(method jwt.SigningMethod, signKey any, c jwt.MapClaims, kid string) string {
		tok := jwt.NewWithClaims(method, c)
		if kid != "" {
			tok.Header["kid"] = kid
		}
		s, err := tok.SignedString(signKey)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	good := sign(jwt.SigningMethodRS256, key, claims(nil), "k1")
	for name, srvURL := range map[string]string{"Static": static, "JWKS": viaJWKS} {
		if status, body := jwtCall(t, srvURL, good); status != http.StatusOK {
			t.Fatalf("%s: the good token: %d %s", name, status, body)
		}
	}
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(good, ".")
	evilPayload := base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"boss","tenant":"t1","roles":["user-tasks:manager"],"permissions":["*"],"exp":9999999999}`))
	flipped := []byte(parts[2])
	flipped[10] ^= 1

	attacks := map[string]string{
		"AlgNone":             none,
		"AlgNoneNoSignature":  strings.TrimSuffix(none, "."),
		"HSWithRSAPublicKey":  sign(jwt.SigningMethodHS256, authtest.PublicKeyPEM(t, &key.PublicKey), claims(nil), "k1"),
		"WrongIssuer":         sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"iss": "https://evil.example"}), "k1"),
		"NoIssuer":            sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"iss": nil}), "k1"),
		"WrongAudience":       sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"aud": "billing"}), "k1"),
		"Expired":             sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"exp": now.Add(-time.Hour).Unix()}), "k1"),
		"NotYetValid":         sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"nbf": now.Add(time.Hour).Unix()}), "k1"),
		"TamperedPayload":     parts[0] + "." + evilPayload + "." + parts[2],
		"TamperedSignature":   parts[0] + "." + parts[1] + "." + string(flipped),
		"NoSignature":         parts[0] + "." + parts[1] + ".",
		"NoTenant":            sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"tenant": nil}), "k1"),
		"OtherKey":            sign(jwt.SigningMethodRS256, authtest.MustRSA(2048), claims(nil), "k1"),
		"UnknownKid":          sign(jwt.SigningMethodRS256, key, claims(nil), "k-unknown"),
		"Oversized":           sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"pad": strings.Repeat("x", auth.MaxTokenBytes)}), "k1"),
		"Garbage":             "a.b.c",
		"ControlCharacters":   "ey\x7f.\x01.x",
		"HeaderIsNotJSON":     base64.RawURLEncoding.EncodeToString([]byte("{")) + "." + parts[1] + "." + parts[2],
		"HugeNumbers":         sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"exp": 1e308, "iat": -1e308}), "k1"),
		"ClaimsOfWrongTypes":  sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"tenant": 7, "permissions": map[string]any{"a": 1}, "roles": 3}), "k1"),
		"NestedDeepClaims":    sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"groups": deepNest(200)}), "k1"),
		"SubjectWithNewlines": sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"sub": "ann\r\nX-Injected: 1"}), "k1"),
	}
	for name, srvURL := range map[string]string{"Static": static, "JWKS": viaJWKS} {
		var first []byte
		for attack, token := range attacks {
			t.Run(name+"/"+attack, func(t *testing.T) {
				status, body := jwtCall(t, srvURL, token)
				if status == http.StatusOK && attack == "UnknownKid" && name == "Static" {
					return // static keys ignore kid: the signature is good
				}
				if status != http.StatusUnauthorized {
					t.Fatalf("%d %s, want 401", status, body)
				}
				if body == nil {
					return // not sent
				}
				if first == nil {
					first = body
				} else if string(body) != string(first) {
					t.Errorf("the refusal differs:\n%s\n%s", body, first)
				}
				if len(token) > 20 && strings.Contains(string(body), token[len(token)-20:]) {
					t.Error("the refusal echoes the token")
				}
			})
		}
	}
}

// deepNest is n arrays one in another.
func deepNest(n int) any {
	var v any = "g"
	for range n {
		v = []any{v}
	}
	return v
}

// jwtServer is the JSON API with a verifier of cfg.
func jwtServer(t *testing.T, cfg auth.Config) string {
	t.Helper()
	v, err := auth.NewVerifier(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	srv := httptest.NewServer(handlers.New(handlers.Deps{Store: store, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tasks: tasks.New(store, tasks.Options{}), Auth: v}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// jwtCall asks for the capabilities with token.
func jwtCall(t *testing.T, base, token string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/user-tasks/capabilities", nil)
	req.Header["Authorization"] = []string{"Bearer " + token}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		if strings.ContainsAny(token, "\x7f\x01") {
			return http.StatusUnauthorized, nil // the client refuses to send it: nothing to attack
		}
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body
}
