package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestLoadHTTPTimeouts(t *testing.T) {
	load := func(t *testing.T, extra map[string]string) (config, error) {
		t.Helper()
		vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
		for k, v := range extra {
			vars[k] = v
		}
		return loadConfig(env(vars), true)
	}
	t.Run("Defaults", func(t *testing.T) {
		c, err := load(t, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := httpTimeouts{ReadHeader: 10 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute}
		if c.HTTP != want {
			t.Fatalf("timeouts %+v, want %+v", c.HTTP, want)
		}
	})
	t.Run("AllSet", func(t *testing.T) {
		c, err := load(t, map[string]string{
			"USERTASKS_HTTP_READ_HEADER_TIMEOUT": "2s",
			"USERTASKS_HTTP_READ_TIMEOUT":        "30s",
			"USERTASKS_HTTP_WRITE_TIMEOUT":       " 90s ",
			"USERTASKS_HTTP_IDLE_TIMEOUT":        "5m",
		})
		if err != nil {
			t.Fatal(err)
		}
		want := httpTimeouts{ReadHeader: 2 * time.Second, Read: 30 * time.Second, Write: 90 * time.Second, Idle: 5 * time.Minute}
		if c.HTTP != want {
			t.Fatalf("timeouts %+v, want %+v", c.HTTP, want)
		}
	})
	for _, tt := range []struct {
		name, variable, value, want string
	}{
		{"ErrNotADuration", "USERTASKS_HTTP_READ_TIMEOUT", "soon", `USERTASKS_HTTP_READ_TIMEOUT="soon" is not a duration of at least 1s`},
		{"ErrNoUnit", "USERTASKS_HTTP_WRITE_TIMEOUT", "60", `USERTASKS_HTTP_WRITE_TIMEOUT="60" is not a duration`},
		{"ErrZero", "USERTASKS_HTTP_IDLE_TIMEOUT", "0s", `USERTASKS_HTTP_IDLE_TIMEOUT="0s"`},
		{"ErrNegative", "USERTASKS_HTTP_READ_HEADER_TIMEOUT", "-5s", `USERTASKS_HTTP_READ_HEADER_TIMEOUT="-5s"`},
		{"ErrBelowOneSecond", "USERTASKS_HTTP_WRITE_TIMEOUT", "60ms", `USERTASKS_HTTP_WRITE_TIMEOUT="60ms"`},
		{"ErrHeaderOverRead", "USERTASKS_HTTP_READ_TIMEOUT", "5s", "USERTASKS_HTTP_READ_HEADER_TIMEOUT (10s) must not exceed USERTASKS_HTTP_READ_TIMEOUT (5s)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, map[string]string{tt.variable: tt.value})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestServeRefusesBadHTTPTimeout(t *testing.T) {
	vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
	vars["USERTASKS_HTTP_WRITE_TIMEOUT"] = "forever"
	// A server that starts anyway is stopped, so the failure shows instead of a hang.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out, errOut syncBuffer
	code := run(ctx, []string{"serve", "--migrate", "--listen", "127.0.0.1:0"}, env(vars), &out, &errOut)
	reason := strings.TrimSpace(errOut.String())
	if code != 1 || !strings.Contains(reason, "USERTASKS_HTTP_WRITE_TIMEOUT") || strings.Contains(reason, "\n") {
		t.Fatalf("exit %d, stderr %q: want 1 and one line naming the variable", code, reason)
	}
}

// shortTimeout is each of the server's timeouts in the slow-client tests.
const shortTimeout = time.Second

func shortTimeoutVars(t *testing.T) map[string]string {
	vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
	for _, name := range []string{"READ_HEADER", "READ", "WRITE", "IDLE"} {
		vars["USERTASKS_HTTP_"+name+"_TIMEOUT"] = shortTimeout.String()
	}
	return vars
}

// trickle sends head at once, then rest one byte per interval until the connection fails, and
// returns how long the server kept the connection open (measured by the reader side).
func trickle(t *testing.T, base, head, rest string, interval time.Duration) time.Duration {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	go func() {
		for i := 0; i < len(rest); i++ {
			time.Sleep(interval)
			if _, err := conn.Write([]byte{rest[i]}); err != nil {
				return
			}
		}
	}()
	// Whatever the server answers, the connection must end soon after the timeout.
	conn.SetReadDeadline(start.Add(shortTimeout + 5*time.Second))
	_, err = io.Copy(io.Discard, conn)
	held := time.Since(start)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server still holds the connection after %s", held.Round(time.Millisecond))
	}
	return held
}

func TestServeCutsSlowRequests(t *testing.T) {
	base := startServe(t, shortTimeoutVars(t), "--migrate")
	t.Run("SlowHeaders", func(t *testing.T) {
		held := trickle(t, base, "GET /healthz HTTP/1.1\r\nHost: x\r\n", strings.Repeat("X-Slow: y\r\n", 100), 200*time.Millisecond)
		if held > shortTimeout+2*time.Second {
			t.Fatalf("a client trickling headers held the connection %s", held.Round(time.Millisecond))
		}
	})
	t.Run("SlowBody", func(t *testing.T) {
		body := `{"expectedRevision":1}` + strings.Repeat(" ", 978)
		head := "POST /api/v1/user-tasks/t-1/claim HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
		held := trickle(t, base, head, body, time.Second)
		if held > shortTimeout+2*time.Second {
			t.Fatalf("a client trickling its body held the connection %s", held.Round(time.Millisecond))
		}
	})
}

// TestHTTPServerCutsSlowReader serves a page larger than the socket buffers to a client that
// reads one byte now and then: the write timeout ends the answer and frees the handler.
func TestHTTPServerCutsSlowReader(t *testing.T) {
	const pageBytes = 64 << 20
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	var cutAfter atomic.Int64
	cut := make(chan struct{})
	srv := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		defer close(cut)
		for written := 0; written < pageBytes; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				cutAfter.Store(int64(time.Since(start)))
				return
			}
		}
	}), httpTimeouts{ReadHeader: shortTimeout, Read: shortTimeout, Write: shortTimeout, Idle: shortTimeout})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /page HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	slow := time.NewTicker(100 * time.Millisecond)
	defer slow.Stop()
	one := make([]byte, 1)
	deadline := time.After(shortTimeout + 5*time.Second)
