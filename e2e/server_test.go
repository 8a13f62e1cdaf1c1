package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The server under test is the `web` binary itself, built from ../cmd/web and started as
// `web serve` in dev mode: the wiring of cmd/web is package main, so building and running it is
// the only way to test exactly what `make run` serves.

// repoRoot is the module root (the parent of this package's folder).
var repoRoot = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Dir(wd)
}()

var (
	buildOnce sync.Once
	webBinary string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// buildWeb builds the web binary once per test run.
func buildWeb(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "usertasks-e2e-bin-")
		if buildErr != nil {
			return
		}
		webBinary = filepath.Join(buildDir, "web")
		goTool, err := exec.LookPath("go")
		if err != nil {
			buildErr = fmt.Errorf("the go tool is not on PATH: %w", err)
			return
		}
		cmd := exec.Command(goTool, "build", "-tags", "sqlite_fts5", "-o", webBinary, "./cmd/web")
		cmd.Dir = repoRoot
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ./cmd/web: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return webBinary
}

// server is one running `web serve`.
type server struct {
	URL  string
	logs *syncBuffer
}

// listening is the line `web serve` prints once it accepts connections.
var listening = regexp.MustCompile(`listening on (http://[0-9.:\[\]a-z]+)`)

// startServer runs `web serve` in dev mode (demo seed, dev login, loopback runtime) on a fresh
// SQLite file and a free loopback port, until the test ends.
func startServer(t *testing.T) *server {
	t.Helper()
	return startServerEnv(t)
}

// startServerEnv is startServer with more environment variables, which override the defaults
// (the last of two settings of one variable wins).
func startServerEnv(t *testing.T, env ...string) *server {
	t.Helper()
	bin := buildWeb(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Dir = dir // dev mode keeps its files (keys) beside the database, in dir
	cmd.Env = append(environWithout("USERTASKS_"),
		"USERTASKS_DEV=true",
		"USERTASKS_DATABASE_URL=sqlite:"+filepath.Join(dir, "e2e.db"),
		"USERTASKS_LISTEN_ADDR=127.0.0.1:0",
	)
	cmd.Env = append(cmd.Env, env...)
	// Interrupt first: a graceful shutdown ends the live streams and releases leases.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 15 * time.Second
	logs := &syncBuffer{}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(logs, line)
			if m := listening.FindStringSubmatch(line); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(logs, stdout)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cancel()
		// After the interrupt a clean exit reports the context's error; anything else is news.
		if err := <-exited; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("web serve did not shut down cleanly: %v", err)
		}
		if t.Failed() {
			t.Logf("server output:\n%s", logs.tail(200))
		}
	})
	select {
	case u := <-urls:
		t.Logf("server: %s (database %s)", u, filepath.Join(dir, "e2e.db"))
		return &server{URL: u, logs: logs}
	case err := <-exited:
		t.Fatalf("web serve exited before listening: %v\n%s", err, logs.tail(100))
	case <-time.After(90 * time.Second):
		t.Fatalf("web serve did not print its address within 90 s\n%s", logs.tail(100))
	}
	return nil
}

// environWithout is the test's environment less the variables with prefix, so a developer's
// own USERTASKS_* settings do not leak into the server under test.
func environWithout(prefix string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return out
}

// syncBuffer collects output from several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tail returns the last n lines.
func (b *syncBuffer) tail(n int) string {
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
