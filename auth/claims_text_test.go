package auth

import (
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// TestVerifierDisplayNameNeutralised: a name claim with control characters or bidirectional
// overrides is dropped — the token is accepted, the actor has no display name — so it never
// reaches pages, events or logs raw; ordinary names, right-to-left ones included, are kept.
func TestVerifierDisplayNameNeutralised(t *testing.T) {
	v := newVerifier(t, Config{HS256Secret: testSecret})
	for name, tt := range map[string]struct{ claim, want string }{
		"Plain/OK":         {"Ann Approver", "Ann Approver"},
		"RightToLeft/OK":   {"\u05d0\u05d1\u200f Ann", "\u05d0\u05d1\u200f Ann"},
		"Override":         {"Ann\u202Egnp.exe", ""},
		"Isolate":          {"Ann\u2066x", ""},
		"NUL":              {"Ann\x00", ""},
		"CRLF":             {"Ann\r\nX-Injected: 1", ""},
		"Bell":             {"Ann\a", ""},
		"C1Control":        {"An\u0085n", ""},
		"Escape":           {"Ann\x1b[31m", ""},
		"OnlySpaces":       {"   ", ""},
		"TrailingSpace/OK": {"Ann ", "Ann"},
	} {
		t.Run(name, func(t *testing.T) {
			a, err := v.Actor(t.Context(), sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"name": tt.claim}), ""))
			if err != nil {
				t.Fatalf("Actor: %v", err)
			}
			if a.DisplayName != tt.want || a.Subject.DisplayName != tt.want {
				t.Errorf("display name %q (subject %q), want %q", a.DisplayName, a.Subject.DisplayName, tt.want)
			}
		})
	}
}
