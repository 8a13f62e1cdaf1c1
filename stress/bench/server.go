package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"usertasks/stress/child"
)

// server is a `web serve` child process of the bench, with what the bench reads from its
// JSON log: the server-side duration of every bench request (by X-Request-Id) and the address
// of its profiling listener.
type server struct {
	*child.Server

	logMu      sync.Mutex
	durations  map[string]float64 // request id → duration_ms from the request log
	pprof      string             // http://host:port of net/http/pprof
	reconciled bool               // a reconciliation run was logged
	workerLine time.Time          // when the last line of a background worker was read
}

// startServer starts `web serve` of the executable web on databaseURL with vars (the bench's
// settings) and waits until /readyz answers 200 and the profiling address is logged.
func startServer(ctx context.Context, web, databaseURL string, vars map[string]string) (*server, error) {
	s := &server{durations: map[string]float64{}}
	settings := maps.Clone(vars)
	settings["USERTASKS_DATABASE_URL"] = databaseURL
	settings["USERTASKS_PPROF_ADDR"] = "127.0.0.1:0"
	settings["USERTASKS_DEV"] = "false"
	srv, err := child.New(child.Options{Bin: web, Env: os.Environ(), Vars: settings, Tap: s.hear})
	if err != nil {
		return nil, err
	}
	s.Server = srv
	if err := srv.Start(ctx, 5*time.Minute); err != nil {
		return nil, err
	}
	if err := srv.WaitFor(ctx, "log its profiling address", 30*time.Second, func() bool { return s.pprofURL() != "" }); err != nil {
		_ = srv.Stop()
		return nil, err
	}
	return s, nil
}

// hear reads one line of the server's JSON log: a bench request's line gives its duration,
// the profiling line its address.
func (s *server) hear(line []byte) {
	var rec struct {
		Msg        string  `json:"msg"`
		RequestID  string  `json:"request_id"`
		DurationMS float64 `json:"duration_ms"`
		URL        string  `json:"url"`
		Worker     string  `json:"worker"`
	}
	if json.Unmarshal(line, &rec) != nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	switch {
	case rec.Msg == "request" && strings.HasPrefix(rec.RequestID, "bench-"):
		s.durations[rec.RequestID] = rec.DurationMS
	case strings.HasSuffix(rec.URL, "/debug/pprof/"):
		s.pprof = strings.TrimSuffix(rec.URL, "/debug/pprof/")
	case rec.Worker != "":
		s.workerLine = time.Now()
		s.reconciled = s.reconciled || rec.Msg == "reconciliation"
	}
}

// workers reports whether a reconciliation run was logged and how long ago the background
// workers last logged a line.
func (s *server) workers() (reconciled bool, quiet time.Duration) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return s.reconciled, time.Since(s.workerLine)
}

func (s *server) pprofURL() string {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return s.pprof
}

// duration is the server's own duration of the request with id, in ms, once its log line is read.
func (s *server) duration(id string) (float64, bool) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	d, ok := s.durations[id]
	return d, ok
}

// waitDuration waits up to 10 s for the request's log line.
func (s *server) waitDuration(ctx context.Context, id string) (float64, error) {
	var d float64
	err := s.WaitFor(ctx, "log request "+id, 10*time.Second, func() (ok bool) {
		d, ok = s.duration(id)
		return ok
	})
	return d, err
}

// cpuProfile fetches a CPU profile of seconds from the server into path.
func (s *server) cpuProfile(ctx context.Context, seconds int, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", s.pprofURL(), seconds), nil)
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
