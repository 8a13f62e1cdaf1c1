package main

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/auth"
	"usertasks/auth/authtest"
)

// testHS256Secret is a valid HS256 secret (32 bytes).
const testHS256Secret = "0123456789abcdef0123456789abcdef"

// readAuth reads the settings of vars and checks the token configuration on its own, without
// the rules of dev mode or of outside it (checkAuth adds those).
func readAuth(vars map[string]string) (auth.Config, error) {
	c := defaultConfig()
	if err := c.read(env(vars), false); err != nil {
		return c.Auth, err
	}
	return c.Auth, c.Auth.Validate()
}

// writeFile writes content to a fresh file and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadAuthSettings(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		c, err := readAuth(nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Configured() {
			t.Fatal("an empty environment configures no key")
		}
		want := auth.Config{
			Claims: auth.ClaimNames{
				Subject: "sub", Tenant: "tenant", Provider: "idp", Name: "name", Email: "email",
				Groups: "groups", Permissions: "permissions", Roles: "roles",
			},
			ManagerRole:            "user-tasks:manager",
			MaxLifetime:            24 * time.Hour,
			Leeway:                 30 * time.Second,
			JWKSRefreshInterval:    time.Hour,
			JWKSUnknownKIDInterval: time.Minute,
		}
		if !reflect.DeepEqual(c, want) {
			t.Fatalf("config = %+v, want %+v", c, want)
		}
	})
	t.Run("AllSet", func(t *testing.T) {
		keys := string(authtest.PublicKeyPEM(t, &authtest.RSAKey().PublicKey)) + string(authtest.PublicKeyPEM(t, &authtest.ECKey().PublicKey))
		c, err := readAuth(map[string]string{
			"USERTASKS_JWT_HS256_SECRET":  testHS256Secret,
			"USERTASKS_JWT_PUBLIC_KEYS":   keys,
			"USERTASKS_JWT_JWKS_URL":      "https://idp.example/.well-known/jwks.json",
			"USERTASKS_JWT_ISSUER":        "https://idp.example",
			"USERTASKS_JWT_AUDIENCE":      "user-tasks",
			"USERTASKS_CLAIM_SUBJECT":     "oid",
			"USERTASKS_CLAIM_TENANT":      "tid",
			"USERTASKS_CLAIM_PROVIDER":    "prov",
			"USERTASKS_CLAIM_NAME":        "preferred_username",
			"USERTASKS_CLAIM_EMAIL":       "upn",
			"USERTASKS_CLAIM_GROUPS":      "grp",
			"USERTASKS_CLAIM_PERMISSIONS": "scope",
			"USERTASKS_CLAIM_ROLES":       "realm_access.roles",
			"USERTASKS_MANAGER_ROLE":      "approver",
			"USERTASKS_DEFAULT_TENANT":    "acme",
			"USERTASKS_JWT_MAX_LIFETIME":  "90m",
		})
		if err != nil {
			t.Fatal(err)
		}
		if !c.Configured() {
			t.Fatal("Configured = false")
		}
		if got, want := c.Claims, (auth.ClaimNames{Subject: "oid", Tenant: "tid", Provider: "prov", Name: "preferred_username", Email: "upn", Groups: "grp", Permissions: "scope", Roles: "realm_access.roles"}); got != want {
			t.Fatalf("claims = %+v, want %+v", got, want)
		}
		if string(c.HS256Secret) != testHS256Secret || len(c.PublicKeys) != 2 ||
			c.JWKSURL != "https://idp.example/.well-known/jwks.json" || c.Issuer != "https://idp.example" ||
			c.Audience != "user-tasks" || c.ManagerRole != "approver" || c.DefaultTenant != "acme" || c.MaxLifetime != 90*time.Minute {
			t.Fatalf("config = %+v", c)
		}
		if _, ok := c.PublicKeys[0].(*rsa.PublicKey); !ok {
			t.Fatalf("key 1 is %T, want RSA", c.PublicKeys[0])
		}
		if _, ok := c.PublicKeys[1].(*ecdsa.PublicKey); !ok {
			t.Fatalf("key 2 is %T, want ECDSA", c.PublicKeys[1])
		}
	})
	t.Run("SecretFromFile", func(t *testing.T) {
		path := writeFile(t, "secret", testHS256Secret+"\n")
		c, err := readAuth(map[string]string{"USERTASKS_JWT_HS256_SECRET_FILE": path})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(c.HS256Secret), testHS256Secret; got != want {
			t.Fatalf("secret = %q, want %q", got, want)
		}
	})
	t.Run("VariableWinsOverFile", func(t *testing.T) {
		c, err := readAuth(map[string]string{
			"USERTASKS_JWT_HS256_SECRET":      testHS256Secret,
			"USERTASKS_JWT_HS256_SECRET_FILE": "/nonexistent",
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(c.HS256Secret), testHS256Secret; got != want {
			t.Fatalf("secret = %q, want %q", got, want)
		}
	})
	t.Run("PublicKeysFromFile", func(t *testing.T) {
		path := writeFile(t, "keys.pem", string(authtest.CertificatePEM(t, authtest.RSAKey(), time.Now().Add(-time.Hour)))+string(authtest.CertificatePEM(t, authtest.ECKey(), time.Now().Add(-time.Hour))))
		c, err := readAuth(map[string]string{"USERTASKS_JWT_PUBLIC_KEYS_FILE": path})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(c.PublicKeys), 2; got != want {
			t.Fatalf("keys = %d, want %d", got, want)
		}
	})
	t.Run("JWKSURLFromFile", func(t *testing.T) {
		path := writeFile(t, "jwks-url", "https://idp.example/jwks\n")
		c, err := readAuth(map[string]string{"USERTASKS_JWT_JWKS_URL_FILE": path})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.JWKSURL, "https://idp.example/jwks"; got != want {
			t.Fatalf("url = %q, want %q", got, want)
		}
	})
	t.Run("ChecksSkippedOnPurpose", func(t *testing.T) {
		c, err := readAuth(map[string]string{
			"USERTASKS_JWT_SKIP_ISSUER_CHECK":   "true",
			"USERTASKS_JWT_SKIP_AUDIENCE_CHECK": "1",
		})
		if err != nil {
			t.Fatal(err)
		}
		if !c.SkipIssuerCheck || !c.SkipAudienceCheck {
			t.Fatalf("skip issuer %v, skip audience %v; want both", c.SkipIssuerCheck, c.SkipAudienceCheck)
		}
	})
	t.Run("JWKSLoopbackHTTP", func(t *testing.T) {
		for _, u := range []string{"http://127.0.0.1:8081/jwks", "http://localhost/jwks", "http://[::1]:9/jwks"} {
			if _, err := readAuth(map[string]string{"USERTASKS_JWT_JWKS_URL": u}); err != nil {
				t.Fatalf("%s: %v", u, err)
			}
		}
	})

	errs := []struct {
		name string
		vars map[string]string
		want string
	}{
		{"ErrShortSecret", map[string]string{"USERTASKS_JWT_HS256_SECRET": "too-short"}, "at least 32"},
		{"ErrSecretFileMissing", map[string]string{"USERTASKS_JWT_HS256_SECRET_FILE": "/nonexistent/secret"}, "USERTASKS_JWT_HS256_SECRET_FILE"},
		{"ErrUnparseablePEM", map[string]string{"USERTASKS_JWT_PUBLIC_KEYS": "not pem at all"}, "unparseable PEM"},
		{"ErrCorruptPEM", map[string]string{"USERTASKS_JWT_PUBLIC_KEYS": "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"}, "unparseable public key"},
		{"ErrPrivateKeyPEM", map[string]string{"USERTASKS_JWT_PUBLIC_KEYS": string(authtest.PrivateKeyPEM(t, authtest.ECKey()))}, "is a private key"},
		{"ErrUnsupportedBlock", map[string]string{"USERTASKS_JWT_PUBLIC_KEYS": "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n"}, "unsupported PEM block"},
		{"ErrP384Key", map[string]string{"USERTASKS_JWT_PUBLIC_KEYS": string(authtest.PublicKeyPEM(t, &authtest.MustEC(elliptic.P384()).PublicKey))}, "needs P-256"},
		{"ErrEd25519Key", map[string]string{"USERTASKS_JWT_PUBLIC_KEYS": ed25519PEM(t)}, "unsupported key type"},
		{"ErrJWKSPlainHTTP", map[string]string{"USERTASKS_JWT_JWKS_URL": "http://idp.example/jwks"}, "must use https"},
		{"ErrJWKSScheme", map[string]string{"USERTASKS_JWT_JWKS_URL": "ftp://idp.example/jwks"}, "must use https"},
		{"ErrRequireTenantGone", map[string]string{"USERTASKS_REQUIRE_TENANT": "false"}, "USERTASKS_REQUIRE_TENANT is no longer read"},
		{"ErrMaxLifetimeNotDuration", map[string]string{"USERTASKS_JWT_MAX_LIFETIME": "a day"}, `USERTASKS_JWT_MAX_LIFETIME="a day"`},
		{"ErrMaxLifetimeZero", map[string]string{"USERTASKS_JWT_MAX_LIFETIME": "0s"}, `USERTASKS_JWT_MAX_LIFETIME="0s"`},
		{"ErrMaxLifetimeNegative", map[string]string{"USERTASKS_JWT_MAX_LIFETIME": "-1h"}, `USERTASKS_JWT_MAX_LIFETIME="-1h"`},
		{"ErrSkipIssuerNotBoolean", map[string]string{"USERTASKS_JWT_SKIP_ISSUER_CHECK": "maybe"}, `USERTASKS_JWT_SKIP_ISSUER_CHECK="maybe" is not a boolean`},
		{"ErrSkipAudienceNotBoolean", map[string]string{"USERTASKS_JWT_SKIP_AUDIENCE_CHECK": "yes please"}, `USERTASKS_JWT_SKIP_AUDIENCE_CHECK="yes please" is not a boolean`},
		{"ErrIssuerAndSkip", map[string]string{"USERTASKS_JWT_ISSUER": "https://idp.example", "USERTASKS_JWT_SKIP_ISSUER_CHECK": "true"}, "contradict"},
		{"ErrAudienceAndSkip", map[string]string{"USERTASKS_JWT_AUDIENCE": "user-tasks", "USERTASKS_JWT_SKIP_AUDIENCE_CHECK": "true"}, "contradict"},
		{"ErrDefaultTenantControlCharacter", map[string]string{"USERTASKS_DEFAULT_TENANT": "ac\x01me"}, "USERTASKS_DEFAULT_TENANT"},
		{"ErrDefaultTenantTooLong", map[string]string{"USERTASKS_DEFAULT_TENANT": strings.Repeat("t", 65)}, "USERTASKS_DEFAULT_TENANT"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAuth(tt.vars)
			if err == nil {
				t.Fatal("readAuth succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestAuthValidateStrict(t *testing.T) {
	keyed := map[string]string{"USERTASKS_JWT_HS256_SECRET": testHS256Secret}
	with := func(extra map[string]string) map[string]string {
		vars := maps.Clone(keyed)
		maps.Copy(vars, extra)
		return vars
	}
	tests := []struct {
		name string
		vars map[string]string
		want string // "" means accepted
	}{
		{"IssuerAndAudience/OK", with(map[string]string{"USERTASKS_JWT_ISSUER": "https://idp.example", "USERTASKS_JWT_AUDIENCE": "user-tasks"}), ""},
		{"BothSkipped/OK", with(map[string]string{"USERTASKS_JWT_SKIP_ISSUER_CHECK": "true", "USERTASKS_JWT_SKIP_AUDIENCE_CHECK": "true"}), ""},
		{"ErrNoKey", map[string]string{"USERTASKS_JWT_ISSUER": "https://idp.example", "USERTASKS_JWT_AUDIENCE": "user-tasks"}, "USERTASKS_JWT_JWKS_URL"},
		{"ErrNoIssuer", with(map[string]string{"USERTASKS_JWT_AUDIENCE": "user-tasks"}), "USERTASKS_JWT_ISSUER is required outside dev mode"},
		{"ErrNoAudience", with(map[string]string{"USERTASKS_JWT_ISSUER": "https://idp.example"}), "USERTASKS_JWT_AUDIENCE is required outside dev mode"},
		{"ErrIssuerSkipFalse", with(map[string]string{"USERTASKS_JWT_SKIP_ISSUER_CHECK": "false", "USERTASKS_JWT_AUDIENCE": "user-tasks"}), "USERTASKS_JWT_SKIP_ISSUER_CHECK=true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := readAuth(tt.vars)
			if err != nil {
				t.Fatal(err)
			}
			err = c.ValidateStrict()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("ValidateStrict: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %q, want one line", err)
			}
		})
	}
}

func TestAuthSettingsToVerifier(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c, err := readAuth(map[string]string{
			"USERTASKS_JWT_PUBLIC_KEYS": string(authtest.PublicKeyPEM(t, &authtest.RSAKey().PublicKey)),
			"USERTASKS_JWT_ISSUER":      "https://idp.example",
			"USERTASKS_CLAIM_SUBJECT":   "uid",
		})
		if err != nil {
			t.Fatal(err)
		}
		v, err := auth.NewVerifier(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(v.Close)
		token, err := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"uid": "bob", "tenant": "t1", "iss": "https://idp.example",
			"iat": time.Now().Add(-time.Minute).Unix(), "exp": time.Now().Add(5 * time.Minute).Unix()}).SignedString(authtest.RSAKey())
		if err != nil {
			t.Fatal(err)
		}
		a, err := v.Actor(t.Context(), token)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := a.Subject.ID, "bob"; got != want {
			t.Fatalf("subject = %q, want %q", got, want)
		}
	})
}

func ed25519PEM(t *testing.T) string {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return string(authtest.PublicKeyPEM(t, pub))
}
