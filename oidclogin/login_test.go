package oidclogin_test

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/auth"
	"usertasks/models"
	"usertasks/oidclogin"
	"usertasks/oidclogin/oidctest"
)

// newLogin discovers idp with the given claim mapping; now, when set, is the flow's clock.
func newLogin(t *testing.T, idp *oidctest.Provider, mapping auth.Config, now func() time.Time) *oidclogin.Login {
	t.Helper()
	login, err := oidclogin.New(context.Background(), oidclogin.Config{
		Issuer: idp.URL(), ClientID: "web-client", RedirectURL: "https://tasks.example/login/oidc/callback", Mapping: mapping, Now: now,
	})
	if err != nil {
		t.Fatal(err)
	}
	return login
}

// signIn runs one sign-in with the given claims and mapping; ok is false when it was refused.
func signIn(t *testing.T, idp *oidctest.Provider, mapping auth.Config, claims map[string]any) (models.Actor, bool) {
	t.Helper()
	idp.SetClaims(claims)
	login := newLogin(t, idp, mapping, nil)
	st, target := login.Start("")
	a, _, err := login.Finish(context.Background(), st, idp.Authorize(t, target))
	if err != nil {
		return models.Actor{}, false
	}
	return a, true
}

func TestLoginClaimMapping(t *testing.T) {
	idp := oidctest.NewProvider(t)
	// onPurpose configures a default tenant, as USERTASKS_DEFAULT_TENANT does.
	onPurpose := auth.DefaultConfig()
	onPurpose.DefaultTenant = "default"
	nested := onPurpose
	nested.Claims.Roles = "realm_access.roles"
	nested.Claims.Groups = "grp"
	strict := auth.DefaultConfig()

	t.Run("DefaultsAndNestedClaims", func(t *testing.T) {
		a, ok := signIn(t, idp, nested, map[string]any{"sub": "u1", "grp": "solo",
			"permissions": []string{"user-tasks:*"}, "realm_access": map[string]any{"roles": []string{"user-tasks:manager"}}})
		if !ok || a.Tenant != "default" || a.Subject.Provider != "default" || len(a.Groups) != 1 || a.Groups[0].ID != "solo" || !a.Manager {
			t.Fatalf("actor %+v (ok %v)", a, ok)
		}
	})
	t.Run("ManagerNeedsSupervise", func(t *testing.T) {
		a, ok := signIn(t, idp, onPurpose, map[string]any{"sub": "u1", "permissions": []string{"user-tasks:view"}, "roles": "user-tasks:manager"})
		if !ok || a.Manager {
			t.Fatalf("manager without supervise: %+v", a)
		}
	})
	for name, claims := range map[string]map[string]any{
		"NoSubject":        {"tenant": "t1"},
		"GroupsNotStrings": {"sub": "u1", "groups": []any{1, 2}},
		"TenantNotString":  {"sub": "u1", "tenant": 7},
	} {
		t.Run(name, func(t *testing.T) {
			if _, ok := signIn(t, idp, onPurpose, claims); ok {
				t.Fatal("signed in")
			}
		})
	}
	t.Run("NoTenantWithoutDefault", func(t *testing.T) {
		if _, ok := signIn(t, idp, strict, map[string]any{"sub": "u1"}); ok {
			t.Fatal("signed in without a tenant claim")
		}
	})
}

func TestLoginFinish(t *testing.T) {
	idp := oidctest.NewProvider(t)
	idp.SetClaims(map[string]any{"sub": "u-42", "tenant": "acme"})
	var elapsed atomic.Int64
	start := time.Now()
	login := newLogin(t, idp, auth.DefaultConfig(), func() time.Time { return start.Add(time.Duration(elapsed.Load())) })

	t.Run("OK", func(t *testing.T) {
		st, target := login.Start("/inbox?tab=history")
		if st.Next != "/inbox?tab=history" || st.Expires != start.Add(oidclogin.StateLifetime).Unix() {
			t.Fatalf("state %+v: want next kept and expiry %s ahead", st, oidclogin.StateLifetime)
		}
		a, tokens, err := login.Finish(context.Background(), st, idp.Authorize(t, target))
		if err != nil || a.Subject.ID != "u-42" || a.Tenant != "acme" || tokens.Refresh == "" || strings.Count(tokens.ID, ".") != 2 {
			t.Fatalf("actor %+v, tokens %+v, %v", a, tokens, err)
		}
	})
	refusals := []struct {
		name   string
		answer func(t *testing.T, st oidclogin.State, target string) (oidclogin.State, url.Values)
		want   string
	}{
		{"ErrNoState", func(t *testing.T, _ oidclogin.State, target string) (oidclogin.State, url.Values) {
			return oidclogin.State{}, idp.Authorize(t, target)
		}, "missing or expired state cookie"},
		{"ErrStateMismatch", func(t *testing.T, st oidclogin.State, target string) (oidclogin.State, url.Values) {
			cb := idp.Authorize(t, target)
			cb.Set("state", "forged")
			return st, cb
		}, "state mismatch"},
		{"ErrProviderError", func(t *testing.T, st oidclogin.State, _ string) (oidclogin.State, url.Values) {
			return st, url.Values{"state": {st.State}, "error": {"access_denied" + strings.Repeat("x", 100)}}
		}, "provider error: access_denied" + strings.Repeat("x", 64-len("access_denied"))},
		{"ErrNoCode", func(t *testing.T, st oidclogin.State, _ string) (oidclogin.State, url.Values) {
			return st, url.Values{"state": {st.State}}
		}, "no code"},
		{"ErrNonceMismatch", func(t *testing.T, st oidclogin.State, target string) (oidclogin.State, url.Values) {
			cb := idp.Authorize(t, target)
			idp.ForgeNonce(cb.Get("code"), "another")
			return st, cb
		}, "exchange: nonce mismatch"},
		{"ErrExpired", func(t *testing.T, st oidclogin.State, target string) (oidclogin.State, url.Values) {
			elapsed.Add(int64(oidclogin.StateLifetime))
			t.Cleanup(func() { elapsed.Add(-int64(oidclogin.StateLifetime)) })
			return st, idp.Authorize(t, target)
		}, "missing or expired state cookie"},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			st, target := login.Start("")
			st, cb := tc.answer(t, st, target)
			_, _, err := login.Finish(context.Background(), st, cb)
			var refusal *oidclogin.Refusal
			if !errors.As(err, &refusal) || err.Error() != tc.want {
				t.Fatalf("err = %v, want the refusal %q", err, tc.want)
			}
		})
	}
}

func TestLogAttrs(t *testing.T) {
	cause := errors.New("store down")
	for _, tc := range []struct {
		err  error
		want []any
	}{
		{&oidclogin.Refusal{Reason: "no code"}, []any{"reason", "no code"}},
		{&oidclogin.Refusal{Reason: "session", Err: cause}, []any{"reason", "session", "error", "store down"}},
		{cause, []any{"reason", "store down"}},
	} {
		if got := oidclogin.LogAttrs(tc.err); !slices.Equal(got, tc.want) {
			t.Errorf("LogAttrs(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
