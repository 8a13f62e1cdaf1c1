package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

const usage = `usage: web <command> [flags]

commands:
  serve     run the HTTP server (--migrate applies pending migrations first)
  migrate   up | down | status: manage the database schema
  rekey     reseal protected values under the newest encryption key
  audit     check the store's invariants and report (exit 3 on findings); never repairs

Configuration comes from USERTASKS_* environment variables (see docs/configuration.md).
Run 'web <command> --help' for the flags of a command.
`

// errUsage marks a bad invocation: exit status 2 with a one-line reason.
var errUsage = errors.New("usage")

// run is main without the process: tests call it directly. env is the whole environment,
// not a getenv, so that variables nobody reads can be told apart and warned about.
func run(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serveCommand(ctx, args[1:], env, stdout, stderr)
	case "migrate":
		err = migrateCommand(ctx, args[1:], env, stdout, stderr)
	case "rekey":
		err = rekeyCommand(ctx, args[1:], env, stdout, stderr)
	case "audit":
		err = auditCommand(ctx, args[1:], env, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = fmt.Errorf("%w: unknown command %q (want serve, migrate or rekey)", errUsage, args[0])
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errFindings):
		return exitFindings
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "web: %s\n", strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
		return 2
	default:
		fmt.Fprintf(stderr, "web: %v\n", err)
		return 1
	}
}

// parseFlags parses a command's flags; a bad flag is a usage error with a one-line reason.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(io.Discard) // the one-line reason below replaces flag's own report
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stderr)
		fs.Usage()
		return err
	}
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}
