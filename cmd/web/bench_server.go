package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// benchServer is a `web serve` child process of the bench: its base URL, its profiling
// address, the server-side duration of every request it logged (by X-Request-Id) and its
// memory as /proc reports it.
type benchServer struct {
	cmd     *exec.Cmd
	base    string
	pprof   string
	started time.Duration // from exec to the first /readyz 200

	mu        sync.Mutex
	durations map[string]float64 // request id → duration_ms from the request log
	peakRSS   int64              // the largest VmRSS sampled, KiB
	tail      []string           // the last lines of its stderr, for errors
	exited    chan struct{}
}

// benchListening is the line `web serve` prints on stdout once it listens.
var benchListening = regexp.MustCompile(`listening on (http://\S+)`)

// startBenchServer starts `web serve` on databaseURL with vars (the bench's settings) and waits
// until /readyz answers 200.
func startBenchServer(ctx context.Context, databaseURL string, vars map[string]string) (*benchServer, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "serve", "--listen", "127.0.0.1:0")
	cmd.Env = os.Environ() // the server's settings follow and win
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "USERTASKS_DATABASE_URL="+databaseURL, "USERTASKS_PPROF_ADDR=127.0.0.1:0", "USERTASKS_DEV=false")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s := &benchServer{cmd: cmd, durations: map[string]float64{}, exited: make(chan struct{})}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	baseCh, pprofCh := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := benchListening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case baseCh <- m[1]:
				default:
				}
			}
		}
	}()
	go s.readLog(stderr, pprofCh)
	go func() { _ = cmd.Wait(); close(s.exited) }()
	go s.sampleRSS()

	deadline := time.After(5 * time.Minute)
	for s.base == "" || s.pprof == "" {
		select {
		case s.base = <-baseCh:
		case s.pprof = <-pprofCh:
		case <-s.exited:
			return nil, fmt.Errorf("web serve exited before it listened: %s", s.lastLines())
		case <-deadline:
			s.stop()
			return nil, errors.New("web serve did not listen within 5 minutes")
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		}
	}
	for {
		res, err := http.Get(s.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				s.started = time.Since(start)
				return s, nil
			}
		}
		select {
		case <-time.After(5 * time.Millisecond):
		case <-s.exited:
			return nil, fmt.Errorf("web serve exited before it was ready: %s", s.lastLines())
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		}
	}
}

// readLog reads the server's JSON log: request lines give their duration by request id, the
// profiling line its address.
func (s *benchServer) readLog(r io.Reader, pprofCh chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var rec struct {
			Msg        string  `json:"msg"`
			RequestID  string  `json:"request_id"`
			DurationMS float64 `json:"duration_ms"`
			URL        string  `json:"url"`
		}
		if json.Unmarshal(line, &rec) != nil {
			s.keep(string(line))
			continue
		}
		switch {
		case rec.Msg == "request" && strings.HasPrefix(rec.RequestID, "bench-"):
			s.mu.Lock()
			s.durations[rec.RequestID] = rec.DurationMS
			s.mu.Unlock()
		case strings.HasSuffix(rec.URL, "/debug/pprof/"):
			pprofCh <- strings.TrimSuffix(rec.URL, "/debug/pprof/")
		case rec.Msg != "request":
			s.keep(string(line))
		}
	}
	_, _ = io.Copy(io.Discard, r) // a line past the buffer: keep draining, the server must never block on its log
}

func (s *benchServer) keep(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tail = append(s.tail, line)
	if len(s.tail) > 20 {
		s.tail = s.tail[1:]
	}
}

func (s *benchServer) lastLines() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.tail, "\n")
}

// duration is the server's own duration of the request with id, in ms, once its log line is read.
func (s *benchServer) duration(id string) (float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.durations[id]
	return d, ok
}

// sampleRSS samples VmRSS every 100 ms until the process exits (Linux; elsewhere nothing).
func (s *benchServer) sampleRSS() {
	for {
		if kb := procStatusKB(s.cmd.Process.Pid, "VmRSS"); kb > 0 {
			s.mu.Lock()
			s.peakRSS = max(s.peakRSS, kb)
			s.mu.Unlock()
		}
		select {
		case <-s.exited:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// memory is the peak resident set in MiB: the kernel's high-water mark (VmHWM) when readable,
// else the largest VmRSS sampled.
func (s *benchServer) memory() float64 {
	kb := procStatusKB(s.cmd.Process.Pid, "VmHWM")
	s.mu.Lock()
	kb = max(kb, s.peakRSS)
	s.mu.Unlock()
	return float64(kb) / 1024
}

// procStatusKB reads one "Name: N kB" field of /proc/<pid>/status, or 0.
func procStatusKB(pid int, field string) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// cpuProfile fetches a CPU profile of seconds from the server into path.
func (s *benchServer) cpuProfile(ctx context.Context, seconds int, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", s.pprof, seconds), nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("profile: HTTP %d", res.StatusCode)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, res.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// stop sends SIGTERM and waits for the exit (SIGKILL after 30 s).
func (s *benchServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}
