package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// The issuer and audience productionVars configure.
const (
	testIssuer   = "https://idp.example"
	testAudience = "user-tasks"
)

// mintToken signs claims with productionVars' HS256 secret.
func mintToken(t *testing.T, c jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(productionVars("")["USERTASKS_JWT_HS256_SECRET"]))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tokenClaims are valid claims for user ann of tenant acme, changed by extra (nil deletes).
func tokenClaims(extra jwt.MapClaims) jwt.MapClaims {
	now := time.Now()
	c := jwt.MapClaims{
		"sub": "ann", "tenant": "acme", "iss": testIssuer, "aud": testAudience,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "permissions": []string{"user-tasks:view"},
	}
	for k, v := range extra {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

// capabilitiesAs calls the API with a bearer token and returns the status and the tenant the
// caller acts in.
func capabilitiesAs(t *testing.T, base, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/user-tasks/capabilities", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Tenant string `json:"tenant"`
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, body.Tenant
}

type tokenCase struct {
	name       string
	claims     jwt.MapClaims
	wantStatus int
	wantTenant string
}

func checkTokens(t *testing.T, base string, cases []tokenCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, tenant := capabilitiesAs(t, base, mintToken(t, tc.claims))
			if status != tc.wantStatus || tenant != tc.wantTenant {
				t.Fatalf("status %d in tenant %q, want %d in tenant %q", status, tenant, tc.wantStatus, tc.wantTenant)
			}
		})
	}
}

func TestServeTokenPolicy(t *testing.T) {
	base, logs := startServeLogged(t, productionVars(filepath.Join(t.TempDir(), "ut.db")), "--migrate")
	now := time.Now()
	checkTokens(t, base, []tokenCase{
		{"OK", tokenClaims(nil), 200, "acme"},
		{"LifetimeUnderMaximum/OK", tokenClaims(jwt.MapClaims{"exp": now.Add(23 * time.Hour).Unix()}), 200, "acme"},
		{"NoTenantClaim", tokenClaims(jwt.MapClaims{"tenant": nil}), 401, ""},
		{"EmptyTenantClaim", tokenClaims(jwt.MapClaims{"tenant": ""}), 401, ""},
		{"LifetimeOverMaximum", tokenClaims(jwt.MapClaims{"exp": now.Add(25 * time.Hour).Unix()}), 401, ""},
		{"LifetimeYears", tokenClaims(jwt.MapClaims{"exp": now.AddDate(10, 0, 0).Unix()}), 401, ""},
		{"NoExp", tokenClaims(jwt.MapClaims{"exp": nil}), 401, ""},
		{"NoIssuer", tokenClaims(jwt.MapClaims{"iss": nil}), 401, ""},
		{"WrongIssuer", tokenClaims(jwt.MapClaims{"iss": "https://evil.example"}), 401, ""},
		{"NoAudience", tokenClaims(jwt.MapClaims{"aud": nil}), 401, ""},
		{"WrongAudience", tokenClaims(jwt.MapClaims{"aud": "billing"}), 401, ""},
	})
	if strings.Contains(logs.String(), "tokens without a tenant claim act in") {
		t.Fatalf("logs claim a default tenant that is not configured: %s", logs.String())
	}
}

// TestServeTokenPolicyOnPurpose configures each relaxation explicitly: a default tenant (logged
// at start), a shorter lifetime, no issuer and audience checks.
func TestServeTokenPolicyOnPurpose(t *testing.T) {
	vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
	delete(vars, "USERTASKS_JWT_ISSUER")
	delete(vars, "USERTASKS_JWT_AUDIENCE")
	vars["USERTASKS_JWT_SKIP_ISSUER_CHECK"] = "true"
	vars["USERTASKS_JWT_SKIP_AUDIENCE_CHECK"] = "true"
	vars["USERTASKS_DEFAULT_TENANT"] = "globex"
	vars["USERTASKS_JWT_MAX_LIFETIME"] = "1h"
	base, logs := startServeLogged(t, vars, "--migrate")
	now := time.Now()
	checkTokens(t, base, []tokenCase{
		{"NoTenantClaimActsInDefault/OK", tokenClaims(jwt.MapClaims{"tenant": nil}), 200, "globex"},
		{"TenantClaimWins/OK", tokenClaims(nil), 200, "acme"},
		{"AnyIssuerAndAudience/OK", tokenClaims(jwt.MapClaims{"iss": "https://other.example", "aud": "other"}), 200, "acme"},
		{"NoIssuerNoAudience/OK", tokenClaims(jwt.MapClaims{"iss": nil, "aud": nil}), 200, "acme"},
		{"LifetimeOverConfiguredMaximum", tokenClaims(jwt.MapClaims{"exp": now.Add(2 * time.Hour).Unix()}), 401, ""},
		{"NoExp", tokenClaims(jwt.MapClaims{"exp": nil}), 401, ""},
	})
	if want := "tokens without a tenant claim act in tenant globex"; !strings.Contains(logs.String(), want) {
		t.Fatalf("start-up logs lack %q: %s", want, logs.String())
	}
}

