package auth

import (
	"crypto"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/models"
)

// fuzzVerifier trusts the test secret and RSA key, checks issuer and audience and reads groups
// and roles from nested claims, so fuzzed claims reach every part of ActorFromClaims.
func fuzzVerifier(f *testing.F) *Verifier {
	f.Helper()
	cfg := Config{HS256Secret: testSecret, PublicKeys: []crypto.PublicKey{&rsaKey().PublicKey}, Issuer: "https://idp.example", Audience: "usertasks"}
	cfg.Claims = DefaultClaimNames()
	cfg.Claims.Roles = "realm_access.roles"
	cfg.Now = func() time.Time { return fixedNow }
	v, err := NewVerifier(f.Context(), cfg)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(v.Close)
	return v
}

// checkActor fails unless Actor's answer is an actor of acceptable text or an ErrUnauthorized
// that does not echo the token.
func checkActor(t *testing.T, a models.Actor, err error, token string) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, models.ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
		requireUnauthorized(t, err, token)
		return
	}
	ids := []string{a.Tenant, a.Subject.ID, a.Subject.Provider}
	for _, g := range a.Groups {
		ids = append(ids, g.ID)
	}
	for _, id := range ids {
		if id == "" || models.TextProblem(id, models.Identifier) != "" {
			t.Fatalf("actor identifier %q: %s", id, models.TextProblem(id, models.Identifier))
		}
	}
	if p := models.TextProblem(a.DisplayName, models.Label); p != "" || len(a.DisplayName) > models.MaxDisplayNameLength {
		t.Fatalf("actor display name %q: %s", a.DisplayName, p)
	}
}

// FuzzVerifierToken verifies any string as a bearer token.
func FuzzVerifierToken(f *testing.F) {
	v := fuzzVerifier(f)
	good := claims(jwt.MapClaims{"iss": "https://idp.example", "aud": "usertasks"})
	for _, tok := range []string{
		mustSign(f, jwt.SigningMethodHS256, testSecret, good),
		mustSign(f, jwt.SigningMethodRS256, rsaKey(), good),
		mustSign(f, jwt.SigningMethodHS256, testSecret, claims(nil)),
		"eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.",
		"a.b.c", "", "....", "eyJhbGciOiJIUzI1NiIsImNyaXQiOlsiYiJdfQ.e30.x",
	} {
		f.Add(tok)
	}
	f.Fuzz(func(t *testing.T, token string) {
		a, err := v.Actor(t.Context(), token)
		checkActor(t, a, err, token)
	})
}

// FuzzVerifierClaims signs any header and payload with the trusted secret, so the claims the
// verifier reads after the signature are the fuzzer's.
func FuzzVerifierClaims(f *testing.F) {
	v := fuzzVerifier(f)
	exp, iat := fixedNow.Add(5*time.Minute).Unix(), fixedNow.Add(-time.Minute).Unix()
	payload := func(extra string) []byte {
		return []byte(`{"sub":"alice","tenant":"t1","iss":"https://idp.example","aud":"usertasks","exp":` +
			strconv.FormatInt(exp, 10) + `,"iat":` + strconv.FormatInt(iat, 10) + extra + `}`)
	}
	header := []byte(`{"alg":"HS256","typ":"JWT"}`)
	f.Add(header, payload(""))
	f.Add(header, payload(`,"name":"Alice","groups":["ops","sales"],"permissions":"user-tasks:view user-tasks:supervise","realm_access":{"roles":["user-tasks:manager"]}`))
	f.Add(header, payload(`,"name":"  Alice  ","groups":"one","provider":"ldap"`))
	f.Add(header, payload(`,"name":1,"groups":[1,null],"permissions":[["x"]],"realm_access":"x"`))
	f.Add(header, payload(`,"sub":"\u0085x"`))
	f.Add([]byte(`{"alg":"HS256","crit":["exp"]}`), payload(""))
	f.Add(header, []byte(`{"sub":"alice","exp":1e400,"nbf":"x"}`))

	f.Fuzz(func(t *testing.T, header, payload []byte) {
		signing := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(payload)
		mac := hmac.New(sha256.New, testSecret)
		mac.Write([]byte(signing))
		token := signing + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
		a, err := v.Actor(t.Context(), token)
		checkActor(t, a, err, token)
	})
}

// mustSign is sign for a fuzz target's seeds.
func mustSign(f *testing.F, method jwt.SigningMethod, key any, c jwt.MapClaims) string {
	f.Helper()
	s, err := jwt.NewWithClaims(method, c).SignedString(key)
	if err != nil {
		f.Fatal(err)
	}
	return s
}
