package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/stress"
	"usertasks/stress/child"
	"usertasks/testfactory"
)

// The soak's flatness rule: a resource is flat when the highest sample of the run's last third
// is at most the highest of its first third plus soakMargin of it plus the absolute slack (a
// leak of one goroutine or a few KiB per request grows far past both within minutes).
const (
	soakMargin         = 0.25
	soakGoroutineSlack = 20
	soakRSSSlack       = 32 << 20
	soakSampleEvery    = 5 * time.Second
)

// soakSample is one reading of the server's /metrics.
type soakSample struct {
	at         time.Duration
	goroutines float64
	rss        float64
}

// TestSoak is `make soak` (never in CI: it runs only when USERTASKS_SOAK names a duration):
// `web serve` runs as a child process on a SQLite file (or, with USERTASKS_SOAK_DB=postgres or
// mariadb, a fresh database of that server) while the stress harness loads it over HTTP in
// turns, each in a fresh tenant, until the duration is up: the mixed mode (projections, claims
// and completions, inbox readers with filters and search, live-stream subscribers, the
// server's loopback runtime finalizing every completion) and the claim mode (people racing for
// the same tasks: the only expected errors, conflicts). Every few seconds it reads
// go_goroutines and process_resident_memory_bytes from /metrics. At the end: every invariant
// of every turn held, no request errored, the server logged no 5xx, `web audit` is clean, and
// goroutines and memory are flat (soakMargin). It prints the samples and a summary table.
func TestSoak(t *testing.T) {
	raw := os.Getenv("USERTASKS_SOAK")
	if raw == "" {
		t.Skip("make soak runs it (USERTASKS_SOAK=10m)")
	}
	duration, err := time.ParseDuration(raw)
	if err != nil || duration < 30*time.Second {
		t.Fatalf("USERTASKS_SOAK=%q: want a duration of at least 30s", raw)
	}
	dialect := migrations.SQLite
	switch os.Getenv("USERTASKS_SOAK_DB") {
	case "", "sqlite":
	case "postgres":
		dialect = migrations.Postgres
	case "mariadb":
		dialect = migrations.MySQL
	default:
		t.Fatalf("USERTASKS_SOAK_DB=%q: want sqlite, postgres or mariadb", os.Getenv("USERTASKS_SOAK_DB"))
	}
	vars := productionVars("")
	vars["USERTASKS_DATABASE_URL"] = testfactory.Database(t, testfactory.Provider(dialect))
	metricsAddr, err := child.FreeLoopbackAddr()
	if err != nil {
		t.Fatal(err)
	}
	vars["USERTASKS_METRICS_ADDR"] = metricsAddr
	bin := filepath.Join(t.TempDir(), "web")
	if out, err := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The server is a built web with vars and nothing else of USERTASKS_ from the test's
	// environment.
	var inherited []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "USERTASKS_") {
			inherited = append(inherited, kv)
		}
	}
	logPath := filepath.Join(t.TempDir(), "serve.log")
	srv := newTestChild(t, child.Options{Bin: bin, Env: inherited, Vars: vars, LogPath: logPath})
	if err := srv.Start(context.Background(), time.Minute); err != nil {
		t.Fatal(err)
	}
	target, err := stressHTTPTarget(env(vars), srv.Base())
	if err != nil {
		t.Fatal(err)
	}
	metricsURL := "http://" + vars["USERTASKS_METRICS_ADDR"] + "/metrics"

	ctx, cancel := context.WithTimeout(context.Background(), duration+5*time.Minute)
	defer cancel()
	start := time.Now()
	samples := []soakSample{}
	sampled := make(chan struct{})
	stopSampling := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if s, err := readSoakSample(metricsURL); err == nil {
				s.at = time.Since(start)
				samples = append(samples, s)
			} else {
				t.Errorf("read /metrics: %v", err)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(soakSampleEvery):
			}
		}
	}()

	var turns, tasks, ops, conflicts, failures int
	for n := 0; time.Since(start) < duration; n++ {
		mode := []string{"mixed", "claim"}[n%2]
		reports, err := stress.Run(ctx, mode, stress.Options{Tasks: 100, Writers: 6, Target: target})
		if err != nil {
			t.Fatalf("turn %d (%s): %v", n+1, mode, err)
		}
		turns++
		tasks += 100
		for _, r := range reports {
			for _, c := range r.Checks {
				if !c.OK {
					failures++
					t.Errorf("turn %d: %s: want %s, got %s", n+1, c.Name, c.Want, c.Got)
				}
			}
			for _, f := range r.Figures {
				ops += f.Ops
				conflicts += f.Conflicts
				if f.Errors > 0 {
					failures++
					t.Errorf("turn %d: %s: %d errors, the first: %s", n+1, f.Name, f.Errors, f.FirstError)
				}
			}
		}
	}
	elapsed := time.Since(start)
	close(stopSampling)
	<-sampled

	serverErrors := countServerErrors(t, logPath)
	code, out, errOut := runCLI(t, vars, "audit")
	auditClean := code == exitOK
	if !auditClean {
		t.Errorf("web audit exited %d:\n%s\n%s", code, out, errOut)
	}
	if serverErrors > 0 {
		t.Errorf("the server logged %d responses with a 5xx status", serverErrors)
	}

	t.Logf("%-8s %12s %12s", "at", "goroutines", "RSS MiB")
	for _, s := range samples {
		t.Logf("%-8s %12.0f %12.1f", s.at.Round(time.Second), s.goroutines, s.rss/(1<<20))
	}
	if len(samples) < 6 {
		t.Fatalf("%d samples: too few to judge flatness", len(samples))
	}
	third := len(samples) / 3
	first, last := samples[:third], samples[len(samples)-third:]
	goFirst, goLast := peak(first, func(s soakSample) float64 { return s.goroutines }), peak(last, func(s soakSample) float64 { return s.goroutines })
	rssFirst, rssLast := peak(first, func(s soakSample) float64 { return s.rss }), peak(last, func(s soakSample) float64 { return s.rss })
	goFlat := goLast <= goFirst*(1+soakMargin)+soakGoroutineSlack
	rssFlat := rssLast <= rssFirst*(1+soakMargin)+soakRSSSlack
	t.Logf("soak on %s for %s: %d turns, %d tasks, %d operations (%.0f/s), %d expected conflicts, %d failed checks or errors, %d server 5xx, audit clean %v",
		testfactory.Provider(dialect).Name(), elapsed.Round(time.Second), turns, tasks, ops, float64(ops)/elapsed.Seconds(), conflicts, failures, serverErrors, auditClean)
	t.Logf("%-12s %14s %14s %8s", "resource", "first third max", "last third max", "flat")
	t.Logf("%-12s %14.0f %14.0f %8v", "goroutines", goFirst, goLast, goFlat)
	t.Logf("%-12s %14.1f %14.1f %8v", "RSS MiB", rssFirst/(1<<20), rssLast/(1<<20), rssFlat)
	if !goFlat {
		t.Errorf("goroutines grew: %.0f in the first third, %.0f in the last", goFirst, goLast)
	}
	if !rssFlat {
		t.Errorf("memory grew: %.1f MiB in the first third, %.1f MiB in the last", rssFirst/(1<<20), rssLast/(1<<20))
	}
}

