package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"usertasks/demo"
	"usertasks/docstore"
	"usertasks/migrations"
	"usertasks/repository"
	"usertasks/store"
	"usertasks/workflow"
)

// demoCommand runs `web demo reset`: the dev-mode demo data from scratch, on the embedded
// SQLite default (or whichever SQLite file USERTASKS_DATABASE_URL names).
func demoCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.Usage = commandUsage(fs, "web demo reset", `
Dev mode only (USERTASKS_DEV=true), SQLite only: deletes the database file (with its WAL and
shared-memory files), applies the migrations and seeds the demo again, as the first 'make run'
did: both demo tenants, their open tasks and their 30 days of history. The dev key ring and
session secret beside the file are kept; browsers are signed out (their sessions were in the
file). Stop the server first: the command refuses while something answers on the listen address.
Exit status: 0 done, 1 failed or a server is running, 2 bad invocation.`, toolEnvironment())
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 1 || fs.Arg(0) != "reset" {
		return fmt.Errorf("%w: demo takes one argument, reset", errUsage)
	}
	cfg, _, err := loadToolConfig(env, stderr)
	if err != nil {
		return err
	}
	if !cfg.Dev {
		return errors.New("demo reset runs in dev mode only (USERTASKS_DEV=true): it deletes the database")
	}
	target, err := repository.ParseURL(cfg.DatabaseURL)
	if err != nil || target.Dialect != migrations.SQLite {
		return errors.New("demo reset runs on a SQLite database only (the embedded default " + defaultDatabaseURL + ")")
	}
	if conn, err := net.DialTimeout("tcp", cfg.ListenAddr, 300*time.Millisecond); err == nil {
		conn.Close()
		return fmt.Errorf("a server answers on %s: stop it (make run) first, then reset", cfg.ListenAddr)
	}
	if err := cfg.requireKeys(); err != nil {
		return err
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(target.DSN + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove the database: %w", err)
		}
	}
	start := time.Now()
	st, err := openStore(ctx, cfg.DatabaseURL, storeUse{migrate: true, keys: cfg.Keys})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := seedDemo(ctx, cfg, st, workflow.NewProjector(st, workflow.NewResolver(demo.ResolverOptions()))); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "demo reset: %s seeded afresh in %s; start the server with 'make run'\n", target.DSN, time.Since(start).Round(time.Millisecond))
	return nil
}

// seedDemo seeds the demo into an empty database (dev mode): on SQL, its 30 days of history
// through a second handle on the same database whose clock the seed moves (demo.History), then
// the open tasks through the server's projector. A database that holds a demo task already is
// left as it is. The document store gets the open tasks only: the history's 800 or so
// transactions took minutes on the embedded FerretDB here, against a second on SQLite.
func seedDemo(ctx context.Context, cfg config, st store.Store, projector *workflow.Projector) error {
	if docstore.IsURL(cfg.DatabaseURL) {
		return demo.Seed(ctx, st, projector)
	}
	clock := &demo.Clock{}
	// The history is seeded once and a reset writes it again: SQLite need not wait for the disk
	// at each of its commits (synchronous=OFF on this handle only; other dialects ignore it).
	history, err := repository.Open(ctx, repository.Config{URL: cfg.DatabaseURL, Keys: cfg.Keys, Clock: clock.Now, Synchronous: "OFF"})
	if err != nil {
		return fmt.Errorf("demo history: %w", err)
	}
	defer history.Close()
	return demo.SeedWithHistory(ctx, st, projector, &demo.History{Store: history, Clock: clock})
}
