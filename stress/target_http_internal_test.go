package stress

import (
	"context"
	"slices"
	"testing"
	"time"

	"usertasks/auth"
	"usertasks/models"
)

// The tokens the harness mints are the ones the server's verifier accepts, resolving to the
// actor the harness means: tenant, groups, permissions and the manager role.
func TestMintedTokensVerify(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	h, err := NewHTTPTarget(HTTPConfig{BaseURL: "http://127.0.0.1:1", Secret: secret, Issuer: "https://idp.example", Audience: "user-tasks"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := auth.DefaultConfig()
	cfg.HS256Secret, cfg.Issuer, cfg.Audience = secret, "https://idp.example", "user-tasks"
	v, err := auth.NewVerifier(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, want := range []models.Actor{claimer("stress-ab-cas-1", 2), watcher("stress-ab-cas-1", 0), runtimeActor("stress-ab-cas-1")} {
		tok, err := h.token(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.Actor(context.Background(), tok)
		if err != nil {
			t.Fatalf("%s: %v", want.Subject.ID, err)
		}
		if got.Tenant != want.Tenant || got.Subject.ID != want.Subject.ID || got.Manager != want.Manager ||
			!slices.Equal(got.Permissions, want.Permissions) || len(got.Groups) != len(want.Groups) {
			t.Errorf("%s: verified as %+v, want %+v", want.Subject.ID, got, want)
		}
	}
}

func TestTokensRenewHalfwayThroughTheirLifetime(t *testing.T) {
	h, err := NewHTTPTarget(HTTPConfig{BaseURL: "http://127.0.0.1:1", Secret: make([]byte, 32), Lifetime: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	a := claimer("t", 0)
	first, _ := h.token(a)
	if again, _ := h.token(a); again != first {
		t.Fatal("a fresh token was minted again")
	}
	time.Sleep(1100 * time.Millisecond)
	if later, _ := h.token(a); later == first {
		t.Fatal("the token was not renewed past half its lifetime")
	}
}

func TestHTTPTargetRefusesBadConfigurations(t *testing.T) {
	for name, cfg := range map[string]HTTPConfig{
		"NoScheme":    {BaseURL: "127.0.0.1:8080", Secret: make([]byte, 32)},
		"FileURL":     {BaseURL: "file:///etc/passwd", Secret: make([]byte, 32)},
		"NoHost":      {BaseURL: "http://", Secret: make([]byte, 32)},
		"ShortSecret": {BaseURL: "http://127.0.0.1:1", Secret: []byte("short")},
	} {
		if _, err := NewHTTPTarget(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
