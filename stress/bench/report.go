package bench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"usertasks/stress"
)

// worstPages is how many of the slowest matrix pages the report lists.
const worstPages = 10

// Report is one run.
type Report struct {
	Date     string    `json:"date"`
	Seconds  float64   `json:"seconds"`
	Machine  Machine   `json:"machine"`
	Settings Options   `json:"settings"`
	Dialects []Dialect `json:"dialects"`
}

type Machine struct {
	Cores       int    `json:"cores"`
	MemoryMB    int64  `json:"memoryMB"`
	Kernel      string `json:"kernel"`
	OS          string `json:"os"`
	GoVersion   string `json:"goVersion"`
	LoadAverage string `json:"loadAverage"` // at the start
}

// Dialect is one dialect's figures, matrix and profile.
type Dialect struct {
	Dialect        string          `json:"dialect"`
	Figures        []Figure        `json:"figures"`
	Pages          []Page          `json:"pages"`
	WriteSeconds   float64         `json:"writeSeconds"`          // the write phase, server start to stop
	SeedSeconds    float64         `json:"seedSeconds"`           // seeding the scale target
	MatrixSeconds  float64         `json:"matrixSeconds"`         // the inbox matrix's three passes
	ProfileMode    string          `json:"profileMode,omitempty"` // the write mode furthest below its target
	ProfileSeconds int             `json:"profileSeconds,omitempty"`
	Profile        []string        `json:"profileTop,omitempty"`
	Notes          []string        `json:"notes,omitempty"`
	Stress         []stress.Report `json:"stress"`
	StoreStress    []stress.Report `json:"storeStress"` // the write modes against the store in process
}

// Figure is one figure against its target: ours, the raw baseline, the ratio. A write
// figure also has the same mode against the store in process and the raw full shape on the
// real schema (the store's own statements by hand: projection, claim, claim + complete), which
// split the gap into its layers: HTTP/store is what HTTP, JSON and auth cost, store/raw (full
// shape) what Go and GORM cost, raw (full shape)/raw what the schema's statements cost beside
// the narrow ones.
type Figure struct {
	Name           string  `json:"name"`
	Unit           string  `json:"unit"`
	Ours           float64 `json:"ours"`
	Store          float64 `json:"store,omitempty"`
	Raw            float64 `json:"raw,omitempty"`
	RawFull        float64 `json:"rawFull,omitempty"`
	Ratio          float64 `json:"ratio,omitempty"`          // ours / raw: the target's
	StoreRatio     float64 `json:"storeRatio,omitempty"`     // store / raw
	StoreFullRatio float64 `json:"storeFullRatio,omitempty"` // store / raw (full shape)
	HTTPStoreRatio float64 `json:"httpStoreRatio,omitempty"` // ours / store
	HTTPFullRatio  float64 `json:"httpFullRatio,omitempty"`  // ours / raw (full shape)
	Target         string  `json:"target"`
	Met            *bool   `json:"met"`
}

func met(ok bool) *bool { return &ok }

func (d *Dialect) add(f Figure) { d.Figures = append(d.Figures, f) }

// writeFigures are the stress figures the report takes: the mode, the figure, its label.
var writeFigures = []struct{ mode, figure, label string }{
	{"burst", "projection with duplicates", labelProjection},
	{"claim", "claim, contended", labelClaim},
	{"mixed", "through to Completed (tasks)", labelThrough},
	{"mixed", "claim + complete (each op)", labelEachOp},
}

const (
	labelProjection = "projection (create, duplicates included), over HTTP"
	labelClaim      = "claim, contended, over HTTP"
	labelThrough    = "complete through to Completed (claim, complete, dispatch, finalize)"
	labelEachOp     = "claim + complete, each op"
)

// addWriteFigures takes the write figures from the stress reports, judges them against issue
// 27's targets (judgeWrites) and returns the mode furthest below its target: its profile is
// reported.
func (d *Dialect) addWriteFigures() (worst string) {
	modes := map[string]string{}
	for _, w := range writeFigures {
		for _, r := range d.Stress {
			if r.Mode != w.mode {
				continue
			}
			if !r.OK {
				d.Notes = append(d.Notes, fmt.Sprintf("the %s mode's invariants did not all hold (see --json)", r.Mode))
			}
			for _, f := range r.Figures {
				if f.Name != w.figure {
					continue
				}
				bf := Figure{Name: w.label, Unit: "/s", Ours: f.PerSecond, Ratio: f.ThroughputRatio, Target: "-"}
				if f.Baseline != nil {
					bf.Raw = f.Baseline.PerSecond
				}
				if f.FullShape != nil {
					bf.RawFull = f.FullShape.PerSecond
					bf.HTTPFullRatio = f.FullThroughputRatio
				}
				bf.addStore(stressFigure(d.StoreStress, w.mode, w.figure))
				if f.Errors > 0 {
					d.Notes = append(d.Notes, fmt.Sprintf("%s: %d errors, the first: %s", w.label, f.Errors, f.FirstError))
				}
				modes[w.label] = w.mode
				d.add(bf)
			}
		}
	}
	return d.judgeWrites(modes)
}

