package auth

import (
	"crypto"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"

	"usertasks/auth/authtest"
	"usertasks/models"
)

func TestVerifierActor(t *testing.T) {
	rsaPEM := authtest.PublicKeyPEM(t, &rsaKey().PublicKey)
	hs := Config{HS256Secret: testSecret}
	rs := Config{PublicKeys: []crypto.PublicKey{&rsaKey().PublicKey}}
	es := Config{PublicKeys: []crypto.PublicKey{&ecKey().PublicKey}}
	mixed := Config{HS256Secret: testSecret, PublicKeys: []crypto.PublicKey{&rsaKey().PublicKey, &ecKey().PublicKey}}
	checked := Config{HS256Secret: testSecret, Issuer: "https://idp.example", Audience: "user-tasks"}

	tests := []struct {
		name   string
		cfg    Config
		token  func(t *testing.T) string
		reason string // "" means the token is accepted
	}{
		{"HS256/OK", hs, func(t *testing.T) string { return sign(t, jwt.SigningMethodHS256, testSecret, claims(nil), "") }, ""},
		{"RS256/OK", rs, func(t *testing.T) string { return sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "") }, ""},
		{"ES256/OK", es, func(t *testing.T) string { return sign(t, jwt.SigningMethodES256, ecKey(), claims(nil), "") }, ""},
		{"Mixed/RS256OK", mixed, func(t *testing.T) string { return sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "") }, ""},
		{"Mixed/ES256OK", mixed, func(t *testing.T) string { return sign(t, jwt.SigningMethodES256, ecKey(), claims(nil), "") }, ""},
		{"Mixed/HS256OK", mixed, func(t *testing.T) string { return sign(t, jwt.SigningMethodHS256, testSecret, claims(nil), "") }, ""},
		{"KidIgnoredForStaticKeys/OK", rs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "some-kid")
		}, ""},

		{"AlgNone", mixed, func(t *testing.T) string {
			s, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}, "signing algorithm not accepted"},
		{"AlgNoneWithoutSignatureSegment", hs, func(t *testing.T) string {
			s, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
			if err != nil {
				t.Fatal(err)
			}
			return strings.TrimSuffix(s, ".") + "."
		}, "signing algorithm not accepted"},
		{"AlgorithmConfusion/HS256WithRSAPublicKeyAgainstRS256Only", rs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, rsaPEM, claims(nil), "")
		}, "signing algorithm not accepted"},
		{"AlgorithmConfusion/HS256WithRSAPublicKeyAgainstSecretAndRSA", mixed, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, rsaPEM, claims(nil), "")
		}, "invalid signature"},
		{"RS256AgainstECOnly", es, func(t *testing.T) string { return sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "") }, "signing algorithm not accepted"},
		{"ES256AgainstRSAOnly", rs, func(t *testing.T) string { return sign(t, jwt.SigningMethodES256, ecKey(), claims(nil), "") }, "signing algorithm not accepted"},
		{"RS512NotAccepted", rs, func(t *testing.T) string { return sign(t, jwt.SigningMethodRS512, rsaKey(), claims(nil), "") }, "signing algorithm not accepted"},
		{"HS512NotAccepted", hs, func(t *testing.T) string { return sign(t, jwt.SigningMethodHS512, testSecret, claims(nil), "") }, "signing algorithm not accepted"},

		{"OtherKey/HS256", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-xx"), claims(nil), "")
		}, "invalid signature"},
		{"OtherKey/RS256", rs, func(t *testing.T) string { return sign(t, jwt.SigningMethodRS256, otherRSAKey(), claims(nil), "") }, "invalid signature"},
		{"OtherKey/ES256", es, func(t *testing.T) string { return sign(t, jwt.SigningMethodES256, otherECKey(), claims(nil), "") }, "invalid signature"},
		{"TamperedPayload", hs, func(t *testing.T) string {
			good := strings.Split(sign(t, jwt.SigningMethodHS256, testSecret, claims(nil), ""), ".")
			evil := strings.Split(sign(t, jwt.SigningMethodHS256, []byte("x"), claims(jwt.MapClaims{"sub": "mallory"}), ""), ".")
			return good[0] + "." + evil[1] + "." + good[2]
		}, "invalid signature"},
		{"CriticalHeader", hs, func(t *testing.T) string {
			tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims(nil))
			tok.Header["crit"] = []string{"b64"}
			s, err := tok.SignedString(testSecret)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}, "unsupported critical header"},

		{"Expired", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": fixedNow.Add(-31 * time.Second).Unix()}), "")
		}, "token expired"},
		{"NotYetValid", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"nbf": fixedNow.Add(time.Minute).Unix()}), "")
		}, "token not valid yet"},
		{"IssuedInFuture", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"iat": fixedNow.Add(time.Minute).Unix()}), "")
		}, "token issued in the future"},
		{"WithinLeeway/OK", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{
				"exp": fixedNow.Add(-20 * time.Second).Unix(),
				"nbf": fixedNow.Add(20 * time.Second).Unix(),
				"iat": fixedNow.Add(20 * time.Second).Unix(),
			}), "")
		}, ""},
		{"LeewayConfigurable", Config{HS256Secret: testSecret, Leeway: time.Second}, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": fixedNow.Add(-20 * time.Second).Unix()}), "")
		}, "token expired"},
		{"MissingExp", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": nil}), "")
		}, "missing required claim"},
		{"ExpNotANumber", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": "tomorrow"}), "")
		}, "invalid token"},
		{"LifetimeAtMaximum/OK", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": fixedNow.Add(DefaultMaxLifetime).Unix()}), "")
		}, ""},
		{"LifetimeOverMaximumWithinLeeway/OK", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": fixedNow.Add(DefaultMaxLifetime + 20*time.Second).Unix()}), "")
		}, ""},
		{"LifetimeOverMaximum", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": fixedNow.Add(DefaultMaxLifetime + DefaultLeeway + time.Second).Unix()}), "")
		}, "token lifetime over the maximum"},
		{"LifetimeYear9999", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).Unix()}), "")
		}, "token lifetime over the maximum"},
		{"LifetimeHugeNumber", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": 1e300}), "")
		}, "token"},
		{"LifetimeConfigurable", Config{HS256Secret: testSecret, MaxLifetime: time.Hour}, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"exp": fixedNow.Add(2 * time.Hour).Unix()}), "")
		}, "token lifetime over the maximum"},

		{"IssuerAndAudience/OK", checked, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"iss": "https://idp.example", "aud": "user-tasks"}), "")
		}, ""},
		{"AudienceAmongSeveral/OK", checked, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"iss": "https://idp.example", "aud": []string{"other", "user-tasks"}}), "")
		}, ""},
		{"WrongIssuer", checked, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"iss": "https://evil.example", "aud": "user-tasks"}), "")
		}, "wrong issuer"},
		{"MissingIssuer", checked, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"aud": "user-tasks"}), "")
		}, "missing required claim"},
		{"WrongAudience", checked, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"iss": "https://idp.example", "aud": "billing"}), "")
		}, "wrong audience"},
		{"MissingAudience", checked, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"iss": "https://idp.example"}), "")
		}, "missing required claim"},
		{"IssuerNotCheckedWhenUnset/OK", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"iss": "anyone", "aud": "anything"}), "")
		}, ""},

		{"MissingSub", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"sub": nil}), "")
		}, "missing subject claim"},
		{"EmptySub", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"sub": ""}), "")
		}, "missing subject claim"},
		{"SubNotAString", hs, func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, testSecret, claims(jwt.MapClaims{"sub": 42}), "")
		}, "sub claim is not a string"},

		{"Garbage", hs, func(*testing.T) string { return "not-a-token" }, "malformed token"},
		{"GarbageSegments", hs, func(*testing.T) string { return "abc.def.ghi" }, "malformed token"},
		{"Empty", hs, func(*testing.T) string { return "" }, "missing token"},
		{"TooLarge", hs, func(*testing.T) string { return strings.Repeat("a", MaxTokenBytes+1) }, "token too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newVerifier(t, tt.cfg)
			token := tt.token(t)
			a, err := v.Actor(t.Context(), token)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("Actor: %v", err)
				}
				if got, want := a.Subject.ID, "alice"; got != want {
					t.Fatalf("subject = %q, want %q", got, want)
				}
				return
			}
			requireUnauthorized(t, err, token)
			if !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("err = %q, want reason %q", err, tt.reason)
			}
			if got, want := models.ErrorCode(err), models.CodeUnauthenticated; got != want {
				t.Fatalf("code = %q, want %q", got, want)
			}
		})
	}
}

