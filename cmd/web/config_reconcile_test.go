package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

func TestLoadConfigReconcileTenants(t *testing.T) {
	vars := productionVarsWith

	t.Run("Unset", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, nil)), true)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ReconcileTenants != nil || workersOptions(cfg).Reconcile.Tenants != nil {
			t.Fatalf("tenants %q, want none", cfg.ReconcileTenants)
		}
	})
	t.Run("OK", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{
			"USERTASKS_RECONCILE_TENANTS": " acme , Zürich-ä,acme, tenant/with ?#, Acme ," + strings.Repeat("t", 64),
		})), true)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"acme", "Zürich-ä", "tenant/with ?#", "Acme", strings.Repeat("t", 64)}
		if !slices.Equal(cfg.ReconcileTenants, want) {
			t.Fatalf("tenants %q, want %q (trimmed, each once, in order)", cfg.ReconcileTenants, want)
		}
		if got := workersOptions(cfg).Reconcile.Tenants; !slices.Equal(got, want) {
			t.Fatalf("the reconciler gets %q, want %q", got, want)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		const name = "USERTASKS_RECONCILE_TENANTS"
		for _, c := range []struct{ value, want string }{
			{"acme,,beta", name + `: tenant 2 ("") is empty`},
			{"acme,", name + `: tenant 2 ("") is empty`},
			{",acme", name + `: tenant 1 ("") is empty`},
			{"acme,be\x1b[31mta", name + `: tenant 2 ("be\x1b[31mta") must not contain control characters`},
			{"acme\tbeta", name + `: tenant 1 ("acme\tbeta") must not contain control characters`},
			{"ok,\u202eevil", name + `: tenant 2 ("\u202eevil") must not contain bidirectional formatting characters`},
			{"ok,a\u200fb", name + `: tenant 2 ("a\u200fb") must not contain bidirectional formatting characters`},
			{"\xff\xfe", name + `: tenant 1 ("\xff\xfe") must be valid UTF-8`},
			{"a," + strings.Repeat("t", 65), name + `: tenant 2 ("` + strings.Repeat("t", 32) + `"…) is longer than 64 bytes`},
		} {
			_, err := loadConfig(env(vars(t, map[string]string{name: c.value})), true)
			if err == nil || err.Error() != c.want {
				t.Errorf("%s=%q: %v, want %q", name, c.value, err, c.want)
			}
		}
	})
	t.Run("ErrHugeValueIsNotEchoed", func(t *testing.T) {
		_, err := loadConfig(env(vars(t, map[string]string{"USERTASKS_RECONCILE_TENANTS": "a," + strings.Repeat("ü", 1<<20)})), true)
		if err == nil || !strings.Contains(err.Error(), "tenant 2") || len(err.Error()) > 160 {
			t.Fatalf("got %.200v, want a short refusal naming tenant 2", err)
		}
	})
	t.Run("ServeRefusesWithOneLine", func(t *testing.T) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"serve", "--migrate"}, env(vars(t, map[string]string{"USERTASKS_RECONCILE_TENANTS": "acme,,b"})), &out, &errOut)
		if got := strings.TrimSpace(errOut.String()); code != 1 || got != `web: USERTASKS_RECONCILE_TENANTS: tenant 2 ("") is empty` {
			t.Fatalf("exit %d, stderr %q", code, got)
		}
	})
}
