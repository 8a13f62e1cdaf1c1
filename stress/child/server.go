// Package child runs `web serve` as a child process, for `web stress bench` and for the tests
// that need a real server process (the crash test kills it, the soak watches it). The caller
// names the executable acting as `web` (the bench passes its own, which cmd/web knows), so
// the package never guesses which binary it runs.
package child

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Server is `web serve` as a child process: it listens on a fixed loopback address, so clients
// reach it again after a restart; every line of its output goes to an optional file and an
// optional tap; the last lines explain a failed start; and its memory is sampled while it runs.
//
//	srv, err := child.New(child.Options{Bin: web, Env: os.Environ(), Vars: vars})
//	err = srv.Start(ctx, time.Minute)
//	… requests to srv.Base() …
//	err = srv.Stop()
type Server struct {
	addr string // host:port it listens on, the same for every start
	o    Options
	out  *outputLog

	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{} // closed when the current process has exited and its output is read
	started time.Duration // from exec to the first /readyz 200, of the last start
	peakRSS int64         // the largest VmRSS sampled over every start, KiB
}

// Options configure a Server.
type Options struct {
	// Bin is the executable acting as `web`: the child runs `Bin serve --listen ADDR Args…`.
	Bin string
	// Env is the child's environment before Vars; nothing is inherited that is not in it.
	Env []string
	// Vars are its settings, added to Env so they win.
	Vars map[string]string
	// Args follow `serve --listen ADDR`, e.g. --migrate.
	Args []string
	// LogPath, when set, is a file every line of output of every start is appended to.
	LogPath string
	// Tap, when set, sees every line of output (stdout and stderr, without the newline) as it
	// is read. It must not block (the server waits for its output to be read) nor keep line.
	Tap func(line []byte)
}

// tailLines is how many lines of output a Server keeps to explain a failure.
const tailLines = 30

// maxLine is the longest line kept whole; a longer one is cut there.
const maxLine = 1 << 20

// New picks a free loopback address for the server.
func New(o Options) (*Server, error) {
	if o.Bin == "" {
		return nil, errors.New("child: no executable to run as web")
	}
	addr, err := FreeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	s := &Server{addr: addr, o: o, out: &outputLog{tap: o.Tap}}
	if o.LogPath != "" {
		f, err := os.OpenFile(o.LogPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, err
		}
		s.out.file = f
	}
	return s, nil
}

// FreeLoopbackAddr is a loopback address with a port nothing listens on now.
func FreeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Base is the server's URL.
func (s *Server) Base() string { return "http://" + s.addr }

// Command is `web ARGS…` with the server's executable and environment.
func (s *Server) Command(args ...string) *exec.Cmd {
	cmd := exec.Command(s.o.Bin, args...)
	cmd.Env = append([]string{}, s.o.Env...)
	for k, v := range s.o.Vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// Start runs `web serve` and waits until /readyz answers 200, at most within. When it fails the
// server is stopped, and the error holds its last lines of output.
func (s *Server) Start(ctx context.Context, within time.Duration) error {
	cmd := s.Command(append([]string{"serve", "--listen", s.addr}, s.o.Args...)...)
	// One writer for both outputs: exec gives the child a single pipe, so lines keep their order.
	cmd.Stdout, cmd.Stderr = s.out, s.out
	cmd.WaitDelay = 5 * time.Second // output held open past the exit is cut, not waited for
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.mu.Lock()
	s.cmd, s.exited = cmd, exited
	s.mu.Unlock()
	go s.sampleRSS(cmd.Process.Pid, exited)

	probe := &http.Client{Timeout: 5 * time.Second}
	err := s.WaitFor(ctx, "be ready", within, func() bool {
		res, err := probe.Get(s.Base() + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	if err != nil {
		_ = s.Kill()
		return err
	}
	s.mu.Lock()
	s.started = time.Since(begin)
	s.mu.Unlock()
	return nil
}

// Startup is the last start's time from exec to the first /readyz 200.
func (s *Server) Startup() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// WaitFor polls cond every 5 ms until it holds. It fails when the server exits, ctx ends or
// within has passed; the error names what was awaited and holds the last lines of output.
func (s *Server) WaitFor(ctx context.Context, what string, within time.Duration, cond func() bool) error {
	s.mu.Lock()
	exited := s.exited
	s.mu.Unlock()
	deadline := time.After(within)
	for !cond() {
		select {
		case <-exited:
			return fmt.Errorf("web serve exited before it could %s:\n%s", what, s.out.lastLines())
		case <-deadline:
			return fmt.Errorf("web serve did not %s within %s:\n%s", what, within, s.out.lastLines())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

// running is the current process and its exit, or nil when none runs.
func (s *Server) running() (*exec.Cmd, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd, s.exited
}

// Kill ends the server with SIGKILL: no shutdown, no lease given back, transactions cut. A
// server that had exited by itself is an error.
func (s *Server) Kill() error {
	cmd, exited := s.running()
	if cmd == nil {
		return nil
	}
	defer s.clear(cmd)
	select {
	case <-exited:
		return fmt.Errorf("web serve had exited by itself (%s):\n%s", cmd.ProcessState, s.out.lastLines())
	default:
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	<-exited
	return nil
}

// Stop ends the server with SIGTERM and wants a clean exit within 30 s; after that it is
// killed. Nothing running is not an error.
func (s *Server) Stop() error {
	cmd, exited := s.running()
	if cmd == nil {
		return nil
	}
	defer s.clear(cmd)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		return errors.New("web serve did not stop within 30 s of SIGTERM")
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		return fmt.Errorf("web serve exited %d after SIGTERM:\n%s", code, s.out.lastLines())
	}
	return nil
}

func (s *Server) clear(cmd *exec.Cmd) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == cmd {
		s.cmd = nil
	}
}

// Close stops a server still running and closes the log file.
func (s *Server) Close() error {
	err := s.Stop()
	return errors.Join(err, s.out.close())
}

// sampleRSS samples VmRSS every 100 ms until the process exits (Linux; elsewhere nothing).
func (s *Server) sampleRSS(pid int, exited <-chan struct{}) {
	for {
		if kb := procStatusKB(pid, "VmRSS"); kb > 0 {
			s.mu.Lock()
			s.peakRSS = max(s.peakRSS, kb)
			s.mu.Unlock()
		}
		select {
		case <-exited:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Memory is the peak resident set in MiB: the kernel's high-water mark (VmHWM) of the running
// process when readable, else the largest VmRSS sampled.
func (s *Server) Memory() float64 {
	var kb int64
	if cmd, _ := s.running(); cmd != nil {
		kb = procStatusKB(cmd.Process.Pid, "VmHWM")
	}
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
