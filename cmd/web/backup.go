package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"usertasks/migrations"
	"usertasks/repository"
)

// backupCommand runs `web backup --to FILE [--force]`: an online copy of the SQLite database,
// safe while the server writes (VACUUM INTO reads one consistent WAL snapshot and never blocks
// the writer). The copy is written beside FILE under a temporary name, checked (it opens,
// PRAGMA integrity_check says ok, its schema is this binary's), synced, and only then renamed
// to FILE, so FILE is either absent, the old file (--force), or a complete, checked copy.
// PostgreSQL and MariaDB have their own dump tools; for them the command exits 2 and says so.
func backupCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	to := fs.String("to", "", "the backup file to write (required)")
	force := fs.Bool("force", false, "replace FILE if it exists")
	fs.Usage = commandUsage(fs, "web backup --to FILE [--force]", `
Copies the live SQLite database of USERTASKS_DATABASE_URL into FILE, checks the copy and
renames it into place. PostgreSQL: use pg_dump; MariaDB: use mariadb-dump (docs/operations.md).
Exit status: 0 done, 1 failed (FILE untouched), 2 bad invocation or not SQLite.`, toolEnvironment())
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	if *to == "" {
		return fmt.Errorf("%w: backup needs --to FILE", errUsage)
	}
	if strings.ContainsAny(*to, "?#") || strings.IndexFunc(*to, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return fmt.Errorf("%w: --to must not contain '?', '#' or control characters", errUsage)
	}
	cfg, _, err := loadToolConfig(env, stderr)
	if err != nil {
		return err
	}
	target, err := repository.ParseURL(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	switch target.Dialect {
	case migrations.SQLite:
	case migrations.Postgres:
		return fmt.Errorf("%w: web backup copies SQLite only; back PostgreSQL up with pg_dump --format=custom (see docs/operations.md)", errUsage)
	case migrations.MySQL:
		return fmt.Errorf("%w: web backup copies SQLite only; back MariaDB/MySQL up with mariadb-dump --single-transaction (see docs/operations.md)", errUsage)
	default:
		return fmt.Errorf("%w: web backup copies SQLite only; use the %s server's own backup tools", errUsage, target.Dialect)
	}
	dest, err := filepath.Abs(*to)
	if err != nil {
		return err
	}
	if src, err := filepath.Abs(target.DSN); err == nil && src == dest {
		return fmt.Errorf("%w: --to names the live database itself", errUsage)
	}
	if _, err := os.Lstat(dest); err == nil && !*force {
		return fmt.Errorf("%s exists; pass --force to replace it", dest)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}

	start := time.Now()
	tmp, err := tempBeside(dest)
	if err != nil {
		return err
	}
	defer removeSQLiteFiles(tmp) // a no-op once renamed
	if err := vacuumInto(ctx, cfg.DatabaseURL, tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	version, err := checkSQLiteCopy(ctx, tmp)
	if err != nil {
		return fmt.Errorf("backup copy failed its check, %s untouched: %w", dest, err)
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return err
	}
	_ = syncFile(filepath.Dir(dest)) // make the rename durable where the platform allows it
	info, err := os.Stat(dest)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up to %s: %d bytes, schema version %d, integrity ok, in %s\n",
		dest, info.Size(), version, time.Since(start).Round(time.Millisecond))
	return nil
}

// tempBeside names a file that does not exist yet in dest's folder (VACUUM INTO creates it).
func tempBeside(dest string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-"+hex.EncodeToString(b[:])), nil
}

// vacuumInto writes a transactionally consistent copy of the database at databaseURL to path.
func vacuumInto(ctx context.Context, databaseURL, path string) error {
	db, _, err := repository.OpenSQL(databaseURL)
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
	db, dialect, err := repository.OpenSQL("sqlite:" + path)
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
