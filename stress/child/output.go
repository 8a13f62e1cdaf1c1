package child

import (
	"bytes"
	"os"
	"strings"
	"sync"
)

// outputLog splits the server's output into lines: each goes to the file and the tap, and
// the last ones that are not request lines are kept to explain a failure.
type outputLog struct {
	file *os.File
	tap  func(line []byte)

	mu      sync.Mutex
	partial []byte
	tail    []string
}

// requestLine marks the request log's lines, left out of the tail.
var requestLine = []byte(`"msg":"request"`)

func (l *outputLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		// A failed write to the file must not stop the server's output from being read.
		_, _ = l.file.Write(p)
	}
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if room := maxLine - len(l.partial); room > 0 {
				l.partial = append(l.partial, rest[:min(room, len(rest))]...)
			}
			break
		}
		line := rest[:i]
		if len(l.partial) > 0 {
			line = append(l.partial, line...)
			l.partial = l.partial[:0]
		}
		l.line(line[:min(len(line), maxLine)])
		rest = rest[i+1:]
	}
	return len(p), nil
}

func (l *outputLog) line(line []byte) {
	if l.tap != nil {
		l.tap(line)
	}
	if bytes.Contains(line, requestLine) {
		return
	}
	l.tail = append(l.tail, string(line))
	if len(l.tail) > tailLines {
		l.tail = l.tail[1:]
	}
}

func (l *outputLog) lastLines() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.tail, "\n")
}

func (l *outputLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	return err
}
