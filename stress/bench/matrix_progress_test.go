package bench

import (
	"strings"
	"testing"
)

// The matrix reports every matrixEvery pages and after the last, skipped deep pages
// counted, with the slowest measured page so far.
func TestMatrixProgress(t *testing.T) {
	var out strings.Builder
	m := &matrixProgress{w: &out, dialect: "postgres"}
	total := 2*matrixEvery + 5
	m.begin(total)
	for i := range total {
		switch {
		case i%2 == 1:
			m.step(nil)
		case i == 10:
			m.step(&Page{Page: "all due desc search ü (first)", P95: 812.34})
		default:
			m.step(&Page{Page: "assigned created asc (first)", P95: float64(i)})
		}
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out.String())
	}
	for i, want := range []string{"inbox matrix 30/65 pages, ", "inbox matrix 60/65 pages, ", "inbox matrix 65/65 pages, "} {
		if !strings.HasPrefix(lines[i], "bench: postgres: "+want) ||
			!strings.HasSuffix(lines[i], "; slowest so far all due desc search ü (first), server p95 812.3 ms") {
			t.Errorf("line %d: %q, want %q… and the slowest page", i+1, lines[i], want)
		}
	}

	out.Reset()
	m.begin(2)
	m.step(nil)
	m.step(nil)
	if got := out.String(); !strings.HasPrefix(got, "bench: postgres: inbox matrix 2/2 pages, ") || strings.Contains(got, "slowest") {
		t.Errorf("nothing measured: %q, want the count without a slowest page", got)
	}
}
