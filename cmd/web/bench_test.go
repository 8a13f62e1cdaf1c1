package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"usertasks/stress/bench"
)

// TestStressBenchEndToEnd runs `web stress bench` in a toy configuration on SQLite: two child
// servers (this test binary acting as web), the write modes with their baseline and profiles,
// a tiny seed and the whole inbox matrix under load. It checks that the report is complete and
// well formed, in the Markdown file and as JSON; no figure's value is judged.
func TestStressBenchEndToEnd(t *testing.T) {
	t.Setenv(asWebEnv, "1") // the child servers are this binary; TestMain makes it act as web
	dir := t.TempDir()
	doc := filepath.Join(dir, "benchmarks.md")
	before, after := "# Benchmarks\n\nhand-written text about `"+bench.Begin+"`\n\n", "\n## Later, hand-written\n\nkept\n"
	if err := os.WriteFile(doc, []byte(before+bench.Begin+"\nan old run\n"+bench.End+"\n"+after), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, map[string]string{}, "stress", "bench", "--scale", "tiny", "--dialects", "sqlite",
		"--tasks", "12", "--writers", "2", "--reps", "1", "--dir", filepath.Join(dir, "scratch"), "--write", doc, "--json")
	if code != exitOK {
		t.Fatalf("bench exited %d:\n%s\n%s", code, out, errOut)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("decode the JSON report: %v\n%s", err, out)
	}
	if rep.Machine.Cores < 1 || rep.Machine.GoVersion == "" || rep.Date == "" || rep.Settings.Scale != "tiny" || rep.Settings.Tasks != 12 {
		t.Errorf("machine or settings missing: %+v %+v", rep.Machine, rep.Settings)
	}
	if len(rep.Dialects) != 1 || rep.Dialects[0].Dialect != "sqlite" {
		t.Fatalf("dialects: %+v", rep.Dialects)
	}
	d := rep.Dialects[0]
	want := []string{"projection (create, duplicates included), over HTTP", "claim, contended, over HTTP",
		"complete through to Completed (claim, complete, dispatch, finalize)", "claim + complete, each op", "peak RSS, write phase",
		"startup to ready (/readyz 200), loaded database"}
	for _, scope := range []string{"assigned", "available", "history", "all", "needs-attention"} {
		// Read-only, beside the paced load and beside the unthrottled one (issue 27).
		want = append(want, "inbox page p95, "+scope+", read-only", "inbox page p95, "+scope+", beside 100 writes/s",
			"inbox page p95, "+scope+", beside the unthrottled load")
	}
	want = append(want, "peak RSS, loaded database, matrix + mixed load")
	if len(d.Figures) != len(want) {
		t.Fatalf("%d figures, want %d: %+v", len(d.Figures), len(want), d.Figures)
	}
	for i, f := range d.Figures {
		if f.Name != want[i] || f.Ours <= 0 || f.Target == "" {
			t.Errorf("figure %d: %+v, want %q with a value and a target", i, f, want[i])
		}
		if f.Target != "-" && f.Met == nil {
			t.Errorf("%s: a target but no verdict", f.Name)
		}
		if (strings.Contains(f.Name, "HTTP") || strings.HasSuffix(f.Name, "read-only")) && (f.Raw <= 0 || f.Ratio <= 0) {
			t.Errorf("%s: no raw figure or ratio: %+v", f.Name, f)
		}
		if i < 4 && (f.Store <= 0 || f.StoreRatio <= 0 || f.HTTPStoreRatio <= 0) {
			t.Errorf("%s: no store-direct figure or its ratios: %+v", f.Name, f)
		}
		if (strings.HasPrefix(f.Name, "claim") || strings.HasPrefix(f.Name, "projection")) && (f.RawFull <= 0 || f.StoreFullRatio <= 0 || f.HTTPFullRatio <= 0) {
			t.Errorf("%s: no raw full-shape figure or its ratios: %+v", f.Name, f)
		}
	}
	if n := 2 * bench.MatrixSize(); strings.Count(errOut, fmt.Sprintf("inbox matrix %d/%d pages", n, n)) != 3 {
		t.Errorf("no progress line after the last page of each of the matrix's three passes in the output:\n%s", errOut)
	}
	if n := bench.MatrixSize(); len(d.Pages) < n || len(d.Pages) > 2*n {
		t.Errorf("%d matrix pages, want every first page (%d) and the deep ones that exist", len(d.Pages), n)
	}
	// The read-only pass waits for the server's start-up work (its first reconciliation).
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "the server settled for") }) {
		t.Errorf("no note that the server settled before the read-only pass: %q", d.Notes)
	}
	deep := 0
	for _, p := range d.Pages {
		if p.Status != 200 || p.P95 <= 0 || p.RawP95 <= 0 || p.Ratio <= 0 || p.P95Paced <= 0 || p.P95Loaded <= 0 {
			t.Errorf("page %+v: missing a figure", p)
		}
		if strings.HasSuffix(p.Page, "(deep)") {
			deep++
		}
	}
	if deep == 0 {
		t.Error("no deep page measured")
	}
	if len(d.Stress) != 3 {
		t.Errorf("%d stress reports, want burst, claim and mixed", len(d.Stress))
	}
	for _, r := range d.Stress {
		if !r.OK || r.Target != "http" {
			t.Errorf("stress %s: ok %v on %s", r.Mode, r.OK, r.Target)
		}
	}
	if len(d.StoreStress) != 3 {
		t.Errorf("%d store-direct reports, want burst, claim and mixed", len(d.StoreStress))
	}
	for _, r := range d.StoreStress {
		if !r.OK || r.Target != "store" {
			t.Errorf("store-direct %s: ok %v on %s", r.Mode, r.OK, r.Target)
		}
	}
	if d.ProfileMode == "" || len(d.Profile) < 3 {
		t.Errorf("no profile top: mode %q, %d lines; notes %v", d.ProfileMode, len(d.Profile), d.Notes)
	}

	md, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	if !strings.HasPrefix(s, before+bench.Begin) || !strings.HasSuffix(s, bench.End+"\n"+after) || strings.Contains(s, "an old run") ||
		strings.Count(s, bench.Begin) != 2 || strings.Count(s, bench.End) != 1 {
		t.Fatalf("the section was not spliced in place of the old one:\n%s", s)
	}
	for _, f := range want {
		if !strings.Contains(s, "| "+f+" |") {
			t.Errorf("the Markdown misses the figure %q", f)
		}
	}
	for _, part := range []string{"### sqlite", "| page | read-only p95 | beside 100 writes/s | beside the unthrottled load | raw p95 | ratio |", "| figure | ours | store | raw | raw (full shape) | ratio | store/raw | store/full | HTTP/store | HTTP/full |", "```text\n", "go1."} {
		if !strings.Contains(s, part) {
			t.Errorf("the Markdown misses %q", part)
		}
	}
}

// TestStressBenchRefusals: bad flags are usage errors before anything runs.
func TestStressBenchRefusals(t *testing.T) {
	for _, args := range [][]string{
		{"--scale", "huge"}, {"--scale", "full\x00"}, {"--dialects", "oracle"}, {"--dialects", "postgres"},
		{"--dialects", "sqlite,mariadb"}, {"--tasks", "-1"}, {"--writers", "100000"}, {"--reps", "1000"},
		{"--open", "0", "--terminal", "0"}, {"extra"},
	} {
		code, _, errOut := runCLI(t, map[string]string{}, append([]string{"stress", "bench"}, args...)...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d: %s", args, code, exitUsage, errOut)
		}
	}
}
