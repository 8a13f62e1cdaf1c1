package auth

import (
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// TestVerifierRefusesIDTokens: an OpenID Connect ID token proves a sign-in to a client; it is no
// API credential even when its signature, issuer and audience fit. Tokens that say they are ID
// tokens (Keycloak's typ claim "ID", Cognito's token_use "id", a typ header "ID") are refused,
// as are tokens whose audience is the OIDC sign-in client; access tokens pass.
func TestVerifierRefusesIDTokens(t *testing.T) {
	v := newVerifier(t, Config{HS256Secret: testSecret, Audience: "user-tasks", RefusedAudience: "web-client"})
	for _, tt := range []struct {
		name   string
		claims jwt.MapClaims
		header map[string]any
	}{
		{"TypClaimID", jwt.MapClaims{"typ": "ID"}, nil},
		{"TypClaimIDLowerCase", jwt.MapClaims{"typ": "id"}, nil},
		{"TokenUseID", jwt.MapClaims{"token_use": "id"}, nil},
		{"TypHeaderID", nil, map[string]any{"typ": "ID"}},
		{"TypHeaderIDToken", nil, map[string]any{"typ": "id_token+jwt"}},
		{"AudienceOfTheSignInClient", jwt.MapClaims{"aud": []any{"user-tasks", "web-client"}}, nil},
	} {
		t.Run("ErrUnauthorized_"+tt.name, func(t *testing.T) {
			c := claims(jwt.MapClaims{"aud": "user-tasks"})
			for k, x := range tt.claims {
				c[k] = x
			}
			tok := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
			for k, x := range tt.header {
				tok.Header[k] = x
			}
			raw, err := tok.SignedString(testSecret)
			if err != nil {
				t.Fatal(err)
			}
			_, err = v.Actor(t.Context(), raw)
			requireUnauthorized(t, err, raw)
		})
	}
	for _, tt := range []struct {
		name   string
		claims jwt.MapClaims
		header map[string]any
	}{
		{"NoMarks", nil, nil},
		{"KeycloakAccessToken", jwt.MapClaims{"typ": "Bearer", "azp": "web-client"}, nil},
		{"CognitoAccessToken", jwt.MapClaims{"token_use": "access"}, nil},
		{"RFC9068Header", nil, map[string]any{"typ": "at+jwt"}},
	} {
		t.Run("OK_"+tt.name, func(t *testing.T) {
			c := claims(jwt.MapClaims{"aud": "user-tasks"})
			for k, x := range tt.claims {
				c[k] = x
			}
			tok := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
			for k, x := range tt.header {
				tok.Header[k] = x
			}
			raw, err := tok.SignedString(testSecret)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.Actor(t.Context(), raw); err != nil {
				t.Fatalf("an access token was refused: %v", err)
			}
		})
	}
}
