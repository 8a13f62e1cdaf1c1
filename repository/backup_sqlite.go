package repository

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"usertasks/migrations"
)

// BackupSQLite writes an online copy of the SQLite database at databaseURL to dest, safe while
// a server writes (VACUUM INTO reads one consistent WAL snapshot and never blocks the writer).
// The copy is written beside dest under a temporary name, checked (it opens, PRAGMA
// integrity_check says ok, its schema is this binary's), synced, and only then renamed to
// dest, so dest is either untouched or a complete, checked copy. It returns the copy's schema
// version. The caller decides whether dest may be replaced.
func BackupSQLite(ctx context.Context, databaseURL, dest string) (int64, error) {
	tmp, err := tempBeside(dest)
	if err != nil {
		return 0, err
	}
	defer removeSQLiteFiles(tmp) // a no-op once renamed
	// VACUUM INTO writes into an empty file; created here, the copy is the owner's only (0600)
	// rather than SQLite's 0644, and the rename keeps that mode.
	if err := privateFile(tmp); err != nil {
		return 0, err
	}
	if err := vacuumInto(ctx, databaseURL, tmp); err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	version, err := checkSQLiteCopy(ctx, tmp)
	if err != nil {
		return 0, fmt.Errorf("backup copy failed its check, %s untouched: %w", dest, err)
	}
	if err := syncFile(tmp); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return 0, err
	}
	_ = syncFile(filepath.Dir(dest)) // make the rename durable where the platform allows it
	return version, nil
}

// tempBeside names a file that does not exist yet in dest's folder (BackupSQLite creates it 0600).
func tempBeside(dest string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-"+hex.EncodeToString(b[:])), nil
}

// vacuumInto writes a transactionally consistent copy of the database at databaseURL to path.
func vacuumInto(ctx context.Context, databaseURL, path string) error {
	db, _, err := OpenSQL(databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, "VACUUM INTO ?", path)
	return err
}

// checkSQLiteCopy opens the copy, runs PRAGMA integrity_check and checks that its schema is
// at this binary's version, which it returns.
func checkSQLiteCopy(ctx context.Context, path string) (int64, error) {
	db, dialect, err := OpenSQL("sqlite:" + path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return 0, err
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return 0, err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(problems) > 0 {
		return 0, fmt.Errorf("integrity_check: %s", strings.Join(problems, "; "))
	}
	cur, latest, err := migrations.Check(ctx, dialect, db)
	if err != nil {
		return 0, fmt.Errorf("%w (copy at %d, binary at %d)", err, cur, latest)
	}
	return cur, nil
}

// syncFile flushes a file or folder to stable storage.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// removeSQLiteFiles removes a database file and its WAL and shared-memory files, if any.
func removeSQLiteFiles(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}
