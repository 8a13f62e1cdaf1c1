package main

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"usertasks/keyring"

	"usertasks/migrations"
	"usertasks/migrations/migrationstest"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
)

// The commands of docs/operations.md work: every fenced block tagged `sh sqlite`, `sh postgres`
// or `sh mariadb` is run with sh -e, blocks of one tag in order in one folder, with `web` on
// the PATH being this test binary (see TestMain) and the database of the tag prepared.

// asWebEnv makes the test binary act as `web` (the wrapper script on the doc blocks' PATH).
const asWebEnv = "UT_DOCTEST_RUN_AS_WEB"

func TestMain(m *testing.M) {
	if os.Getenv(asWebEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], environ(os.Environ()), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

var docBlock = regexp.MustCompile("(?ms)^```sh (sqlite|postgres|mariadb)\n(.*?)^```")

// docBlocks returns the runnable blocks of docs/operations.md by tag, in order.
func docBlocks(t *testing.T) map[string][]string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, m := range docBlock.FindAllStringSubmatch(string(doc), -1) {
		out[m[1]] = append(out[m[1]], m[2])
	}
	return out
}

// docKeys is the key ring the doc tests seal their databases with; the blocks get it as
// USERTASKS_ENCRYPTION_KEYS (`web audit` opens every protected field).
var docKeys = sync.OnceValues(func() (string, *keyring.Keyring) {
	spec, err := keyring.Generate("doc")
	if err != nil {
		panic(err)
	}
	keys, err := keyring.Parse(spec)
	if err != nil {
		panic(err)
	}
	return spec, keys
})

// runDocBlocks runs blocks with sh -e in dir, `web` being this binary, with the variables and
// the doc tests' key ring.
func runDocBlocks(t *testing.T, dir string, blocks []string, vars map[string]string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := "#!/bin/sh\n" + asWebEnv + "=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "web"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	spec, _ := docKeys()
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir, "USERTASKS_ENCRYPTION_KEYS=" + spec}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	for i, block := range blocks {
		cmd := exec.Command("sh", "-eu", "-c", block)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("block %d failed: %v\n%s\n--- output:\n%s", i+1, err, block, out)
		}
	}
}

// needTools skips unless the named programs are installed (and fails under CI=true).
func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed", n)
			}
			t.Skipf("%s is not installed", n)
		}
	}
}

// seedTask stores one task with protected fields in the database at dbURL and returns it.
func seedTask(t *testing.T, dbURL string) models.Task {
	t.Helper()
	_, keys := docKeys()
	s := testfactory.Open(t, dbURL, &testfactory.StoreOpts{Keys: keys})
	task := testfactory.Task(context.Background(), t, s, &testfactory.TaskOpts{Tenant: "acme", Candidates: []string{"ann"}, Instructions: "keep me"})
	s.Close()
	return task
}

// wantRestored checks that task loads, protected fields included, from the database at dbURL.
func wantRestored(t *testing.T, dbURL string, task models.Task) {
	t.Helper()
	_, keys := docKeys()
	s := testfactory.Open(t, dbURL, &testfactory.StoreOpts{Keys: keys})
	got, err := s.Get(context.Background(), task.Tenant, task.ID)
	if err != nil || got.Protected.Instructions != "keep me" {
		t.Fatalf("restored task: %+v, %v", got.Protected, err)
	}
}

func TestOperationsDocCommands(t *testing.T) {
	blocks := docBlocks(t)
	for _, tag := range []string{"sqlite", "postgres", "mariadb"} {
		if len(blocks[tag]) == 0 {
			t.Fatalf("docs/operations.md has no `sh %s` block", tag)
		}
	}
	t.Run("SQLite", func(t *testing.T) {
		needTools(t, "sh", "sqlite3", "cp", "rm")
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "data"), 0o750); err != nil {
			t.Fatal(err)
		}
		dbURL := "sqlite:" + filepath.Join(dir, "data", "usertasks.db")
		if err := repository.Migrate(context.Background(), dbURL); err != nil {
			t.Fatal(err)
		}
		task := seedTask(t, dbURL)
		runDocBlocks(t, dir, blocks["sqlite"], map[string]string{"USERTASKS_DATABASE_URL": "sqlite:data/usertasks.db"})
		wantRestored(t, dbURL, task)
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		needTools(t, "sh", "pg_dump", "pg_restore")
		dbURL := testfactory.Database(t, migrations.Postgres)
		restoreURL := migrationstest.PostgresURL(t)
		task := seedTask(t, dbURL)
		runDocBlocks(t, t.TempDir(), blocks["postgres"], map[string]string{"USERTASKS_DATABASE_URL": dbURL, "RESTORE_URL": restoreURL})
		wantRestored(t, restoreURL, task)
	})
	t.Run("MariaDB", func(t *testing.T) {
		needTools(t, "sh", "mariadb-dump", "mariadb")
		dbURL := testfactory.Database(t, migrations.MySQL)
		restoreURL := migrationstest.MySQLURL(t)
		task := seedTask(t, dbURL)
		u, err := url.Parse(dbURL)
		if err != nil {
			t.Fatal(err)
		}
		r, err := url.Parse(restoreURL)
		if err != nil {
			t.Fatal(err)
		}
		pw, _ := u.User.Password()
		runDocBlocks(t, t.TempDir(), blocks["mariadb"], map[string]string{
			"DB_HOST": u.Hostname(), "DB_PORT": u.Port(), "DB_USER": u.User.Username(), "MYSQL_PWD": pw,
			"DB_NAME": strings.TrimPrefix(u.Path, "/"), "RESTORE_DB": strings.TrimPrefix(r.Path, "/"),
		})
		wantRestored(t, restoreURL, task)
	})
}
