package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestReporter(t *testing.T) {
	t.Run("PlainLinesThrottled", func(t *testing.T) {
		var b bytes.Buffer
		now := time.Unix(0, 0)
		p := New(&b, "purge")
		p.now = func() time.Time { return now }
		p.last = now
		p.Step(1, 10, "tenant a") // within the interval: nothing
		now = now.Add(plainEvery)
		p.Step(2, 10, "tenant b")
		p.Step(3, 10, "tenant c") // again within the interval
		p.Done("purged 10")
		if got, want := b.String(), "purge: 2/10 (20%) tenant b\npurged 10\n"; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
	t.Run("LiveLineOnATerminal", func(t *testing.T) {
		var b bytes.Buffer
		p := New(&b, "audit")
		p.live = true
		p.Step(1, 0, "")
		p.Step(2, 0, "")
		p.Line("found %d problems", 0)
		if got, want := b.String(), "\r\x1b[Kaudit: 1\r\x1b[Kaudit: 2\r\x1b[Kfound 0 problems\n"; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
	t.Run("BufferIsNotATerminal", func(t *testing.T) {
		if isTerminal(&bytes.Buffer{}) {
			t.Fatal("a buffer is a terminal")
		}
		f, err := os.Create(filepath.Join(t.TempDir(), "log"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if isTerminal(f) {
			t.Fatal("a file is a terminal")
		}
	})
}
