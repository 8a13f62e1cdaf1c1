package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// warnings runs warnUnknown over vars and returns what it logged.
func warnings(vars map[string]string) string {
	var logs bytes.Buffer
	warnUnknown(env(vars), slog.New(slog.NewTextHandler(&logs, nil)))
	return logs.String()
}

func TestWarnUnknown(t *testing.T) {
	t.Run("WithHint", func(t *testing.T) {
		logs := warnings(map[string]string{"USERTASKS_DATABSE_URL": "postgres://user:hunter2@db/ut"})
		if want := "USERTASKS_DATABSE_URL is not a configuration variable and is ignored; did you mean USERTASKS_DATABASE_URL?"; !strings.Contains(logs, want) {
			t.Fatalf("logs %q, want %q", logs, want)
		}
		if !strings.Contains(logs, "level=WARN") || strings.Contains(logs, "hunter2") {
			t.Fatalf("logs %q: want a warning that does not repeat the value", logs)
		}
	})
	t.Run("HintForFileVariant", func(t *testing.T) {
		logs := warnings(map[string]string{"USERTASKS_SESSION_SECRET_FILE": "/run/secrets/s"})
		if want := "did you mean USERTASKS_SESSION_SECRETS_FILE?"; !strings.Contains(logs, want) {
			t.Fatalf("logs %q, want %q", logs, want)
		}
	})
	t.Run("WithoutHint", func(t *testing.T) {
		logs := warnings(map[string]string{"USERTASKS_COLOUR": "s3cret-value"})
		if want := "USERTASKS_COLOUR is not a configuration variable and is ignored"; !strings.Contains(logs, want) || strings.Contains(logs, "did you mean") {
			t.Fatalf("logs %q, want %q without a hint", logs, want)
		}
		if strings.Contains(logs, "s3cret-value") {
			t.Fatalf("logs %q repeat the value", logs)
		}
	})
	t.Run("OncePerVariable", func(t *testing.T) {
		logs := warnings(map[string]string{"USERTASKS_DEVV": "true", "USERTASKS_LISTEN_ADR": "x", "USERTASKS_DEV": "true"})
		if got := strings.Count(logs, "level=WARN"); got != 2 {
			t.Fatalf("%d warnings, want one for each of the two unknown variables: %s", got, logs)
		}
		if strings.Count(logs, "USERTASKS_DEVV is not") != 1 || strings.Count(logs, "USERTASKS_LISTEN_ADR is not") != 1 {
			t.Fatalf("logs %q", logs)
		}
	})
	t.Run("KnownAndForeignSilent", func(t *testing.T) {
		vars := map[string]string{"HOME": "/root", "USERTASKS": "x", "usertasks_dev": "x", "USERTASKS_TEST_POSTGRES_URL": "x", "USERTASKS_CHROMIUM": "x"}
		for _, name := range knownVariables() {
			vars[name] = "x"
		}
		if logs := warnings(vars); logs != "" {
			t.Fatalf("warnings about known or foreign variables: %s", logs)
		}
	})
	t.Run("AtStart", func(t *testing.T) {
		var out, errOut bytes.Buffer
		vars := map[string]string{"USERTASKS_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "ut.db"), "USERTASKS_JWT_ISSUR": "https://idp.example"}
		if code := run(context.Background(), []string{"migrate", "status"}, env(vars), &out, &errOut); code != 0 {
			t.Fatalf("migrate status exited %d: %s", code, errOut.String())
		}
		if want := "did you mean USERTASKS_JWT_ISSUER?"; !strings.Contains(errOut.String(), want) {
			t.Fatalf("stderr %q, want %q", errOut.String(), want)
		}
	})
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"DEV", "", 3}, {"DEV", "DEV", 0}, {"DEVV", "DEV", 1}, {"DATABSE", "DATABASE", 1}, {"KITTEN", "SITTING", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// docs/configuration.md names exactly the variables the settings table reads, the
// OpenTelemetry OTEL_* ones included.
func TestConfigurationDocListsTheTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, name := range regexp.MustCompile(`(?:USERTASKS|OTEL)_[A-Z0-9_]*[A-Z0-9]`).FindAllString(string(doc), -1) {
		if !slices.Contains(documented, name) {
			documented = append(documented, name)
		}
	}
	known := knownVariables()
	for _, name := range known {
		if !slices.Contains(documented, name) {
			t.Errorf("docs/configuration.md does not mention %s", name)
		}
	}
	for _, name := range documented {
		if !slices.Contains(known, name) {
			t.Errorf("docs/configuration.md mentions %s, which the settings table does not read", name)
		}
	}
}
