package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The dev data folder holds the database, the key ring and the session secret: it is created
// for the owner only (0700) and the secrets 0600, under the usual umask 022.
func TestDevDataFolderIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	t.Cleanup(func() { syscall.Umask(old) })
	dir := filepath.Join(t.TempDir(), "data")
	if _, err := devKeys("sqlite:" + filepath.Join(dir, "usertasks.db")); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "encryption-keys"): 0o600} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(path), got, want)
		}
	}
}