func TestServeDevModeKeepsDefaultTenant(t *testing.T) {
	base, logs := startServeLogged(t, map[string]string{
		"USERTASKS_DEV":              "true",
		"USERTASKS_DATABASE_URL":     "sqlite:" + filepath.Join(t.TempDir(), "ut.db"),
		"USERTASKS_JWT_HS256_SECRET": productionVars("")["USERTASKS_JWT_HS256_SECRET"],
	})
	checkTokens(t, base, []tokenCase{
		{"NoTenantClaimActsInDefault/OK", tokenClaims(jwt.MapClaims{"tenant": nil, "iss": nil, "aud": nil}), 200, "default"},
		{"LifetimeOverMaximum", tokenClaims(jwt.MapClaims{"exp": time.Now().Add(25 * time.Hour).Unix()}), 401, ""},
	})
	if want := "tokens without a tenant claim act in tenant default"; !strings.Contains(logs.String(), want) {
		t.Fatalf("start-up logs lack %q: %s", want, logs.String())
	}
}

// TestServeRefusesLaxTokenPolicy checks each configuration refused at start, with a one-line
// reason.
func TestServeRefusesLaxTokenPolicy(t *testing.T) {
	tests := []struct {
		name   string
		change map[string]string // "" deletes
		want   string
	}{
		{"NoIssuer", map[string]string{"USERTASKS_JWT_ISSUER": ""}, "USERTASKS_JWT_ISSUER is required outside dev mode"},
		{"NoAudience", map[string]string{"USERTASKS_JWT_AUDIENCE": ""}, "USERTASKS_JWT_AUDIENCE is required outside dev mode"},
		{"SkipIssuerFalse", map[string]string{"USERTASKS_JWT_ISSUER": "", "USERTASKS_JWT_SKIP_ISSUER_CHECK": "false"}, "USERTASKS_JWT_ISSUER is required outside dev mode"},
		{"SkipNotBoolean", map[string]string{"USERTASKS_JWT_SKIP_AUDIENCE_CHECK": "maybe"}, `USERTASKS_JWT_SKIP_AUDIENCE_CHECK="maybe" is not a boolean`},
		{"IssuerAndSkip", map[string]string{"USERTASKS_JWT_SKIP_ISSUER_CHECK": "true"}, "contradict"},
		{"MaxLifetimeNotDuration", map[string]string{"USERTASKS_JWT_MAX_LIFETIME": "forever"}, `USERTASKS_JWT_MAX_LIFETIME="forever"`},
		{"MaxLifetimeZero", map[string]string{"USERTASKS_JWT_MAX_LIFETIME": "0"}, `USERTASKS_JWT_MAX_LIFETIME="0"`},
		{"RequireTenantGone", map[string]string{"USERTASKS_REQUIRE_TENANT": "false"}, "USERTASKS_REQUIRE_TENANT is no longer read"},
		{"DefaultTenantControlCharacter", map[string]string{"USERTASKS_DEFAULT_TENANT": "ac\x7fme"}, "USERTASKS_DEFAULT_TENANT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
			for k, v := range tt.change {
				if v == "" {
					delete(vars, k)
				} else {
					vars[k] = v
				}
			}
			// A server that starts anyway is stopped, so the failure shows instead of a hang.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			var out, errOut syncBuffer
			code := run(ctx, []string{"serve", "--migrate", "--listen", "127.0.0.1:0"}, env(vars), &out, &errOut)
			reason := strings.TrimSpace(errOut.String())
			if code != 1 || !strings.Contains(reason, tt.want) || strings.Contains(reason, "\n") {
				t.Fatalf("exit %d, stderr %q: want 1 and one line naming %q", code, reason, tt.want)
			}
		})
	}
}
