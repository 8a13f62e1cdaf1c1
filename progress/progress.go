// Package progress reports how far a long command has got (web migrate up, web stress seed):
// one live line on a terminal, throttled plain lines elsewhere.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Reporter reports how far a long command has got. On a terminal it keeps one live line,
// rewritten in place; elsewhere (a log, a pipe, CI) it writes plain lines, a step at most every
// plainEvery so a large run does not flood the log. Lines written with Line are permanent in
// both cases. Safe for concurrent use.
//
//	p := progress.New(stdout, "seed")
//	for … { p.Step(done, total, "tenant acme") }
//	p.Done("seeded 1200 tasks in 3.2s")
type Reporter struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	live  bool // w is a terminal: rewrite one line
	shown bool // a live line is on screen
	every time.Duration
	last  time.Time
	now   func() time.Time
}

// plainEvery is the shortest interval between two plain progress lines.
const plainEvery = 5 * time.Second

// New reports on w under label; w is treated as a terminal when it is a character device (not
// a file or pipe) and TERM is not "dumb".
func New(w io.Writer, label string) *Reporter {
	p := &Reporter{w: w, label: label, live: isTerminal(w), every: plainEvery, now: time.Now}
	p.last = p.now()
	return p
}

// isTerminal tells whether w is an interactive terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Step reports done of total (total 0: unknown) with a short detail.
func (p *Reporter) Step(done, total int, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	text := fmt.Sprintf("%s: %d", p.label, done)
	if total > 0 {
		text = fmt.Sprintf("%s: %d/%d (%d%%)", p.label, done, total, done*100/total)
	}
	if detail != "" {
		text += " " + detail
	}
	if p.live {
		fmt.Fprintf(p.w, "\r\x1b[K%s", text)
		p.shown = true
		return
	}
	if now := p.now(); now.Sub(p.last) >= p.every {
		fmt.Fprintln(p.w, text)
		p.last = now
	}
}

// Line writes a permanent line (clearing the live line first).
func (p *Reporter) Line(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, format+"\n", args...)
	p.last = p.now()
}

// Done ends the report with a summary line.
func (p *Reporter) Done(summary string) { p.Line("%s", summary) }

func (p *Reporter) clear() {
	if p.live && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
