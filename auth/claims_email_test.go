package auth

import "testing"

func TestEmailClaim(t *testing.T) {
	cfg := Config{Claims: DefaultClaimNames(), DefaultTenant: "acme"}
	for _, tc := range []struct {
		name  string
		claim any
		want  string
	}{
		{"OK", "ada@example.com", "ada@example.com"},
		{"Absent", nil, ""},
		{"NotAString", 42, ""},
		{"NoAt", "ada.example.com", ""},
		{"TwoAts", "ada@b@example.com", ""},
		{"HeaderInjection", "ada@example.com\r\nBcc: eve@example.com", ""},
		{"DisplayNameForm", "Ada <ada@example.com>", ""},
		{"BidiOverride", "ada\u202e@example.com", ""},
		{"TooLong", string(make([]byte, 250)) + "@x.io", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claims := map[string]any{"sub": "ada"}
			if tc.claim != nil {
				claims["email"] = tc.claim
			}
			a, err := cfg.ActorFromClaims(claims)
			if err != nil {
				t.Fatalf("the token was refused for its email claim: %v", err)
			}
			if a.Email != tc.want {
				t.Fatalf("Email = %q, want %q", a.Email, tc.want)
			}
		})
	}
}
