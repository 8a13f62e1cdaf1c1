package stress

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Report is one mode's outcome: the figures measured over every round and the invariants
// checked at the end of each round.
type Report struct {
	Mode    string   `json:"mode"`
	Target  string   `json:"target"`
	Dialect string   `json:"dialect,omitempty"`
	Tasks   int      `json:"tasks"`
	Writers int      `json:"writers"`
	Rounds  int      `json:"rounds"`
	Pace    int      `json:"pace,omitempty"`    // the mixed mode's writes per second, 0 unthrottled
	Members int      `json:"members,omitempty"` // the notify mode's group size
	Figures []Figure `json:"figures"`
	Checks  []Check  `json:"checks"`
	Notes   []string `json:"notes,omitempty"`
	OK      bool     `json:"ok"` // every check held

	meters   map[string]*meter
	order    []string
	baseline map[string]string // our figure → the raw figure it is compared with
	full     map[string]string // our figure → the raw full-shape figure it is compared with
}

// Figure is one measured operation: counts by outcome, throughput over the wall time of the
// phases it ran in, latency percentiles in milliseconds, and the raw baseline beside it.
type Figure struct {
	Name       string  `json:"name"`
	Ops        int     `json:"ops"`
	Applied    int     `json:"applied"`
	Conflicts  int     `json:"conflicts"`
	Repeats    int     `json:"repeats"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"firstError,omitempty"`
	Seconds    float64 `json:"seconds"`
	PerSecond  float64 `json:"perSecond"`
	P50        float64 `json:"p50Ms"`
	P95        float64 `json:"p95Ms"`
	P99        float64 `json:"p99Ms"`
	// Baseline is the same shape as raw SQL at the same concurrency; the ratios are ours over
	// the baseline's (throughput: higher is better; p95: lower is better).
	Baseline        *Figure `json:"baseline,omitempty"`
	ThroughputRatio float64 `json:"throughputRatio,omitempty"`
	P95Ratio        float64 `json:"p95Ratio,omitempty"`
	// FullShape is the raw baseline on the real schema: the store's own statements, issued by
	// hand (the claim mode); the ratios are ours over it.
	FullShape           *Figure `json:"fullShape,omitempty"`
	FullThroughputRatio float64 `json:"fullThroughputRatio,omitempty"`
	FullP95Ratio        float64 `json:"fullP95Ratio,omitempty"`
}

// Check is one invariant: what it must be and what it was.
type Check struct {
	Name string `json:"name"`
	Want string `json:"want"`
	Got  string `json:"got"`
	OK   bool   `json:"ok"`
}

func newReport(mode string, o Options) Report {
	r := Report{Mode: mode, Target: o.Target.Name(), Tasks: o.Tasks, Writers: o.Writers, Rounds: o.Rounds,
		Figures: []Figure{}, Checks: []Check{}, meters: map[string]*meter{}, baseline: map[string]string{}, full: map[string]string{}}
	if o.Store != nil {
		r.Dialect = o.Database
	}
	if mode == NotifyMode {
		r.Members = o.Members
	}
	return r
}

// meter is the figure's meter, created on first use; raw names the baseline figure it is
// compared with ("" for none).
func (r *Report) meter(name, raw string) *meter {
	if m, ok := r.meters[name]; ok {
		return m
	}
	m := &meter{}
	r.meters[name] = m
	r.order = append(r.order, name)
	if raw != "" {
		r.baseline[name] = raw
	}
	return m
}

// fullShape is the meter of the raw full-shape figure that ours is compared with.
func (r *Report) fullShape(ours, raw string) *meter {
	r.full[ours] = raw
	return r.meter(raw, "")
}

// check records an invariant; per round, so a name may repeat with the round's values.
func (r *Report) check(name string, want, got any) {
	w, g := fmt.Sprint(want), fmt.Sprint(got)
	r.Checks = append(r.Checks, Check{Name: name, Want: w, Got: g, OK: w == g})
}

