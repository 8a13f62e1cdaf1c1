package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// The settings the User Tasks server and the test share.
const (
	jwtSecret     = "0123456789abcdef0123456789abcdef"
	jwtIssuer     = "https://idp.example"
	jwtAudience   = "user-tasks"
	runtimeSecret = "temporal-runtime-secret-for-tests"
	tenant        = "acme"
)

var (
	buildOnce sync.Once
	webBinary string
	buildErr  error
)

// repoRoot is the User Tasks checkout this module lives in.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "web")); err != nil {
		t.Fatalf("the User Tasks sources are not at %s: %v", root, err)
	}
	return root
}

// buildWeb builds the web binary once per test binary.
func buildWeb(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "usertasks-temporal-web-")
		if err != nil {
			buildErr = err
			return
		}
		webBinary = filepath.Join(dir, "web")
		cmd := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", webBinary, "./cmd/web")
		cmd.Dir = repoRoot(t)
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/web: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return webBinary
}

// userTasks is a running `web serve`.
type userTasks struct {
	URL    string
	client *http.Client
	log    *syncWriter
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startUserTasks runs `web serve --migrate` on a fresh SQLite file with the runtime at
// runtimeURL; extra settings override the defaults. dev turns on dev mode (the demo login).
func startUserTasks(t *testing.T, runtimeURL string, dev bool, extra map[string]string) *userTasks {
	t.Helper()
	bin := buildWeb(t)
	dir := t.TempDir()
	addr := freeAddr(t)
	vars := map[string]string{
		"USERTASKS_DATABASE_URL":           "sqlite:" + filepath.Join(dir, "ut.db"),
		"USERTASKS_LISTEN_ADDR":            addr,
		"USERTASKS_BASE_URL":               "http://" + addr,
		"USERTASKS_ENCRYPTION_KEYS":        "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
		"USERTASKS_SESSION_SECRETS":        "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
		"USERTASKS_JWT_HS256_SECRET":       jwtSecret,
		"USERTASKS_JWT_ISSUER":             jwtIssuer,
		"USERTASKS_JWT_AUDIENCE":           jwtAudience,
		"USERTASKS_RUNTIME_URL":            runtimeURL,
		"USERTASKS_RUNTIME_SECRET":         runtimeSecret,
		"USERTASKS_DISPATCH_INTERVAL":      "200ms",
		"USERTASKS_DUE_SWEEP_INTERVAL":     "1s",
		"USERTASKS_RECONCILE_INTERVAL":     "1s",
		"USERTASKS_RECONCILE_QUIET_PERIOD": "1s",
	}
	if dev {
		vars["USERTASKS_DEV"] = "true"
	}
	for k, v := range extra {
		vars[k] = v
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	log := &syncWriter{}
	cmd := exec.Command(bin, "serve", "--migrate")
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("web serve log:\n%s", log.String())
		}
	})
	u := &userTasks{URL: "http://" + addr, client: &http.Client{Timeout: 10 * time.Second}, log: log}
	eventually(t, 30*time.Second, "User Tasks ready", func() bool {
		resp, err := u.client.Get(u.URL + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return u
}

// syncWriter is the server's log: its stdout and stderr write to it from two goroutines.
type syncWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// person is a user of the inbox, calling the JSON API with a bearer token.
type person struct {
	id, name string
	groups   []string
	manager  bool
}

var (
	ben = person{id: "ben", name: "Ben Brooks", groups: []string{"finance"}}
	ava = person{id: "ava", name: "Ava Adams", groups: []string{"managers"}, manager: true}
)

func (p person) token(t *testing.T) string {
	t.Helper()
	perms := []string{"user-tasks:view", "user-tasks:claim", "user-tasks:complete"}
	var roles []string
	if p.manager {
		perms = append(perms, "user-tasks:cancel", "user-tasks:supervise", "user-tasks:assign")
		roles = []string{"user-tasks:manager"}
	}
	now := time.Now()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": jwtIssuer, "aud": jwtAudience, "sub": p.id, "tenant": tenant, "name": p.name,
		"groups": p.groups, "permissions": perms, "roles": roles,
		"iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix(),
	}).SignedString([]byte(jwtSecret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// apiTask is the part of a task the tests read.
type apiTask struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Revision int64  `json:"revision"`
	Title    string `json:"title"`
}

// call sends a JSON request as p and decodes the answer into out; it returns the status.
func (u *userTasks) call(t *testing.T, p person, method, path string, body, out any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, u.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+p.token(t))
	req.Header.Set("Content-Type", "application/json")
	resp, err := u.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	if resp.StatusCode/100 != 2 {
		t.Logf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode
}

// taskOf returns the task of a workflow (as the manager sees every task), waiting for it.
func (u *userTasks) taskOf(t *testing.T, workflowID string) apiTask {
	t.Helper()
	var found apiTask
	eventually(t, 30*time.Second, "the task of "+workflowID, func() bool {
		var page struct {
			Items []apiTask `json:"items"`
		}
		q := url.Values{"scope": {"all"}, "workflowInstanceId": {workflowID}}
		if u.call(t, ava, http.MethodGet, "/api/v1/user-tasks?"+q.Encode(), nil, &page) != http.StatusOK || len(page.Items) == 0 {
			return false
		}
		found = page.Items[0]
		return true
	})
	return found
}

// task reads one task.
func (u *userTasks) task(t *testing.T, id string) apiTask {
	t.Helper()
	var task apiTask
	if code := u.call(t, ava, http.MethodGet, "/api/v1/user-tasks/"+url.PathEscape(id), nil, &task); code != http.StatusOK {
		t.Fatalf("GET task %s: %d", id, code)
	}
	return task
}

// waitStatus waits until the task has the status.
func (u *userTasks) waitStatus(t *testing.T, id, status string) {
	t.Helper()
	eventually(t, 30*time.Second, "task "+id+" "+status, func() bool { return u.task(t, id).Status == status })
}

// decide claims the task as p and completes it with the action and data.
func (u *userTasks) decide(t *testing.T, p person, task apiTask, action string, data map[string]any) {
	t.Helper()
	var claimed struct {
		Revision int64 `json:"revision"`
	}
	if code := u.call(t, p, http.MethodPost, "/api/v1/user-tasks/"+url.PathEscape(task.ID)+"/claim",
		map[string]any{"expectedRevision": task.Revision}, &claimed); code != http.StatusOK {
		t.Fatalf("claim %s: %d", task.ID, code)
	}
	body := map[string]any{"expectedRevision": claimed.Revision, "operationId": "complete-" + task.ID, "actionKey": action, "data": data}
	if code := u.call(t, p, http.MethodPost, "/api/v1/user-tasks/"+url.PathEscape(task.ID)+"/complete", body, nil); code != http.StatusAccepted {
		t.Fatalf("complete %s: %d", task.ID, code)
	}
}

// eventually polls cond until it holds or the time is up.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("%s: not within %s", what, within)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
