package bench

import (
	"errors"
	"os"
	"strings"
)

// The markers around the generated section of docs/benchmarks.md.
const (
	Begin = "<!-- bench:begin -->"
	End   = "<!-- bench:end -->"
)

// ErrSplice refuses a file with one marker only, or the end marker before the begin marker.
var ErrSplice = errors.New("bench: the report's markers are out of order")

// Splice replaces the text between the markers of path, each on a line of its own,
// with section (markers included in section), or appends section when the file has none. A
// marker quoted inside a line (prose about it) is not one.
func Splice(path, section string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(b)
	lines := strings.SplitAfter(doc, "\n")
	begin, end, at := -1, -1, 0
	for _, l := range lines {
		switch strings.TrimRight(l, "\r\n") {
		case Begin:
			if begin < 0 {
				begin = at
			}
		case End:
			if end < 0 {
				end = at + len(l)
			}
		}
		at += len(l)
	}
	switch {
	case begin < 0 && end < 0:
		doc = strings.TrimRight(doc, "\n") + "\n\n" + section
	case begin < 0 || end < begin:
		return ErrSplice
	default:
		doc = doc[:begin] + section + doc[end:]
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}
