package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestEnvironmentSecret(t *testing.T) {
	const name = "USERTASKS_RUNTIME_SECRET"
	file := writeFile(t, "secret", "  from-file\n")
	for _, tc := range []struct {
		test string
		vars map[string]string
		want string
	}{
		{"Unset/OK", nil, ""},
		{"Value/OK", map[string]string{name: " from-value \n"}, "from-value"},
		{"File/OK", map[string]string{name + "_FILE": file}, "from-file"},
		{"FilePathTrimmed/OK", map[string]string{name + "_FILE": " " + file + " "}, "from-file"},
		{"ValueWinsOverFile/OK", map[string]string{name: "from-value", name + "_FILE": "/nonexistent"}, "from-value"},
		{"BlankValueFallsBackToFile/OK", map[string]string{name: "  ", name + "_FILE": file}, "from-file"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			got, err := env(tc.vars).secret(name)
			if err != nil || got != tc.want {
				t.Fatalf("secret = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	t.Run("ErrFileMissing", func(t *testing.T) {
		_, err := env(map[string]string{name + "_FILE": "/nonexistent/secret"}).secret(name)
		if err == nil || !strings.HasPrefix(err.Error(), name+"_FILE: ") {
			t.Fatalf("err = %v, want it to name %s_FILE", err, name)
		}
	})
	t.Run("ErrFileEmpty", func(t *testing.T) {
		path := writeFile(t, "empty", " \n")
		_, err := env(map[string]string{name + "_FILE": path}).secret(name)
		if want := name + "_FILE: " + path + " is empty"; err == nil || err.Error() != want {
			t.Fatalf("err = %v, want %q", err, want)
		}
	})
}

// Every variable marked as a secret takes its value from NAME_FILE, through the one helper.
func TestSecretSettingsReadFiles(t *testing.T) {
	secrets := 0
	for _, s := range (&config{}).settings() {
		if !s.file {
			continue
		}
		secrets++
		t.Run(s.name, func(t *testing.T) {
			vars := productionVarsWith(t, map[string]string{s.name + "_FILE": filepath.Join(t.TempDir(), "missing")})
			delete(vars, s.name)
			_, err := loadConfig(env(vars), true)
			if err == nil || !strings.HasPrefix(err.Error(), s.name+"_FILE: ") {
				t.Fatalf("err = %v, want the unreadable %s_FILE named", err, s.name)
			}
		})
	}
	if secrets == 0 {
		t.Fatal("no setting is marked as a secret")
	}
	t.Run("FilesServe/OK", func(t *testing.T) {
		vars := productionVarsWith(t, nil)
		for _, name := range []string{"USERTASKS_ENCRYPTION_KEYS", "USERTASKS_JWT_HS256_SECRET", "USERTASKS_SESSION_SECRETS"} {
			vars[name+"_FILE"] = writeFile(t, name, vars[name]+"\n")
			delete(vars, name)
		}
		cfg, err := loadConfig(env(vars), true)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Keys == nil || string(cfg.Auth.HS256Secret) != testHS256Secret || len(cfg.SessionSecrets) != 1 {
			t.Fatalf("keys %v, HS256 secret %q, %d session secrets", cfg.Keys != nil, cfg.Auth.HS256Secret, len(cfg.SessionSecrets))
		}
	})
}
