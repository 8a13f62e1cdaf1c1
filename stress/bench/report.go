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
	MatrixSeconds  float64         `json:"matrixSeconds"`         // the inbox matrix under the mixed load
	ProfileMode    string          `json:"profileMode,omitempty"` // the write mode furthest below its target
	ProfileSeconds int             `json:"profileSeconds,omitempty"`
	Profile        []string        `json:"profileTop,omitempty"`
	Notes          []string        `json:"notes,omitempty"`
	Stress         []stress.Report `json:"stress"`
	StoreStress    []stress.Report `json:"storeStress"` // the write modes against the store in process
}

// Figure is one figure against its target: ours, the raw baseline, the ratio. A write
// figure also has the same mode against the store in process and the raw claim on the real
// schema, which split the gap into its layers: HTTP/store is what HTTP, JSON and auth cost,
// store/raw (full shape) what Go and GORM cost, raw (full shape)/raw what the schema's
// statements cost beside the narrow ones.
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
	Target         string  `json:"target"`
	Met            *bool   `json:"met"`
}

func met(ok bool) *bool { return &ok }

func (d *Dialect) add(f Figure) { d.Figures = append(d.Figures, f) }

// writeTargets are the stress figures with a target: the figure, its label, the ratio.
var writeTargets = []struct {
	mode, figure, label string
	min                 float64
}{
	{"burst", "projection with duplicates", "projection (create, duplicates included), over HTTP", 0.4},
	{"claim", "claim, contended", "claim, contended, over HTTP", 0.5},
	{"mixed", "through to Completed (tasks)", "complete through to Completed (claim, complete, dispatch, finalize)", 0.2},
	{"mixed", "claim + complete (each op)", "claim + complete, each op", 0},
}

// addWriteFigures takes the throughput figures with a target from the stress reports and
// returns the mode furthest below its target (ratio ÷ target lowest): its profile is reported.
func (d *Dialect) addWriteFigures() (worst string) {
	gap := 0.0
	for _, w := range writeTargets {
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
				}
				bf.addStore(stressFigure(d.StoreStress, w.mode, w.figure))
				if w.min > 0 {
					bf.Target = fmt.Sprintf("≥ %.1f× raw", w.min)
					bf.Met = met(f.ThroughputRatio >= w.min)
					if g := f.ThroughputRatio / w.min; worst == "" || g < gap {
						worst, gap = w.mode, g
					}
				}
				if f.Errors > 0 {
					d.Notes = append(d.Notes, fmt.Sprintf("%s: %d errors, the first: %s", w.label, f.Errors, f.FirstError))
				}
				d.add(bf)
			}
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

// addMatrix records the pages and a figure per scope: the p95 over every request of the scope
// beside the p95 of its raw statements.
func (d *Dialect) addMatrix(pages []Page) {
	d.Pages = pages
	var scopes []string
	ours, raw := map[string][]float64{}, map[string][]float64{}
	for _, p := range pages {
		if _, ok := ours[p.Scope]; !ok {
			scopes = append(scopes, p.Scope)
		}
		ours[p.Scope] = append(ours[p.Scope], p.ours...)
		raw[p.Scope] = append(raw[p.Scope], p.raw...)
	}
	for _, s := range scopes {
		f := Figure{Name: "inbox page p95, " + s, Unit: "ms", Ours: percentile(ours[s], 95), Raw: percentile(raw[s], 95),
			Target: "≤ 25 ms and ≤ 3× raw"}
		if f.Raw > 0 {
			f.Ratio = f.Ours / f.Raw
		}
		f.Met = met(f.Ours <= 25 && f.Ratio <= 3)
		d.add(f)
	}
}

// Markdown is the generated section of docs/benchmarks.md, markers included.
func (r Report) Markdown() string {
	var b strings.Builder
	m, s := r.Machine, r.Settings
	fmt.Fprintf(&b, "%s\n## `make bench`: the latest run (generated)\n\n", Begin)
	fmt.Fprintf(&b, "Written by `web stress bench` (`make bench`; this section is replaced on every run). Run on %s in %.0f s: "+
		"%d cores, %d MB memory, Linux %s (%s), %s, load average %s at the start. Settings: scale %s (%d open + %d terminal tasks seeded), "+
		"%d tasks per write mode, %d clients, %d requests per matrix page, deep pages %d rows down.\n\n",
		r.Date, r.Seconds, m.Cores, m.MemoryMB, m.Kernel, m.OS, m.GoVersion, m.LoadAverage, s.Scale, s.Open, s.Terminal, s.Tasks, s.Writers, s.Reps, s.DeepRows)
	for _, d := range r.Dialects {
		fmt.Fprintf(&b, "### %s\n\n", d.Dialect)
		fmt.Fprintf(&b, "| figure | ours | store | raw | raw (full shape) | ratio | store/raw | store/full | HTTP/store | target | met |\n"+
			"|---|---|---|---|---|---|---|---|---|---|---|\n")
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
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f.Name, number(f.Ours, f.Unit), value(f.Store),
				value(f.Raw), value(f.RawFull), ratio(f.Ratio), ratio(f.StoreRatio), ratio(f.StoreFullRatio), ratio(f.HTTPStoreRatio), f.Target, met)
		}
		worst := slices.Clone(d.Pages)
		slices.SortStableFunc(worst, func(a, b Page) int { return cmp.Compare(b.P95, a.P95) })
		fmt.Fprintf(&b, "\nThe write phase took %.0f s, seeding %.0f s, the matrix %.0f s. The %d slowest of %d matrix pages (server-side p95 over %d requests; raw: the same statements through database/sql):\n\n",
			d.WriteSeconds, d.SeedSeconds, d.MatrixSeconds, min(worstPages, len(worst)), len(d.Pages), s.Reps)
		fmt.Fprintf(&b, "| page | ours p95 | raw p95 | ratio |\n|---|---|---|---|\n")
		for _, p := range worst[:min(worstPages, len(worst))] {
			fmt.Fprintf(&b, "| %s | %.2f ms | %.2f ms | %.2f× |\n", p.Page, p.P95, p.RawP95, p.Ratio)
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
