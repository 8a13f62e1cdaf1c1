package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"sync"
	"testing"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// seedKeys is the key ring the seed command seals with in these tests, and its spec.
var seedKeys = sync.OnceValues(func() (string, *keyring.Keyring) {
	spec, err := keyring.Generate("seed")
	if err != nil {
		panic(err)
	}
	ring, err := keyring.Parse(spec)
	if err != nil {
		panic(err)
	}
	return spec, ring
})

// stressSeed runs the seed command with args against the database at url, with seedKeys.
func stressSeed(t *testing.T, url string, args ...string) (string, string, error) {
	t.Helper()
	spec, _ := seedKeys()
	var out, errOut bytes.Buffer
	err := stressSeedCommand(context.Background(), args, env(map[string]string{"USERTASKS_DATABASE_URL": url,
		"USERTASKS_ENCRYPTION_KEYS": spec}), &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestStressSeedCommand loads two small tenants on every dialect that runs here (a SQLite file;
// PostgreSQL and MariaDB when their URLs are set, and under CI=true they must be) and reads
// them back through the store: the counts the command printed, the lists, and an audit without
// findings. A second load into the same tenant is refused with nothing written.
func TestStressSeedCommand(t *testing.T) {
	for _, d := range testfactory.SQLProviders {
		t.Run(d.Name(), func(t *testing.T) {
			ctx := context.Background()
			url := testfactory.Database(t, d)
			out, errOut, err := stressSeed(t, url, "--tenants", "2", "--tenant", "acme", "--open", "40", "--terminal", "90", "--batch", "25")
			if err != nil {
				t.Fatalf("seed: %v\n%s\n%s", err, out, errOut)
			}
			for _, want := range []string{"seed: writing tasks", "seed: refreshing planner statistics",
				"tenant acme-1: 130 tasks (40 open or transitional", "tenant acme-2: 130 tasks", "seeded 260 tasks in 2 tenants"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}

			_, ring := seedKeys()
			s := testfactory.Open(t, url, &testfactory.StoreOpts{Keys: ring})
			for _, tenant := range []string{"acme-1", "acme-2"} {
				page, err := s.Query(ctx, models.TaskFilter{Tenant: tenant, Actor: testfactory.Manager(tenant, "boss"),
					Scope: models.ScopeAll, IncludeTotal: true, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				if page.Total == nil || *page.Total != 130 || len(page.Items) != 10 {
					t.Errorf("%s: total %v, %d items; want 130, 10", tenant, page.Total, len(page.Items))
				}
			}
			findings, err := s.AuditTenantCounters(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			audit, err := s.Audit(ctx, store.AuditFilter{}, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if findings = append(findings, audit.Findings...); len(findings) > 0 || audit.Tasks != 260 {
				t.Errorf("audit of %d tasks: %+v", audit.Tasks, findings)
			}

			t.Run("RefusesATenantWithTasks", func(t *testing.T) {
				out, _, err := stressSeed(t, url, "--tenants", "2", "--tenant", "acme", "--open", "1", "--terminal", "0")
				if err == nil || !strings.Contains(err.Error(), `"acme-1"`) || !strings.Contains(err.Error(), "choose another --tenant") {
					t.Fatalf("err = %v, want the non-empty tenant refused\n%s", err, out)
				}
				audit, err := s.Audit(ctx, store.AuditFilter{}, 1000)
				if err != nil || audit.Tasks != 260 {
					t.Errorf("after a refused load: %d tasks, %v; want the 260 before it", audit.Tasks, err)
				}
			})
		})
	}
}

func TestStressSeedCommandInvocations(t *testing.T) {
	url := testfactory.Database(t, testfactory.SQLProviders[0])
	t.Run("BadInvocations", func(t *testing.T) {
		for _, args := range [][]string{
			{"--tenants", "0"},
			{"--tenants", "1001"},
			{"--open", "-1"},
			{"--open", "250001"},
			{"--terminal", "-5"},
			{"--open", "0", "--terminal", "0"},
			{"--batch", "0"},
			{"--batch", "50001"},
			{"--tenant", ""},
			{"--tenant", "t1\x00"},
			{"--tenant", "a/b?c#d \u00e4\n"},
			{"--tenant", strings.Repeat("ä", 33), "--open", "1"},     // 66 bytes
			{"--tenants", "10", "--tenant", strings.Repeat("x", 62)}, // x…x-10 is 65 bytes
			{"extra"},
			{"--bogus"},
			{"--open", "many"},
		} {
			_, _, err := stressSeed(t, url, args...)
			if !errors.Is(err, errUsage) {
				t.Errorf("%q: err = %v, want a usage error", args, err)
			}
		}
	})
	t.Run("Help", func(t *testing.T) {
		_, errOut, err := stressSeed(t, url, "--help")
		if !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(errOut, "usage: web stress seed") ||
			!strings.Contains(errOut, "--terminal") || !strings.Contains(errOut, "Exit status") {
			t.Fatalf("err = %v:\n%s", err, errOut)
		}
	})
	t.Run("SchemaNotCurrent", func(t *testing.T) {
		_, _, err := stressSeed(t, "sqlite:"+t.TempDir()+"/empty.db", "--open", "1", "--terminal", "0")
		if err == nil || !strings.Contains(err.Error(), "web migrate up") {
			t.Fatalf("err = %v, want the pending migrations named", err)
		}
	})
	t.Run("DocumentStore", func(t *testing.T) {
		_, _, err := stressSeed(t, "mongodb://127.0.0.1:1/usertasks", "--open", "1", "--terminal", "0")
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "SQL database only") {
			t.Fatalf("err = %v, want a usage error naming SQL", err)
		}
	})
	t.Run("NoKeys", func(t *testing.T) {
		// The completions' data is sealed with the keys the server will open it with.
		var out, errOut bytes.Buffer
		err := stressSeedCommand(context.Background(), []string{"--open", "1", "--terminal", "0"},
			env(map[string]string{"USERTASKS_DATABASE_URL": url}), &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), "USERTASKS_ENCRYPTION_KEYS") {
			t.Fatalf("err = %v, want the missing keys named", err)
		}
	})
	t.Run("HostileTenantName", func(t *testing.T) {
		// Quotes, slashes and non-ASCII are data, bound as parameters, never SQL.
		name := `o'brien/"x"?#ä`
		out, errOut, err := stressSeed(t, url, "--tenant", name, "--open", "3", "--terminal", "2")
		if err != nil || !strings.Contains(out, "tenant "+name+": 5 tasks") {
			t.Fatalf("err = %v\n%s\n%s", err, out, errOut)
		}
	})
}