// judgeWrites sets the write figures' targets (issue 27: against the store's own statements
// written by hand, the raw full shape) and returns the mode of the one furthest below its
// target: claim and projection, the store in process ≥ 0.7× its full shape and HTTP ≥ 0.6× the
// store; the completions (claim + complete, each op) over HTTP ≥ 0.6× their full shape; through
// to Completed ≥ 0.8× the claim + complete task rate (each op ÷ 2).
func (d *Dialect) judgeWrites(modes map[string]string) (worst string) {
	byLabel := map[string]*Figure{}
	for i := range d.Figures {
		byLabel[d.Figures[i].Name] = &d.Figures[i]
	}
	lowest := 0.0
	judge := func(label, target string, known bool, gaps ...float64) {
		f := byLabel[label]
		if f == nil {
			return
		}
		f.Target = target
		if !known {
			return // a ratio is missing: no verdict
		}
		g := slices.Min(gaps)
		f.Met = met(g >= 1)
		if worst == "" || g < lowest {
			worst, lowest = modes[label], g
		}
	}
	for _, label := range []string{labelProjection, labelClaim} {
		if f := byLabel[label]; f != nil {
			judge(label, "store ≥ 0.7× full, HTTP ≥ 0.6× store", f.StoreFullRatio > 0 && f.HTTPStoreRatio > 0,
				f.StoreFullRatio/0.7, f.HTTPStoreRatio/0.6)
		}
	}
	if f := byLabel[labelEachOp]; f != nil {
		judge(labelEachOp, "HTTP ≥ 0.6× full", f.HTTPFullRatio > 0, f.HTTPFullRatio/0.6)
		if t := byLabel[labelThrough]; t != nil {
			judge(labelThrough, "≥ 0.8× the claim + complete task rate", f.Ours > 0, t.Ours/(0.8*f.Ours/2))
		}
	}
	return worst
}

// stressFigure finds the figure of mode in reports.
func stressFigure(reports []stress.Report, mode, figure string) *stress.Figure {
	for _, r := range reports {
		if r.Mode != mode {
			continue
		}
		for i := range r.Figures {
			if r.Figures[i].Name == figure {
				return &r.Figures[i]
			}
		}
	}
	return nil
}

// addStore sets the store-direct throughput and the ratios it takes part in.
func (f *Figure) addStore(s *stress.Figure) {
	if s == nil || s.PerSecond <= 0 {
		return
	}
	f.Store = s.PerSecond
	f.HTTPStoreRatio = f.Ours / f.Store
	if f.Raw > 0 {
		f.StoreRatio = f.Store / f.Raw
	}
	if f.RawFull > 0 {
		f.StoreFullRatio = f.Store / f.RawFull
	}
}

// addMatrix records the pages of the three passes (matrixLoads) and three figures per scope:
// the p95 over every request of the scope read-only (beside the p95 of its raw statements),
// beside 100 writes a second and beside the unthrottled load, each against issue 27's target.
func (d *Dialect) addMatrix(readOnly, paced, loaded []Page) {
	d.Pages = besideLoads(readOnly, paced, loaded)
	var scopes []string
	ours, raw, pace, load := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	for _, p := range d.Pages {
		if _, ok := ours[p.Scope]; !ok {
			scopes = append(scopes, p.Scope)
		}
		ours[p.Scope] = append(ours[p.Scope], p.ours...)
		raw[p.Scope] = append(raw[p.Scope], p.raw...)
		pace[p.Scope] = append(pace[p.Scope], p.paced...)
		load[p.Scope] = append(load[p.Scope], p.load...)
	}
	for _, s := range scopes {
		f := Figure{Name: "inbox page p95, " + s + ", read-only", Unit: "ms", Ours: percentile(ours[s], 95), Raw: percentile(raw[s], 95),
			Target: "≤ 25 ms"}
		if f.Raw > 0 {
			f.Ratio = f.Ours / f.Raw
		}
		f.Met = met(f.Ours <= 25)
		d.add(f)
		if len(pace[s]) > 0 {
			p := percentile(pace[s], 95)
			d.add(Figure{Name: fmt.Sprintf("inbox page p95, %s, beside %d writes/s", s, pacedWrites), Unit: "ms", Ours: p, Target: "≤ 50 ms", Met: met(p <= 50)})
		}
		if len(load[s]) > 0 {
			d.add(Figure{Name: "inbox page p95, " + s + ", beside the unthrottled load", Unit: "ms", Ours: percentile(load[s], 95), Target: "-"})
		}
	}
}

