// Package bench is `web stress bench`, the benchmark set of issue 13 (docs/benchmarks.md,
// "make bench"): per SQL dialect, on fresh databases, the write modes of package stress over
// HTTP against `web serve` in a child process beside the raw-SQL baseline and against the store
// in process, a CPU profile of the server, the scale target seeded by stress/seed, the server's
// startup, the inbox matrix read-only, beside the paced and beside the unthrottled mixed load,
// and the server's peak RSS; then the report,
// as JSON or as the generated section of docs/benchmarks.md. Timings are reported, never judged.
package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// Options configure a run; the exported fields are the report's settings.
type Options struct {
	Scale          string   `json:"scale"`
	Tasks          int      `json:"tasks"`
	Writers        int      `json:"writers"`
	Open           int      `json:"open"`
	Terminal       int      `json:"terminal"`
	Reps           int      `json:"reps"`
	DeepRows       int      `json:"deepRows"`
	ProfileSeconds int      `json:"profileSeconds"`
	Dialects       []string `json:"dialects"`

	// Web is the executable acting as `web` whose `serve` the child servers run.
	Web string `json:"-"`
	// Servers are the database servers the scratch databases of postgres and mariadb are
	// created on, by dialect.
	Servers map[string]string `json:"-"`
	// Dir is the scratch directory for SQLite files and profiles; empty: a temporary one,
	// removed after the run.
	Dir string `json:"-"`
	// Markdown, when set, is the file the report's section is spliced into (Splice).
	Markdown string `json:"-"`
}

// Scales are the presets of --scale: the target, a tenth of it, and a toy for tests.
var Scales = map[string]Options{
	"full":  {Tasks: 3000, Writers: 8, Open: 100_000, Terminal: 1_000_000, Reps: 5, DeepRows: 1000, ProfileSeconds: 30},
	"small": {Tasks: 1000, Writers: 8, Open: 10_000, Terminal: 100_000, Reps: 5, DeepRows: 1000, ProfileSeconds: 10},
	"tiny":  {Tasks: 30, Writers: 3, Open: 300, Terminal: 600, Reps: 2, DeepRows: 20, ProfileSeconds: 1},
}

// DialectNames are the SQL dialects the bench runs on, in the order it runs them.
var DialectNames = []string{"sqlite", "postgres", "mariadb"}

// writeModes are the write modes measured, over HTTP and against the store.
var writeModes = []string{"burst", "claim", "mixed"}

// Run runs the set on every one of o.Dialects in turn, writing progress lines to progress, each
// prefixed with the time since the start, and splices the report into o.Markdown when set.
func Run(ctx context.Context, o Options, progress io.Writer) (Report, error) {
	if o.Dir == "" {
		tmp, err := os.MkdirTemp("", "usertasks-bench-")
		if err != nil {
			return Report{}, err
		}
		defer os.RemoveAll(tmp)
		o.Dir = tmp
	} else if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return Report{}, err
	}
	progress = elapsedWriter{w: progress, start: time.Now()}
	rep := Report{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Machine: machineInfo(), Settings: o}
	started := time.Now()
	for _, d := range o.Dialects {
		fmt.Fprintf(progress, "bench: %s\n", d)
		dr, err := runDialect(ctx, o, d, progress)
		if err != nil {
			return rep, fmt.Errorf("bench %s: %w", d, err)
		}
		rep.Dialects = append(rep.Dialects, dr)
	}
	rep.Seconds = time.Since(started).Seconds()
	if o.Markdown != "" {
		if err := Splice(o.Markdown, rep.Markdown()); err != nil {
			return rep, err
		}
		fmt.Fprintf(progress, "bench: the report is in %s (%s)\n", o.Markdown, time.Since(started).Round(time.Second))
	}
	return rep, nil
}

// elapsedWriter prefixes each progress line with the time since the run began.
type elapsedWriter struct {
	w     io.Writer
	start time.Time
}

func (p elapsedWriter) Write(b []byte) (int, error) {
	if _, err := fmt.Fprintf(p.w, "[%s] ", time.Since(p.start).Round(time.Second)); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}

// machineInfo describes where the run happened.
func machineInfo() Machine {
	m := Machine{Cores: runtime.NumCPU(), GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
				var kb int64
				fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
				m.MemoryMB = kb / 1024
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.LoadAverage = strings.Join(f[:3], " ")
		}
	}
	return m
}
