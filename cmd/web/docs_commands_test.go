package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"usertasks/docstore/docstoretest"
	"usertasks/keyring"
	"usertasks/migrations/migrationstest"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
)

// The commands of README.md and docs/*.md work. A fenced block whose info string is
// `sh <runner>` is run with sh -eu:
//
//   - `sh sqlite`, `sh postgres`, `sh mariadb`: each block on its own, the blocks of one page in
//     order in one folder, with the database of the tag prepared (a migrated database holding
//     one task, which must still load afterwards, and for postgres and mariadb an empty one to
//     restore into, which must hold the task afterwards when the blocks use it) and `web` on the
//     PATH being this test binary (see TestMain);
//   - `sh server`: the page's blocks joined into one script (variables carry from block to
//     block), run against a `web serve` this test starts, with the example engine of
//     docs/runtime-protocol.md behind USERTASKS_RUNTIME_URL (docs_engine_test.go).
//
// Any other shell block (```sh alone or with another word, ```bash, ```shell, ```console)
// fails the test, so no command in the documentation goes unchecked; what cannot run here is
// written as ```text, ```ini, ```nginx and so on.

// asWebEnv makes the test binary act as `web` (the wrapper script on the doc blocks' PATH).
const asWebEnv = "UT_DOCTEST_RUN_AS_WEB"

func TestMain(m *testing.M) {
	if os.Getenv(asWebEnv) == "1" {
		// As main does: SIGTERM and Ctrl-C end the command gracefully (the crash test stops
		// its last server so).
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, os.Args[1:], environ(os.Environ()), os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	code := m.Run()
	docstoretest.Stop()
	os.Exit(code)
}

// docRunners are the runners a shell block may name.
var docRunners = map[string]func(t *testing.T, blocks []string){
	"sqlite":   runSQLiteBlocks,
	"postgres": runPostgresBlocks,
	"mariadb":  runMariaDBBlocks,
	"server":   runServerBlocks,
}

// shellLanguages are the info strings of shell blocks: each must name a runner.
var shellLanguages = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true, "zsh": true}

// fence is the opening or closing line of a fenced code block (possibly indented in a list).
var fence = regexp.MustCompile("^ *```(.*)$")

// docPage is one page of the documentation and its runnable blocks by runner, in order.
type docPage struct {
	name   string
	blocks map[string][]string
}

// docPages reads README.md and docs/*.md. A shell block without a known runner fails the test.
func docPages(t *testing.T) []docPage {
	t.Helper()
	names, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	names = append([]string{"../../README.md"}, names...)
	var pages []docPage
	for _, name := range names {
		doc, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		page, problems := parseDocPage(strings.TrimPrefix(name, "../../"), string(doc))
		for _, p := range problems {
			t.Error(p)
		}
		pages = append(pages, page)
	}
	return pages
}

// parseDocPage collects a page's runnable blocks and reports shell blocks without a runner and
// a fence left open.
func parseDocPage(name, doc string) (docPage, []string) {
	page := docPage{name: name, blocks: map[string][]string{}}
	var problems []string
	var runner string
	var body []string
	open := false
	for i, line := range strings.Split(doc, "\n") {
		m := fence.FindStringSubmatch(line)
		switch {
		case m == nil:
			if open {
				body = append(body, line)
			}
		case open:
			if runner != "" {
				page.blocks[runner] = append(page.blocks[runner], strings.Join(body, "\n")+"\n")
			}
			open, runner, body = false, "", nil
		default:
			open = true
			info := strings.Fields(m[1])
			if len(info) == 0 || !shellLanguages[info[0]] {
				continue
			}
			if info[0] != "sh" || len(info) != 2 || docRunners[info[1]] == nil {
				problems = append(problems, fmt.Sprintf("%s:%d: a shell block must name its runner (```sh sqlite|postgres|mariadb|server); write what cannot run here as ```text: %q",
					name, i+1, line))
				continue
			}
			runner = info[1]
		}
	}
	if open {
		problems = append(problems, name+": a fenced block is not closed")
	}
	return page, problems
}

