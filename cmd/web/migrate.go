package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"usertasks/migrations"
	"usertasks/repository"
)

// migrateCommand runs `web migrate up|down|status`.
func migrateCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: web migrate up|down|status\n  up      apply every pending migration\n  down    roll back the newest migration\n  status  list migrations and whether they are applied")
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: migrate takes one of up, down, status", errUsage)
	}
	cfg, err := loadConfig(env, false)
	if err != nil {
		return err
	}
	warnUnknown(env, newLogger(cfg, stderr))
	db, dialect, err := repository.OpenSQL(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	p, err := migrations.NewProvider(dialect, db)
	if err != nil {
		return err
	}
	switch fs.Arg(0) {
	case "up":
		results, err := p.Up(ctx)
		for _, r := range results {
			fmt.Fprintf(stdout, "applied %s (%s)\n", r.Source.Path, r.Duration.Round(1e6))
		}
		if err != nil {
			return err
		}
		if len(results) == 0 {
			fmt.Fprintln(stdout, "schema is up to date")
		}
	case "down":
		r, err := p.Down(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "rolled back %s\n", r.Source.Path)
	case "status":
		statuses, err := p.Status(ctx)
		if err != nil {
			return err
		}
		for _, s := range statuses {
			state := "pending"
			if s.State == "applied" {
				state = "applied " + s.AppliedAt.UTC().Format("2006-01-02 15:04:05Z")
			}
			fmt.Fprintf(stdout, "%-8d %-32s %s\n", s.Source.Version, s.Source.Path, state)
		}
	default:
		return fmt.Errorf("%w: unknown migrate action %q (want up, down or status)", errUsage, fs.Arg(0))
	}
	return nil
}