// over counts the pages whose p95 of was is above limit ms.
func over(pages []Page, limit float64, of func(Page) float64) int {
	n := 0
	for _, p := range pages {
		if of(p) > limit {
			n++
		}
	}
	return n
}

// Markdown is the generated section of docs/benchmarks.md, markers included.
func (r Report) Markdown() string {
	var b strings.Builder
	m, s := r.Machine, r.Settings
	fmt.Fprintf(&b, "%s\n## `make bench`: the latest run (generated)\n\n", Begin)
	fmt.Fprintf(&b, "Written by `web stress bench` (`make bench`; this section is replaced on every run). Run on %s in %.0f s: "+
		"%d cores, %d MB memory, Linux %s (%s), %s, load average %s at the start. Settings: scale %s (%d open + %d terminal tasks seeded), "+
		"%d tasks per write mode, %d clients, %d timed requests per matrix page after an untimed one, deep pages %d rows down.\n\n",
		r.Date, r.Seconds, m.Cores, m.MemoryMB, m.Kernel, m.OS, m.GoVersion, m.LoadAverage, s.Scale, s.Open, s.Terminal, s.Tasks, s.Writers, s.Reps, s.DeepRows)
	for _, d := range r.Dialects {
		fmt.Fprintf(&b, "### %s\n\n", d.Dialect)
		fmt.Fprintf(&b, "| figure | ours | store | raw | raw (full shape) | ratio | store/raw | store/full | HTTP/store | HTTP/full | target | met |\n"+
			"|---|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, f := range d.Figures {
			value := func(x float64) string {
				if x > 0 {
					return number(x, f.Unit)
				}
				return "-"
			}
			met := "-"
			if f.Met != nil {
				met = map[bool]string{true: "met", false: "**missed**"}[*f.Met]
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f.Name, number(f.Ours, f.Unit), value(f.Store),
				value(f.Raw), value(f.RawFull), ratio(f.Ratio), ratio(f.StoreRatio), ratio(f.StoreFullRatio), ratio(f.HTTPStoreRatio),
				ratio(f.HTTPFullRatio), f.Target, met)
		}
		worst := slices.Clone(d.Pages)
		slowest := func(p Page) float64 { return max(p.P95, p.P95Paced, p.P95Loaded) }
		slices.SortStableFunc(worst, func(a, b Page) int { return cmp.Compare(slowest(b), slowest(a)) })
		fmt.Fprintf(&b, "\nThe write phase took %.0f s, seeding %.0f s, the three matrix passes %.0f s. Of %d matrix pages, %d are over 25 ms read-only, "+
			"%d over 50 ms beside %d writes/s and %d over 50 ms beside the unthrottled load. The %d slowest (server-side p95 over %d requests "+
			"read-only, beside the paced and beside the unthrottled mixed load; raw: the same statements through database/sql, read-only):\n\n",
			d.WriteSeconds, d.SeedSeconds, d.MatrixSeconds, len(d.Pages), over(d.Pages, 25, func(p Page) float64 { return p.P95 }),
			over(d.Pages, 50, func(p Page) float64 { return p.P95Paced }), pacedWrites, over(d.Pages, 50, func(p Page) float64 { return p.P95Loaded }),
			min(worstPages, len(worst)), s.Reps)
		fmt.Fprintf(&b, "| page | read-only p95 | beside %d writes/s | beside the unthrottled load | raw p95 | ratio |\n|---|---|---|---|---|---|\n", pacedWrites)
		for _, p := range worst[:min(worstPages, len(worst))] {
			fmt.Fprintf(&b, "| %s | %.2f ms | %s | %s | %.2f ms | %.2f× |\n", p.Page, p.P95, msOrDash(p.P95Paced), msOrDash(p.P95Loaded), p.RawP95, p.Ratio)
		}
		if len(d.Profile) > 0 {
			fmt.Fprintf(&b, "\nThe server's CPU profile during the %s mode, the write figure furthest below its target (%d s from the mode's start; `go tool pprof -top`, the first 25):\n\n```text\n%s\n```\n",
				d.ProfileMode, d.ProfileSeconds, strings.Join(d.Profile, "\n"))
		}
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "\n- %s", n)
		}
		if len(d.Notes) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(End + "\n")
	return b.String()
}

// msOrDash prints a p95, or a dash for a page a pass did not reach.
func msOrDash(x float64) string {
	if x <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f ms", x)
}

// ratio prints a ratio, or a dash where there is none.
func ratio(x float64) string {
	if x <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", x)
}

// number prints a figure with its unit.
func number(x float64, unit string) string {
	switch unit {
	case "/s":
		return fmt.Sprintf("%.0f/s", x)
	case "MB":
		return fmt.Sprintf("%.0f MB", x)
	default:
		return fmt.Sprintf("%.2f %s", x, unit)
	}
}

// WriteJSON writes the whole report as indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