func TestDocBlocksNeedARunner(t *testing.T) {
	doc := "# Page\n\n```sh sqlite\nweb migrate status\n```\n\n```text\nweb serve [--migrate]\n```\n\n" +
		"  ```sh\n  rm -rf /\n  ```\n\n```bash server\ncurl x\n```\n\n```console\n$ web\n```\n\n```sh stress\nweb stress\n```\n"
	page, problems := parseDocPage("page.md", doc)
	if len(page.blocks) != 1 || len(page.blocks["sqlite"]) != 1 || page.blocks["sqlite"][0] != "web migrate status\n" {
		t.Fatalf("blocks %q, want only the sqlite one", page.blocks)
	}
	want := []string{"page.md:11:", "page.md:15:", "page.md:19:", "page.md:23:"}
	if len(problems) != len(want) {
		t.Fatalf("problems %q, want one per shell block without a runner (lines 11, 15, 19, 23)", problems)
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d = %q, want it at %s", i, problems[i], w)
		}
	}
	if _, problems := parseDocPage("open.md", "```json\n{}\n"); len(problems) != 1 {
		t.Errorf("an unclosed fence: problems %q", problems)
	}
}

func TestDocCommands(t *testing.T) {
	pages := docPages(t)
	count := map[string]int{}
	for _, p := range pages {
		tags := make([]string, 0, len(p.blocks))
		for tag := range p.blocks {
			tags = append(tags, tag)
			count[tag] += len(p.blocks[tag])
		}
		sort.Strings(tags)
		for _, tag := range tags {
			t.Run(p.name+"/"+tag, func(t *testing.T) { docRunners[tag](t, p.blocks[tag]) })
		}
	}
	for tag := range docRunners {
		if count[tag] == 0 {
			t.Errorf("no page has a `sh %s` block", tag)
		}
	}
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

// runDocBlocks runs blocks with sh -eu in dir, `web` being this binary, with the variables.
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

// wantKept checks that the task still loads from the database at dbURL and, when the blocks
// name the restore variable, from the one at restoreURL too.
func wantKept(t *testing.T, blocks []string, restoreVar, dbURL, restoreURL string, task models.Task) {
	t.Helper()
	wantRestored(t, dbURL, task)
	if strings.Contains(strings.Join(blocks, ""), "$"+restoreVar) {
		wantRestored(t, restoreURL, task)
	}
}

// runSQLiteBlocks runs in a folder whose data/usertasks.db is migrated and holds a task.
func runSQLiteBlocks(t *testing.T, blocks []string) {
	needTools(t, "sh", "sqlite3", "cp", "rm", "openssl")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o750); err != nil {
		t.Fatal(err)
	}
	dbURL := "sqlite:" + filepath.Join(dir, "data", "usertasks.db")
	if err := repository.Migrate(context.Background(), dbURL); err != nil {
		t.Fatal(err)
	}
	task := seedTask(t, dbURL)
	runDocBlocks(t, dir, blocks, map[string]string{"USERTASKS_DATABASE_URL": "sqlite:data/usertasks.db"})
	wantRestored(t, dbURL, task)
}

// runPostgresBlocks gives the blocks USERTASKS_DATABASE_URL (migrated, holding a task) and
// RESTORE_URL, an empty database that must hold the task afterwards if the blocks use it.
func runPostgresBlocks(t *testing.T, blocks []string) {
	needTools(t, "sh", "pg_dump", "pg_restore")
	dbURL := testfactory.Database(t, testfactory.Postgres)
	restoreURL := migrationstest.PostgresURL(t)
	task := seedTask(t, dbURL)
	runDocBlocks(t, t.TempDir(), blocks, map[string]string{"USERTASKS_DATABASE_URL": dbURL, "RESTORE_URL": restoreURL})
	wantKept(t, blocks, "RESTORE_URL", dbURL, restoreURL, task)
}

// runMariaDBBlocks gives the blocks the parts of a migrated database holding a task (DB_HOST,
// DB_PORT, DB_USER, MYSQL_PWD, DB_NAME) and RESTORE_DB, an empty database that must hold the
// task afterwards if the blocks use it.
func runMariaDBBlocks(t *testing.T, blocks []string) {
	needTools(t, "sh", "mariadb-dump", "mariadb")
	dbURL := testfactory.Database(t, testfactory.MySQL)
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
	runDocBlocks(t, t.TempDir(), blocks, map[string]string{
		"DB_HOST": u.Hostname(), "DB_PORT": u.Port(), "DB_USER": u.User.Username(), "MYSQL_PWD": pw,
		"DB_NAME": strings.TrimPrefix(u.Path, "/"), "RESTORE_DB": strings.TrimPrefix(r.Path, "/"),
	})
	wantKept(t, blocks, "RESTORE_DB", dbURL, restoreURL, task)
}