// finish turns the meters into figures and decides OK.
func (r *Report) finish() {
	raws := map[string]bool{}
	for _, raw := range r.baseline {
		raws[raw] = true
	}
	for _, raw := range r.full {
		raws[raw] = true
	}
	for _, name := range r.order {
		if raws[name] {
			continue
		}
		f := r.meters[name].figure(name)
		f.Baseline, f.ThroughputRatio, f.P95Ratio = r.against(f, r.baseline[name])
		f.FullShape, f.FullThroughputRatio, f.FullP95Ratio = r.against(f, r.full[name])
		r.Figures = append(r.Figures, f)
	}
	r.OK = true
	for _, c := range r.Checks {
		r.OK = r.OK && c.OK
	}
}

// against is the figure of the raw meter named raw and f's ratios over it (throughput, p95):
// nil and no ratios where that meter is missing or measured nothing.
func (r *Report) against(f Figure, raw string) (b *Figure, throughput, p95 float64) {
	m, ok := r.meters[raw]
	if !ok || m.figure("").Ops == 0 {
		return nil, 0, 0
	}
	fig := m.figure(raw)
	if fig.PerSecond > 0 {
		throughput = f.PerSecond / fig.PerSecond
	}
	if fig.P95 > 0 {
		p95 = f.P95 / fig.P95
	}
	return &fig, throughput, p95
}

// Print writes the report as text: figures with the baseline and the ratios, then every
// failed check (or that all held).
func (r Report) Print(w io.Writer) {
	where := r.Target
	if r.Dialect != "" {
		where += " on " + r.Dialect
	}
	paced := ""
	if r.Pace > 0 {
		paced = fmt.Sprintf(", writes paced at %d/s", r.Pace)
	}
	if r.Members > 0 {
		paced += fmt.Sprintf(", a group of %d", r.Members)
	}
	fmt.Fprintf(w, "== %s (%s): %d tasks × %d writers × %d rounds%s\n", r.Mode, where, r.Tasks, r.Writers, r.Rounds, paced)
	fmt.Fprintf(w, "  %-34s %8s %9s %8s %8s %8s %9s %6s\n", "figure", "ops", "per s", "p50 ms", "p95 ms", "p99 ms", "conflicts", "errors")
	for _, f := range r.Figures {
		printFigure(w, f.Name, f)
		if f.Baseline != nil {
			printFigure(w, "  raw: "+f.Baseline.Name, *f.Baseline)
			fmt.Fprintf(w, "  %-34s %8s %9s %26s\n", "  ratio (ours / raw)", "", ratio(f.ThroughputRatio), ratio(f.P95Ratio))
		}
		if f.FullShape != nil {
			printFigure(w, "  raw: "+f.FullShape.Name, *f.FullShape)
			fmt.Fprintf(w, "  %-34s %8s %9s %26s\n", "  ratio (ours / full shape)", "", ratio(f.FullThroughputRatio), ratio(f.FullP95Ratio))
		}
		if f.FirstError != "" {
			fmt.Fprintf(w, "    first error: %s\n", f.FirstError)
		}
	}
	failed := 0
	for _, c := range r.Checks {
		if !c.OK {
			failed++
			fmt.Fprintf(w, "  FAILED %s: want %s, got %s\n", c.Name, c.Want, c.Got)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if failed == 0 {
		fmt.Fprintf(w, "  invariants: all %d checks held\n", len(r.Checks))
	} else {
		fmt.Fprintf(w, "  invariants: %d of %d checks failed\n", failed, len(r.Checks))
	}
}

// Write writes reports as text (Report.Print each) or as JSON, {"reports": […], "ok": bool},
// and returns how many checks failed over all of them.
func Write(w io.Writer, reports []Report, asJSON bool) (failed int, err error) {
	for _, r := range reports {
		for _, c := range r.Checks {
			if !c.OK {
				failed++
			}
		}
	}
	if !asJSON {
		for _, r := range reports {
			r.Print(w)
		}
		return failed, nil
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return failed, enc.Encode(struct {
		Reports []Report `json:"reports"`
		OK      bool     `json:"ok"`
	}{reports, failed == 0})
}

// ratio prints a ratio, or a dash where there is none (a figure timed as a whole has no p95).
func ratio(x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", x)
}

func printFigure(w io.Writer, name string, f Figure) {
	fmt.Fprintf(w, "  %-34s %8d %9.1f %8.2f %8.2f %8.2f %9d %6d\n", strings.TrimSpace(name), f.Ops, f.PerSecond, f.P50, f.P95, f.P99, f.Conflicts, f.Errors)
}
