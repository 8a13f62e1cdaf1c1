package main

import (
	"bytes"
	"context"
	"database/sql"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/repository"
)

// syncBuffer is a bytes.Buffer safe to read while run writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func env(m map[string]string) environment { return m }

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// startServe runs `web serve` until the test ends and returns its base URL.
func startServe(t *testing.T, vars map[string]string, args ...string) string {
	t.Helper()
	base, _ := startServeLogged(t, vars, args...)
	return base
}

// startServeLogged is startServe that also returns what the server logs.
func startServeLogged(t *testing.T, vars map[string]string, args ...string) (string, *syncBuffer) {
	t.Helper()
	base, logs, _ := startServeStoppable(t, vars, args...)
	return base, logs
}

// startServeStoppable is startServeLogged that also returns the stop (what SIGTERM does), for
// a test to call before the end; stop waits until serve returned, and the cleanup calls it.
func startServeStoppable(t *testing.T, vars map[string]string, args ...string) (string, *syncBuffer, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...), env(vars), out, errOut)
	}()
	stop := sync.OnceFunc(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exited %d: %s", code, errOut.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not shut down")
		}
	})
	t.Cleanup(stop)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := listening.FindStringSubmatch(out.String()); m != nil {
			return m[1], errOut, stop
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited %d: %s", code, errOut.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("serve printed no URL: %s %s", out.String(), errOut.String())
	return "", nil, nil
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return resp.StatusCode, b.String()
}

func TestServeDevModeMigratesAndAnswersHealth(t *testing.T) {
	dir := t.TempDir()
	base := startServe(t, map[string]string{
		"USERTASKS_DEV":          "true",
		"USERTASKS_DATABASE_URL": "sqlite:" + filepath.Join(dir, "ut.db"),
	})
	if code, body := get(t, base+"/healthz"); code != 200 || !strings.Contains(body, "ok") {
		t.Fatalf("/healthz = %d %s", code, body)
	}
	if code, body := get(t, base+"/readyz"); code != 200 || !strings.Contains(body, "ready") {
		t.Fatalf("/readyz = %d %s", code, body)
	}
	if code, body := get(t, base+"/login"); code != 200 || !strings.Contains(body, `data-testid="dev-user"`) {
		t.Fatalf("/login in dev mode = %d, lists demo users: %v", code, strings.Contains(body, "dev-user"))
	}
	// make run opens on the demo inbox: / signs in the first demo user (a manager) and shows the
	// seeded tenant.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	resp, err := client.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	page.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.Request.URL.Path != "/inbox" || resp.Request.URL.Query().Get("tab") != "all" {
		t.Fatalf("/ landed on %s, want the manager's all tab", resp.Request.URL)
	}
	if rows := strings.Count(page.String(), `data-testid="task-row"`); rows < 5 {
		t.Fatalf("the demo inbox shows %d task rows, want the seeded tasks", rows)
	}
	// The demo directory answers the people picker with the demo people's names.
	resp, err = client.Get(base + "/api/v1/user-task-participants?search=brooks")
	if err != nil {
		t.Fatal(err)
	}
	page.Reset()
	page.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(page.String(), `"id":"ben","displayName":"Ben Brooks"`) {
		t.Fatalf("participants in dev mode = %d %s, want Ben Brooks", resp.StatusCode, page.String())
	}
	if _, err := filepath.Glob(filepath.Join(dir, "encryption-keys")); err != nil {
		t.Fatal(err)
	}
}

// productionVars is a complete non-dev configuration on a SQLite file.
// productionVarsWith is productionVars on a fresh database file of t, with extra set on top.
func productionVarsWith(t *testing.T, extra map[string]string) map[string]string {
	v := productionVars(filepath.Join(t.TempDir(), "ut.db"))
	for k, x := range extra {
		v[k] = x
	}
	return v
}

func productionVars(path string) map[string]string {
	return map[string]string{
		"USERTASKS_DATABASE_URL":     "sqlite:" + path,
		"USERTASKS_ENCRYPTION_KEYS":  "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
		"USERTASKS_JWT_HS256_SECRET": "0123456789abcdef0123456789abcdef",
		"USERTASKS_JWT_ISSUER":       "https://idp.example",
		"USERTASKS_JWT_AUDIENCE":     "user-tasks",
		"USERTASKS_SESSION_SECRETS":  "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
	}
}

func TestServeRefusesUnmigratedDatabase(t *testing.T) {
	vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"serve", "--listen", "127.0.0.1:0"}, env(vars), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "migrate") {
		t.Fatalf("exit %d, stderr %q: want 1 and a hint to migrate", code, errOut.String())
	}
}

func TestServeRefusesUnknownSchemaVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ut.db")
	vars := productionVars(path)
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"migrate", "up"}, env(vars), &out, &errOut); code != 0 {
		t.Fatalf("migrate up exited %d: %s", code, errOut.String())
	}
	db, _, err := repository.OpenSQL("sqlite:" + path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO user_task_schema_versions (version_id, is_applied) VALUES (99999, 1)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	errOut.Reset()
	code := run(context.Background(), []string{"serve", "--listen", "127.0.0.1:0"}, env(vars), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "refusing") {
		t.Fatalf("exit %d, stderr %q: want a refusal of the unknown schema", code, errOut.String())
	}
}

func TestServeNeedsKeysOutsideDev(t *testing.T) {
	var out, errOut bytes.Buffer
	vars := map[string]string{"USERTASKS_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "ut.db")}
	code := run(context.Background(), []string{"serve"}, env(vars), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "USERTASKS_ENCRYPTION_KEYS") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

func TestServeNeedsTokenVerificationAndSessionsOutsideDev(t *testing.T) {
	for _, missing := range []string{"USERTASKS_JWT_HS256_SECRET", "USERTASKS_SESSION_SECRETS"} {
		vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
		delete(vars, missing)
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"serve", "--migrate"}, env(vars), &out, &errOut)
		want := missing
		if missing == "USERTASKS_JWT_HS256_SECRET" {
			want = "USERTASKS_JWT_JWKS_URL"
		}
		if code != 1 || !strings.Contains(errOut.String(), want) {
			t.Errorf("without %s: exit %d, stderr %q", missing, code, errOut.String())
		}
	}
}

func TestServeProductionConfigServes(t *testing.T) {
	vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
	base := startServe(t, vars, "--migrate")
	if code, _ := get(t, base+"/readyz"); code != 200 {
		t.Fatalf("/readyz = %d", code)
	}
	if code, _ := get(t, base+"/api/v1/user-tasks"); code != 401 {
		t.Fatalf("API without a token = %d, want 401", code)
	}
	if code, body := get(t, base+"/login"); code != 200 || strings.Contains(body, "dev-user") {
		t.Fatalf("/login outside dev = %d and lists demo users: %v", code, strings.Contains(body, "dev-user"))
	}
}

func TestMigrateUpStatusDown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ut.db")
	vars := map[string]string{"USERTASKS_DATABASE_URL": "sqlite:" + path}
	var out, errOut bytes.Buffer
	for _, step := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate", "status"}, "pending"},
		{[]string{"migrate", "up"}, "applied"},
		{[]string{"migrate", "up"}, "up to date"},
		{[]string{"migrate", "status"}, "applied 20"},
	} {
		out.Reset()
		if code := run(context.Background(), step.args, env(vars), &out, &errOut); code != 0 || !strings.Contains(out.String(), step.want) {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q; want %q", step.args, code, out.String(), errOut.String(), step.want)
		}
	}
	// Each down rolls back the newest migration, one at a time, down to the first.
	for i := 0; !strings.Contains(out.String(), "rolled back 00001_user_tasks.sql"); i++ {
		out.Reset()
		if code := run(context.Background(), []string{"migrate", "down"}, env(vars), &out, &errOut); code != 0 || !strings.Contains(out.String(), "rolled back 000") || i > 20 {
			t.Fatalf("migrate down: exit %d, stdout %q, stderr %q; want one migration rolled back", code, out.String(), errOut.String())
		}
	}
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'user_task%' AND name <> 'user_task_schema_versions'").Scan(&n)
	if n != 0 {
		t.Fatalf("%d tables left after down", n)
	}
}

func TestBadInvocationsExit2(t *testing.T) {
	for _, args := range [][]string{{}, {"bogus"}, {"serve", "--nope"}, {"migrate"}, {"migrate", "sideways"}, {"serve", "extra"}} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, env(map[string]string{}), &out, &errOut)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		// One line of reason first, then the usage (of the command, or of web).
		reason, rest, _ := strings.Cut(errOut.String(), "\n")
		if len(args) > 0 && (!strings.HasPrefix(reason, "web: ") || !strings.Contains(rest, "usage: web ")) {
			t.Errorf("%v: want a one-line reason and then the usage, got %q", args, errOut.String())
		}
	}
}

func TestHelpExits0(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"serve", "--help"}, {"migrate", "--help"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, env(map[string]string{}), &out, &errOut); code != 0 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}
