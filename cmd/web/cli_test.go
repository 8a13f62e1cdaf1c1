package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs `web args…` in-process and returns the exit code, stdout and stderr.
func runCLI(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, env(vars), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestHelp(t *testing.T) {
	t.Run("ListsEveryCommand", func(t *testing.T) {
		for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
			code, out, _ := runCLI(t, nil, args...)
			if code != exitOK {
				t.Fatalf("%v exited %d", args, code)
			}
			for _, c := range commands() {
				if !strings.Contains(out, "  "+c.name+" ") {
					t.Errorf("%v does not list %s:\n%s", args, c.name, out)
				}
			}
			if !strings.Contains(out, "Exit status") {
				t.Errorf("%v does not document the exit codes", args)
			}
		}
	})
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			code, out, _ := runCLI(t, nil, "help", c.name)
			if code != exitOK || !strings.Contains(out, "usage: web "+c.name) {
				t.Fatalf("help %s: %d %q", c.name, code, out)
			}
			for _, flag := range []string{"--help", "-h"} {
				code, _, errOut := runCLI(t, nil, c.name, flag)
				if code != exitOK || !strings.Contains(errOut, "usage: web "+c.name) {
					t.Fatalf("%s %s: %d %q", c.name, flag, code, errOut)
				}
			}
			code, _, errOut := runCLI(t, nil, c.name, "--no-such-flag")
			if code != exitUsage || !strings.Contains(errOut, "no-such-flag") || !strings.Contains(errOut, "usage: web "+c.name) {
				t.Fatalf("%s --no-such-flag: %d %q, want 2 with the reason and the usage", c.name, code, errOut)
			}
		})
	}
	t.Run("MigrateEnvironment", func(t *testing.T) {
		_, out, _ := runCLI(t, nil, "help", "migrate")
		if !strings.Contains(out, "flags") && !strings.Contains(out, "environment:\n  USERTASKS_DATABASE_URL") {
			t.Fatalf("help migrate names no environment:\n%s", out)
		}
	})
}

func TestBadInvocations(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "usage: web <command>"},
		{[]string{"nope"}, `unknown command "nope"`},
		{[]string{"help", "nope"}, `unknown command "nope"`},
		{[]string{"serv\u00e9 \x00"}, "unknown command"},
		{[]string{"migrate"}, "usage: web migrate"},
		{[]string{"migrate", "sideways"}, "usage: web migrate"},
		{[]string{"serve", "extra"}, "usage: web serve"},
		{[]string{"version", "extra"}, "usage: web version"},
	} {
		code, out, errOut := runCLI(t, nil, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q on stderr", c.args, code, out, errOut, c.want)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, nil, "version")
	if code != exitOK || !strings.HasPrefix(out, "web ") || !strings.Contains(out, "commit ") || !strings.Contains(out, "go1.") {
		t.Fatalf("version: %d %q", code, out)
	}
}

// The built binary reports what the Makefile's -ldflags -X set, and exits with the
// documented codes.
func TestBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "web")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, "-ldflags", "-X main.version=v9.8.7 -X main.commit=abc1234", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.Contains(string(out), "web v9.8.7") || !strings.Contains(string(out), "commit abc1234") {
		t.Fatalf("web version: %v %q", err, out)
	}
	cmd := exec.Command(bin, "--bogus")
	cmd.Env = append(os.Environ(), "USERTASKS_DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "x.db"))
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != exitUsage {
		t.Fatalf("web --bogus: %v, want exit 2", err)
	}
}

// A binary built without the sqlite_fts5 tag refuses a SQLite database with one line naming
// the tag, before it creates the file (the search index is an FTS5 table: migration 00013).
func TestBuiltWithoutFTS5RefusesSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "web")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=") // no tag, whatever the caller's GOFLAGS
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	path := filepath.Join(t.TempDir(), "x.db")
	cmd := exec.Command(bin, "migrate", "up")
	cmd.Env = append(os.Environ(), "USERTASKS_DATABASE_URL=sqlite:"+path)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("migrate up without FTS5 succeeded:\n%s", out)
	}
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "sqlite_fts5") {
		t.Fatalf("want one line naming the sqlite_fts5 build tag, got:\n%s", out)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the refused binary created %s", path)
	}
}

func TestMigrateUpReportsEachMigration(t *testing.T) {
	vars := map[string]string{"USERTASKS_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "m.db")}
	code, out, errOut := runCLI(t, vars, "migrate", "up")
	if code != exitOK {
		t.Fatalf("migrate up: %d %s", code, errOut)
	}
	if n := strings.Count(out, "applied "); n < 6 || strings.Contains(out, "\x1b") {
		t.Fatalf("migrate up printed %d applied lines (or terminal codes into a buffer):\n%s", n, out)
	}
	if _, out, _ := runCLI(t, vars, "migrate", "up"); !strings.Contains(out, "schema is up to date") {
		t.Fatalf("second migrate up: %q", out)
	}
}