func TestVerifierClaims(t *testing.T) {
	type check func(t *testing.T, a models.Actor)
	ref := func(tenant, provider string, typ models.ParticipantType, id, name string) models.ParticipantRef {
		return models.ParticipantRef{Tenant: tenant, Provider: provider, Type: typ, ID: id, DisplayName: name}
	}
	// onPurpose names a default tenant, as USERTASKS_DEFAULT_TENANT does (dev mode too).
	onPurpose := Config{DefaultTenant: DefaultTenant}
	tests := []struct {
		name   string
		cfg    Config
		claims jwt.MapClaims
		reason string // "" means accepted
		check  check
	}{
		{"TenantMissingRefused", Config{}, nil, "missing tenant claim", nil},
		{"TenantEmptyClaimRefused", Config{}, jwt.MapClaims{"tenant": ""}, "missing tenant claim", nil},
		{"TenantDefaultOnPurpose", onPurpose, nil, "", func(t *testing.T, a models.Actor) {
			equal(t, "tenant", a.Tenant, DefaultTenant)
			equal(t, "subject", a.Subject, ref(DefaultTenant, models.DefaultProvider, models.UserParticipant, "alice", ""))
		}},
		{"TenantConfiguredDefault", Config{DefaultTenant: "acme"}, nil, "", func(t *testing.T, a models.Actor) {
			equal(t, "tenant", a.Tenant, "acme")
		}},
		{"TenantFromClaim", Config{}, jwt.MapClaims{"tenant": "globex"}, "", func(t *testing.T, a models.Actor) {
			equal(t, "tenant", a.Tenant, "globex")
			equal(t, "subject tenant", a.Subject.Tenant, "globex")
		}},
		{"TenantClaimWinsOverDefault", Config{DefaultTenant: "acme"}, jwt.MapClaims{"tenant": "globex"}, "", func(t *testing.T, a models.Actor) {
			equal(t, "tenant", a.Tenant, "globex")
		}},
		{"TenantEmptyClaimUsesDefault", onPurpose, jwt.MapClaims{"tenant": ""}, "", func(t *testing.T, a models.Actor) {
			equal(t, "tenant", a.Tenant, DefaultTenant)
		}},
		{"TenantNotAString", Config{}, jwt.MapClaims{"tenant": []string{"a"}}, "tenant claim is not a string", nil},
		{"TenantTooLong", Config{}, jwt.MapClaims{"tenant": strings.Repeat("t", models.MaxTenantLength+1)}, "tenant claim longer than", nil},
		{"TenantControlCharacter", Config{}, jwt.MapClaims{"tenant": "a\x00b"}, "tenant claim contains invalid characters", nil},

		{"ProviderAndName", onPurpose, jwt.MapClaims{"idp": "okta", "name": "Alice A."}, "", func(t *testing.T, a models.Actor) {
			equal(t, "subject", a.Subject, ref(DefaultTenant, "okta", models.UserParticipant, "alice", "Alice A."))
			equal(t, "display name", a.DisplayName, "Alice A.")
			equal(t, "ref", *a.Ref(), a.Subject)
		}},
		{"ProviderTooLong", onPurpose, jwt.MapClaims{"idp": strings.Repeat("p", models.MaxProviderLength+1)}, "provider claim longer than", nil},
		{"SubTooLong", onPurpose, jwt.MapClaims{"sub": strings.Repeat("s", models.MaxParticipantIDLength+1)}, "subject claim longer than", nil},
		{"SubAtLimit", onPurpose, jwt.MapClaims{"sub": strings.Repeat("s", models.MaxParticipantIDLength)}, "", func(t *testing.T, a models.Actor) {
			equal(t, "valid", a.Subject.Valid(), true)
		}},
		{"NameTruncated", onPurpose, jwt.MapClaims{"name": strings.Repeat("é", models.MaxDisplayNameLength)}, "", func(t *testing.T, a models.Actor) {
			equal(t, "name bytes", len(a.DisplayName), models.MaxDisplayNameLength)
			equal(t, "valid", a.Subject.Valid(), true)
		}},

		{"GroupsArray", onPurpose, jwt.MapClaims{"tenant": "acme", "idp": "okta", "groups": []string{"ops", "hr", "ops", ""}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "groups", a.Groups, []models.ParticipantRef{
				ref("acme", "okta", models.GroupParticipant, "ops", ""),
				ref("acme", "okta", models.GroupParticipant, "hr", ""),
			})
			equal(t, "in group", a.InGroup(ref("acme", "okta", models.GroupParticipant, "hr", "")), true)
			equal(t, "other tenant", a.InGroup(ref("globex", "okta", models.GroupParticipant, "hr", "")), false)
		}},
		{"GroupsSingleString", onPurpose, jwt.MapClaims{"groups": "ops team"}, "", func(t *testing.T, a models.Actor) {
			equal(t, "groups", a.Groups, []models.ParticipantRef{ref(DefaultTenant, models.DefaultProvider, models.GroupParticipant, "ops team", "")})
		}},
		{"GroupsAbsent", onPurpose, nil, "", func(t *testing.T, a models.Actor) {
			equal(t, "groups", len(a.Groups), 0)
		}},
		{"GroupsNotStrings", onPurpose, jwt.MapClaims{"groups": []any{"ops", 7}}, "groups claim is not a list of strings", nil},
		{"GroupsObject", onPurpose, jwt.MapClaims{"groups": map[string]any{"a": "b"}}, "groups claim is not a list of strings", nil},
		{"GroupTooLong", onPurpose, jwt.MapClaims{"groups": []string{strings.Repeat("g", models.MaxParticipantIDLength+1)}}, "group claim longer than", nil},
		{"TooManyGroups", onPurpose, jwt.MapClaims{"groups": manyGroups(MaxGroups + 1)}, "more than 1000 groups", nil},

		{"PermissionsArray", onPurpose, jwt.MapClaims{"permissions": []string{models.PermView, models.PermClaim}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "permissions", a.Permissions, []string{models.PermView, models.PermClaim})
		}},
		{"PermissionsSpaceSeparated", onPurpose, jwt.MapClaims{"permissions": "user-tasks:view  user-tasks:claim"}, "", func(t *testing.T, a models.Actor) {
			equal(t, "permissions", a.Permissions, []string{models.PermView, models.PermClaim})
		}},
		{"PermissionPatternsThroughActor", onPurpose, jwt.MapClaims{"permissions": []string{"user-tasks/*:view", "user-tasks:claim", "read:user-tasks"}}, "", func(t *testing.T, a models.Actor) {
			for perm, want := range map[string]bool{
				models.PermView:             true,
				models.PermParticipantsView: true,
				models.PermClaim:            true,
				models.PermComplete:         false,
				models.PermSupervise:        false,
				models.PermRuntimeWrite:     false,
			} {
				equal(t, perm, models.ActorCan(a, perm), want)
			}
		}},

		{"Manager/RoleAndSupervise", onPurpose, jwt.MapClaims{"roles": []string{"user-tasks:manager"}, "permissions": []string{models.PermSupervise}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "manager", a.Manager, true)
		}},
		{"Manager/RoleAndWildcard", onPurpose, jwt.MapClaims{"roles": "user-tasks:manager", "permissions": "user-tasks:*"}, "", func(t *testing.T, a models.Actor) {
			equal(t, "manager", a.Manager, true)
		}},
		{"NotManager/RoleWithoutSupervise", onPurpose, jwt.MapClaims{"roles": []string{"user-tasks:manager"}, "permissions": []string{models.PermView}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "manager", a.Manager, false)
		}},
		{"NotManager/SuperviseWithoutRole", onPurpose, jwt.MapClaims{"roles": []string{"admin"}, "permissions": []string{models.PermSupervise}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "manager", a.Manager, false)
		}},
		{"NotManager/RoleInPermissions", onPurpose, jwt.MapClaims{"permissions": []string{"user-tasks:manager", models.PermSupervise}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "manager", a.Manager, false)
		}},
		{"Manager/CustomRole", Config{ManagerRole: "approver", DefaultTenant: DefaultTenant}, jwt.MapClaims{"roles": []string{"approver"}, "permissions": []string{models.PermSupervise}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "manager", a.Manager, true)
		}},
		{"NotManager/DefaultRoleWhenCustomConfigured", Config{ManagerRole: "approver", DefaultTenant: DefaultTenant}, jwt.MapClaims{"roles": []string{"user-tasks:manager"}, "permissions": []string{models.PermSupervise}}, "", func(t *testing.T, a models.Actor) {
			equal(t, "manager", a.Manager, false)
		}},
		{"RolesNotStrings", onPurpose, jwt.MapClaims{"roles": 3}, "roles claim is not a list of strings", nil},

		{"CustomClaimNames", Config{Claims: ClaimNames{
			Subject: "oid", Tenant: "tid", Provider: "iss_name", Name: "preferred_username",
			Groups: "grp", Permissions: "scope", Roles: "realm_access.roles",
		}}, jwt.MapClaims{
			"sub": nil, "oid": "u-1", "tid": "acme", "iss_name": "entra", "preferred_username": "Uma",
			"grp":          []string{"g-1"},
			"scope":        "user-tasks:view user-tasks:supervise",
			"realm_access": map[string]any{"roles": []string{"user-tasks:manager"}},
			// The default names are ignored once renamed.
			"tenant": "ignored", "groups": []string{"ignored"}, "permissions": []string{"*"},
		}, "", func(t *testing.T, a models.Actor) {
			equal(t, "subject", a.Subject, ref("acme", "entra", models.UserParticipant, "u-1", "Uma"))
			equal(t, "groups", a.Groups, []models.ParticipantRef{ref("acme", "entra", models.GroupParticipant, "g-1", "")})
			equal(t, "permissions", a.Permissions, []string{models.PermView, models.PermSupervise})
			equal(t, "manager", a.Manager, true)
		}},
		{"CustomSubjectMissing", Config{Claims: ClaimNames{Subject: "oid"}}, nil, "missing subject claim", nil},
		{"DottedNamePrefersExactKey", Config{Claims: ClaimNames{Tenant: "https://example.com/tenant"}}, jwt.MapClaims{"https://example.com/tenant": "acme"}, "", func(t *testing.T, a models.Actor) {
			equal(t, "tenant", a.Tenant, "acme")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.HS256Secret = testSecret
			v := newVerifier(t, cfg)
			extra := jwt.MapClaims{"tenant": nil} // the cases name the tenant claim themselves
			maps.Copy(extra, tt.claims)
			token := sign(t, jwt.SigningMethodHS256, testSecret, claims(extra), "")
			a, err := v.Actor(t.Context(), token)
			if tt.reason != "" {
				requireUnauthorized(t, err, token)
				if !strings.Contains(err.Error(), tt.reason) {
					t.Fatalf("err = %q, want reason %q", err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("Actor: %v", err)
			}
			if a.System || a.Guest != nil {
				t.Fatalf("a token actor is neither system nor guest: %+v", a)
			}
			tt.check(t, a)
		})
	}
}

