package main

import (
	"os"
	"path/filepath"
	"testing"

	"usertasks/stress/child"
)

// newTestChild is a child server for a test, by default this test binary acting as web
// (TestMain): its output goes to a file, by default in the test's directory
// (child.Options.LogPath), it is stopped when the test ends, and the last 8 KiB of its output
// are logged when the test failed.
func newTestChild(t *testing.T, o child.Options) *child.Server {
	t.Helper()
	if o.Bin == "" {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		o.Bin = self
	}
	if o.LogPath == "" {
		o.LogPath = filepath.Join(t.TempDir(), "serve.log")
	}
	s, err := child.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			if b, err := os.ReadFile(o.LogPath); err == nil {
				t.Logf("the server's output, last 8 KiB:\n%s", b[max(0, len(b)-8<<10):])
			}
		}
	})
	return s
}
