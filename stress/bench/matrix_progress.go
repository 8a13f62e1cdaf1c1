package bench

import (
	"fmt"
	"io"
	"time"
)

// matrixEvery is how many pages of the inbox matrix pass between two progress lines: at
// full scale on PostgreSQL the matrix runs for half an hour, and an operator should see it move.
const matrixEvery = 30

// matrixProgress writes a line to w every matrixEvery pages of the matrix (and after
// the last): the pages done of the total, the time so far, and the slowest page so far with the
// server's p95.
type matrixProgress struct {
	w       io.Writer
	dialect string

	total   int
	done    int
	start   time.Time
	slowest *Page
}

// begin starts the count at 0 of total pages.
func (m *matrixProgress) begin(total int) {
	m.total, m.done, m.start, m.slowest = total, 0, time.Now(), nil
}

// step counts one page: p is the measured page, or nil for one that was skipped (a deep page
// of a list too short to have one).
func (m *matrixProgress) step(p *Page) {
	m.done++
	if p != nil && (m.slowest == nil || p.P95 > m.slowest.P95) {
		slowest := *p
		m.slowest = &slowest
	}
	if m.done%matrixEvery != 0 && m.done != m.total {
		return
	}
	line := fmt.Sprintf("bench: %s: inbox matrix %d/%d pages, %s", m.dialect, m.done, m.total, time.Since(m.start).Round(time.Second))
	if m.slowest != nil {
		line += fmt.Sprintf("; slowest so far %s, server p95 %.1f ms", m.slowest.Page, m.slowest.P95)
	}
	fmt.Fprintln(m.w, line)
}