func peak(samples []soakSample, value func(soakSample) float64) float64 {
	vs := make([]float64, len(samples))
	for i, s := range samples {
		vs[i] = value(s)
	}
	return slices.Max(vs)
}

var serverErrorLine = regexp.MustCompile(`"status":5\d\d[,}]`)

// countServerErrors counts the request log lines of the server with a 5xx status.
func countServerErrors(t *testing.T, logPath string) int {
	t.Helper()
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(string(b)) {
		if serverErrorLine.MatchString(line) {
			if n < 5 {
				t.Logf("server error: %s", strings.TrimSpace(line))
			}
			n++
		}
	}
	return n
}

// readSoakSample reads the goroutines and resident memory from the server's /metrics.
func readSoakSample(url string) (soakSample, error) {
	resp, err := http.Get(url)
	if err != nil {
		return soakSample{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return soakSample{}, fmt.Errorf("status %d", resp.StatusCode)
	}
	var s soakSample
	var seen int
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		switch name {
		case "go_goroutines", "process_resident_memory_bytes":
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return s, fmt.Errorf("%s: %v", name, err)
			}
			if name == "go_goroutines" {
				s.goroutines = v
			} else {
				s.rss = v
			}
			seen++
		}
	}
	if seen != 2 {
		return s, fmt.Errorf("go_goroutines or process_resident_memory_bytes missing")
	}
	return s, sc.Err()
}
