package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

// requestLine is one request log line.
type requestLine struct {
	Msg        string   `json:"msg"`
	Method     string   `json:"method"`
	Route      string   `json:"route"`
	Path       string   `json:"path"`
	Status     int      `json:"status"`
	DurationMS *float64 `json:"duration_ms"`
	RequestID  string   `json:"request_id"`
}

// requestLines parses the env's request log lines.
func requestLines(t *testing.T, env *handlerstest.Env) []requestLine {
	t.Helper()
	var out []requestLine
	for _, line := range strings.Split(strings.TrimSpace(env.Logs.String()), "\n") {
		var l requestLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if l.Msg == "request" {
			out = append(out, l)
		}
	}
	return out
}

func TestRequestLog(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann := handlerstest.Worker("acme", "ann")
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	const secret = "guest-link-token-Zx81qP"

	t.Run("OK", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID) + "?t=" + secret,
			Token: env.Token(t, ann), Header: http.Header{"X-Request-Id": {"req-42.a:b_c"}}})
		resp.WantStatus(t, http.StatusOK)
		if got := resp.Header.Get("X-Request-Id"); got != "req-42.a:b_c" {
			t.Errorf("X-Request-Id = %q, want the caller's", got)
		}
		lines := requestLines(t, env)
		l := lines[len(lines)-1]
		if l.Method != "GET" || l.Route != "/api/v1/user-tasks/:id" || l.Path != "/api/v1/user-tasks/"+task.ID ||
			l.Status != 200 || l.DurationMS == nil || *l.DurationMS < 0 || l.RequestID != "req-42.a:b_c" {
			t.Fatalf("log line %+v", l)
		}
		if strings.Contains(env.Logs.String(), secret) {
			t.Fatal("the query string's token reached the log")
		}
	})
	t.Run("GeneratedRequestID", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/openapi.json"})
		id := resp.Header.Get("X-Request-Id")
		lines := requestLines(t, env)
		if id == "" || lines[len(lines)-1].RequestID != id {
			t.Fatalf("response id %q, logged %q", id, lines[len(lines)-1].RequestID)
		}
	})
	t.Run("HostileRequestIDReplaced", func(t *testing.T) {
		for _, hostile := range []string{"a b", "x\u00e9", "id\twith\ttabs", "../../etc", strings.Repeat("a", 65), "a\"b", "x?y#z"} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/openapi.json", Header: http.Header{"X-Request-Id": {hostile}}})
			got := resp.Header.Get("X-Request-Id")
			lines := requestLines(t, env)
			if got == "" || got == hostile || lines[len(lines)-1].RequestID != got {
				t.Errorf("hostile id %q: answered %q, logged %q", hostile, got, lines[len(lines)-1].RequestID)
			}
		}
	})
	t.Run("UnmatchedRoute", func(t *testing.T) {
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/nowhere/" + task.ID + "?token=" + secret, Contract: handlerstest.Outside}).
			WantStatus(t, http.StatusNotFound)
		lines := requestLines(t, env)
		if l := lines[len(lines)-1]; l.Route != "unmatched" || l.Status != 404 || l.Path != "/nowhere/"+task.ID {
			t.Fatalf("log line %+v", l)
		}
		if strings.Contains(env.Logs.String(), secret) {
			t.Fatal("the query string's token reached the log")
		}
	})
}
