package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/pressly/goose/v3"

	"usertasks/docstore"
	"usertasks/migrations"
	"usertasks/progress"
	"usertasks/repository"
)

// migrateCommand runs `web migrate up|down|status`.
func migrateCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.Usage = commandUsage(fs, "web migrate up|down|status",
		"Manage the database schema:\n  up      apply every pending migration, one at a time, reporting progress\n  down    roll back the newest migration\n  status  list migrations and whether they are applied",
		toolEnvironment())
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: migrate takes one of up, down, status", errUsage)
	}
	cfg, _, err := loadToolConfig(env, stderr)
	if err != nil {
		return err
	}
	if docstore.IsURL(cfg.DatabaseURL) {
		return migrateDocuments(ctx, fs.Arg(0), cfg.DatabaseURL, stdout)
	}
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
		return migrateUp(ctx, p, stdout)
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

// migrateUp applies the pending migrations one at a time, with progress: a live line on a
// terminal, and one permanent line per applied migration.
func migrateUp(ctx context.Context, p *goose.Provider, stdout io.Writer) error {
	statuses, err := p.Status(ctx)
	if err != nil {
		return err
	}
	var pending []string
	for _, s := range statuses {
		if s.State != goose.StatePending {
			continue
		}
		pending = append(pending, s.Source.Path)
	}
	if len(pending) == 0 {
		fmt.Fprintln(stdout, "schema is up to date")
		return nil
	}
	prog := progress.New(stdout, "migrate")
	for i, path := range pending {
		prog.Step(i, len(pending), "applying "+path)
		r, err := p.UpByOne(ctx)
		if errors.Is(err, goose.ErrNoNextVersion) {
			break // another node applied the rest meanwhile
		}
		if err != nil {
			return migrations.UpError(err)
		}
		prog.Line("applied %s (%s)", r.Source.Path, r.Duration.Round(time.Millisecond))
	}
	return nil
}
