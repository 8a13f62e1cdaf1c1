package main

import (
	"context"
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

// backupCommand runs `web backup --to FILE [--force]`: an online, checked copy of the SQLite
// database (repository.BackupSQLite), so FILE is either absent, the old file (--force), or a
// complete, checked copy. PostgreSQL and MariaDB have their own dump tools; for them the
// command exits 2 and says so.
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
	version, err := repository.BackupSQLite(ctx, cfg.DatabaseURL, dest)
	if err != nil {
		return err
	}
	info, err := os.Stat(dest)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up to %s: %d bytes, schema version %d, integrity ok, in %s\n",
		dest, info.Size(), version, time.Since(start).Round(time.Millisecond))
	return nil
}
