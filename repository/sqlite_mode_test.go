package repository_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"usertasks/repository"
	"usertasks/testfactory"
)

// TestSQLiteFilesArePrivate: the database, its -wal and -shm, the folder the store creates for
// them and every backup hold a tenant's data, so they are created for the owner only (0600,
// folder 0700) under the usual umask 022, whichever opens the file first: the server's store or
// a tool (`web migrate up`).
func TestSQLiteFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	t.Cleanup(func() { syscall.Umask(old) })
	ctx := context.Background()
	wantMode := func(t *testing.T, path string, want fs.FileMode) {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(path), got, want)
		}
	}
	live := func(t *testing.T, path string) {
		t.Helper()
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			wantMode(t, p, 0o600)
		}
		wantMode(t, filepath.Dir(path), 0o700)
	}
	open := func(t *testing.T, url string) *repository.Store {
		t.Helper()
		s, err := repository.Open(ctx, repository.Config{URL: url, Keys: testfactory.Keys()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}

	t.Run("CreatedByTheStore", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "data", "usertasks.db")
		s := open(t, "sqlite:"+path)
		if err := s.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		live(t, path)
	})
	t.Run("CreatedByMigrate", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "data", "nested", "usertasks.db")
		if err := repository.Migrate(ctx, "sqlite:"+path); err != nil {
			t.Fatal(err)
		}
		s := open(t, "sqlite:"+path)
		testfactory.Task(ctx, t, s, nil)
		live(t, path)
	})
	t.Run("Backup", func(t *testing.T) {
		url := testfactory.Database(t, testfactory.SQLite)
		s := open(t, url)
		testfactory.Task(ctx, t, s, nil)
		dest := filepath.Join(t.TempDir(), "backup.db")
		if _, err := repository.BackupSQLite(ctx, url, dest); err != nil {
			t.Fatal(err)
		}
		wantMode(t, dest, 0o600)
		// --force replaces an existing, readable file with a private one.
		if err := os.WriteFile(dest, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dest, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := repository.BackupSQLite(ctx, url, dest); err != nil {
			t.Fatal(err)
		}
		wantMode(t, dest, 0o600)
	})
}