func TestVerifierJWKS(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		srv := newJWKSServer(t,
			jwksKey{kid: "r1", alg: jwkset.AlgRS256, use: jwkset.UseSig, key: &rsaKey().PublicKey},
			jwksKey{kid: "e1", alg: jwkset.AlgES256, key: &ecKey().PublicKey},
		)
		v := newVerifier(t, Config{JWKSURL: srv.URL})
		for name, token := range map[string]string{
			"RS256":      sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "r1"),
			"ES256":      sign(t, jwt.SigningMethodES256, ecKey(), claims(nil), "e1"),
			"RS256NoKid": sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), ""),
		} {
			if _, err := v.Actor(t.Context(), token); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
	t.Run("RotatedKeyPickedUp", func(t *testing.T) {
		srv := newJWKSServer(t, jwksKey{kid: "old", alg: jwkset.AlgRS256, key: &rsaKey().PublicKey})
		v := newVerifier(t, Config{JWKSURL: srv.URL})
		if _, err := v.Actor(t.Context(), sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "old")); err != nil {
			t.Fatalf("old key before rotation: %v", err)
		}
		srv.set(t, jwksKey{kid: "new", alg: jwkset.AlgRS256, key: &otherRSAKey().PublicKey})
		if _, err := v.Actor(t.Context(), sign(t, jwt.SigningMethodRS256, otherRSAKey(), claims(nil), "new")); err != nil {
			t.Fatalf("new key after rotation: %v", err)
		}
		// The refresh replaced the set: the retired key no longer verifies, and the spent
		// unknown-kid budget refuses at once instead of fetching again.
		before := srv.requests()
		token := sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "old")
		_, err := v.Actor(t.Context(), token)
		requireUnauthorized(t, err, token)
		if got := srv.requests(); got != before {
			t.Fatalf("requests = %d, want %d (unknown-kid refresh is rate limited)", got, before)
		}
	})
	t.Run("UnknownKid", func(t *testing.T) {
		srv := newJWKSServer(t, jwksKey{kid: "r1", alg: jwkset.AlgRS256, key: &rsaKey().PublicKey})
		v := newVerifier(t, Config{JWKSURL: srv.URL})
		token := sign(t, jwt.SigningMethodRS256, otherRSAKey(), claims(nil), "r2")
		_, err := v.Actor(t.Context(), token)
		requireUnauthorized(t, err, token)
		if !strings.Contains(err.Error(), "no key for this token") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("KidOfOtherKeyType", func(t *testing.T) {
		srv := newJWKSServer(t, jwksKey{kid: "e1", key: &ecKey().PublicKey})
		v := newVerifier(t, Config{JWKSURL: srv.URL})
		token := sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "e1")
		_, err := v.Actor(t.Context(), token)
		requireUnauthorized(t, err, token)
	})
	t.Run("EncryptionKeyNotUsed", func(t *testing.T) {
		srv := newJWKSServer(t, jwksKey{kid: "r1", use: jwkset.UseEnc, key: &rsaKey().PublicKey})
		v := newVerifier(t, Config{JWKSURL: srv.URL})
		token := sign(t, jwt.SigningMethodRS256, rsaKey(), claims(nil), "r1")
		_, err := v.Actor(t.Context(), token)
		requireUnauthorized(t, err, token)
	})
	t.Run("SymmetricKeyInSetNotUsed", func(t *testing.T) {
		srv := newJWKSServer(t)
		k := base64.RawURLEncoding.EncodeToString(testSecret)
		srv.setRaw(fmt.Appendf(nil, `{"keys":[{"kty":"oct","kid":"h1","alg":"HS256","k":%q}]}`, k))
		v := newVerifier(t, Config{JWKSURL: srv.URL})
		token := sign(t, jwt.SigningMethodHS256, testSecret, claims(nil), "h1")
		_, err := v.Actor(t.Context(), token)
		requireUnauthorized(t, err, token)
		if !strings.Contains(err.Error(), "signing algorithm not accepted") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("AlgorithmConfusionWithJWKSKey", func(t *testing.T) {
		srv := newJWKSServer(t, jwksKey{kid: "r1", alg: jwkset.AlgRS256, key: &rsaKey().PublicKey})
		v := newVerifier(t, Config{JWKSURL: srv.URL, HS256Secret: testSecret})
		token := sign(t, jwt.SigningMethodHS256, authtest.PublicKeyPEM(t, &rsaKey().PublicKey), claims(nil), "r1")
		_, err := v.Actor(t.Context(), token)
		requireUnauthorized(t, err, token)
	})
	t.Run("Unreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		t.Cleanup(srv.Close)
		_, err := NewVerifier(t.Context(), Config{JWKSURL: srv.URL})
		if err == nil {
			t.Fatal("NewVerifier succeeded against a JWKS URL answering 404")
		}
		if errors.Is(err, models.ErrUnauthorized) {
			t.Fatalf("a configuration error is not ErrUnauthorized: %v", err)
		}
	})
	t.Run("CloseStopsRefresh", func(t *testing.T) {
		srv := newJWKSServer(t, jwksKey{kid: "r1", alg: jwkset.AlgRS256, key: &rsaKey().PublicKey})
		v := newVerifier(t, Config{JWKSURL: srv.URL, JWKSRefreshInterval: 10 * time.Millisecond})
		deadline := time.Now().Add(5 * time.Second)
		for srv.requests() < 3 {
			if time.Now().After(deadline) {
				t.Fatalf("background refresh made %d requests, want at least 3", srv.requests())
			}
			time.Sleep(5 * time.Millisecond)
		}
		v.Close()
		time.Sleep(50 * time.Millisecond) // let a refresh already under way finish
		stopped := srv.requests()
		time.Sleep(100 * time.Millisecond)
		if got := srv.requests(); got != stopped {
			t.Fatalf("requests after Close = %d, want %d", got, stopped)
		}
		v.Close() // idempotent
	})
}

func TestNewVerifier(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"ErrNoKey", Config{}, "no token key configured"},
		{"ErrShortSecret", Config{HS256Secret: []byte("short")}, "at least 32"},
		{"ErrWeakRSAKey", Config{PublicKeys: []crypto.PublicKey{&authtest.MustRSA(1024).PublicKey}}, "at least 2048"},
		{"ErrJWKSPlainHTTP", Config{JWKSURL: "http://idp.example/jwks"}, "must use https"},
		{"ErrJWKSRelative", Config{JWKSURL: "/jwks"}, "not an absolute URL"},
		{"ErrNegativeLeeway", Config{HS256Secret: testSecret, Leeway: -time.Second}, "leeway"},
		{"ErrDefaultTenantTooLong", Config{HS256Secret: testSecret, DefaultTenant: strings.Repeat("t", 65)}, "USERTASKS_DEFAULT_TENANT"},
		{"ErrDefaultTenantControlCharacter", Config{HS256Secret: testSecret, DefaultTenant: "a\nb"}, "USERTASKS_DEFAULT_TENANT"},
		{"ErrNegativeMaxLifetime", Config{HS256Secret: testSecret, MaxLifetime: -time.Hour}, "USERTASKS_JWT_MAX_LIFETIME"},
		{"ErrIssuerAndSkip", Config{HS256Secret: testSecret, Issuer: "https://idp.example", SkipIssuerCheck: true}, "USERTASKS_JWT_SKIP_ISSUER_CHECK"},
		{"ErrAudienceAndSkip", Config{HS256Secret: testSecret, Audience: "user-tasks", SkipAudienceCheck: true}, "USERTASKS_JWT_SKIP_AUDIENCE_CHECK"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := NewVerifier(t.Context(), tt.cfg)
			if err == nil {
				v.Close()
				t.Fatal("NewVerifier succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

func manyGroups(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("g%d", i)
	}
	return out
}

// equal stops the test when got differs from want.
func equal[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %+v, want %+v", what, got, want)
	}
}
