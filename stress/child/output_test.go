package child

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The child's output is cut into lines however it arrives: each reaches the file whole and the
// tap once; request lines stay out of the tail, a line past maxLine is cut there, and the
// tail keeps the last tailLines.
func TestOutputLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var tapped []string
	l := &outputLog{file: f, tap: func(line []byte) { tapped = append(tapped, string(line)) }}
	huge := strings.Repeat("x", maxLine+10)
	input := []string{
		`{"msg":"starting"}` + "\n" + `{"msg":"requ`,
		`est","request_id":"bench-1","duration_ms":1.5}` + "\n",
		"",
		"User Tasks is listening on http://127.0.0.1:1 (ü)\n",
		huge[:maxLine/2], huge[maxLine/2:] + "\n",
		huge + "\n",
		"no newline at the end",
	}
	for _, p := range input {
		if n, err := l.Write([]byte(p)); err != nil || n != len(p) {
			t.Fatalf("Write(%.40q) = %d, %v", p, n, err)
		}
	}
	if err := l.close(); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"msg":"starting"}`, `{"msg":"request","request_id":"bench-1","duration_ms":1.5}`,
		"User Tasks is listening on http://127.0.0.1:1 (ü)", huge[:maxLine], huge[:maxLine]}
	if len(tapped) != len(want) {
		t.Fatalf("tapped %d lines, want %d", len(tapped), len(want))
	}
	for i := range want {
		if tapped[i] != want[i] {
			t.Errorf("line %d: %.80q, want %.80q", i, tapped[i], want[i])
		}
	}
	if got, want := l.lastLines(), want[0]+"\n"+want[2]+"\n"+want[3]+"\n"+want[4]; got != want {
		t.Errorf("tail %.200q, want %.200q", got, want)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != strings.Join(input, "") {
		t.Errorf("the file holds %d bytes, want every byte written (%d): %v", len(b), len(strings.Join(input, "")), err)
	}

	for i := range tailLines + 5 {
		l.line([]byte(strconv.Itoa(i)))
	}
	if tail := strings.Split(l.lastLines(), "\n"); len(tail) != tailLines || tail[0] != "5" || tail[len(tail)-1] != strconv.Itoa(tailLines+4) {
		t.Errorf("tail of %d lines %q … %q, want the last %d", len(tail), tail[0], tail[len(tail)-1], tailLines)
	}
}