wait:
	for {
		select {
		case <-cut:
			break wait
		case <-deadline:
			t.Fatal("the handler is still writing to a slow reader")
		case <-slow.C:
			conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			conn.Read(one)
		}
	}
	if after := time.Duration(cutAfter.Load()); after == 0 || after > shortTimeout+2*time.Second {
		t.Fatalf("the write failed after %s, want about %s", after, shortTimeout)
	}
	// What the kernel buffered still arrives; then the connection ends, short of the page.
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the connection stays open after the write timeout")
	}
	if n >= pageBytes {
		t.Fatalf("the slow reader got the whole page (%d bytes)", n)
	}
}

// TestServeStreamOutlivesTimeouts keeps a live-update stream open well past the server's read
// and write timeouts and still receives an event on it.
func TestServeStreamOutlivesTimeouts(t *testing.T) {
	base := startServe(t, shortTimeoutVars(t), "--migrate")
	ann := mintToken(t, tokenClaims(jwt.MapClaims{"permissions": []string{"user-tasks:view", "user-tasks:claim"}}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/user-tasks/stream", nil)
	req.Header.Set("Authorization", "Bearer "+ann)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stream status %d", resp.StatusCode)
	}
	opened := time.Now()
	lines := make(chan string, 100)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()

	select {
	case <-ended:
		t.Fatal("the stream ended within the server's timeouts")
	case <-time.After(3 * shortTimeout):
	}

	runtime := mintToken(t, tokenClaims(jwt.MapClaims{"sub": "engine", "permissions": []string{"user-tasks/runtime:write"}}))
	body, _ := json.Marshal(map[string]any{
		"workflowDefinitionId": "invoice", "workflowInstanceId": "wf-1", "activityInstanceId": "approve", "bookmarkId": "bm-1",
		"task": map[string]any{"title": "Approve invoice", "candidateUsers": []any{map[string]any{"id": "ann"}}},
	})
	post, _ := http.NewRequest(http.MethodPost, base+"/api/v1/runtime/bookmarks", bytes.NewReader(body))
	post.Header.Set("Authorization", "Bearer "+runtime)
	post.Header.Set("Content-Type", "application/json")
	created, err := http.DefaultClient.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(created.Body)
	created.Body.Close()
	if created.StatusCode != http.StatusCreated {
		t.Fatalf("project bookmark: %d %s", created.StatusCode, answer)
	}
	var task struct {
		TaskID string `json:"taskId"`
	}
	json.Unmarshal(answer, &task)

	timeout := time.After(10 * time.Second)
	for {
		select {
		case line := <-lines:
			if strings.HasPrefix(line, "data: ") && strings.Contains(line, task.TaskID) {
				return
			}
		case <-ended:
			t.Fatalf("the stream ended before the event arrived (%s after it opened)", time.Since(opened).Round(time.Millisecond))
		case <-timeout:
			t.Fatal("no event for the new task within 10 s")
		}
	}
}
