package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes of every command (docs/operations.md).
const (
	exitOK       = 0 // done
	exitFailure  = 1 // the command ran and failed (database, configuration, I/O)
	exitUsage    = 2 // bad invocation: unknown command or flag, wrong arguments
	exitFindings = 3 // a check ran to the end and found problems (errFindings)
)

// errUsage marks a bad invocation: exit status 2 with a one-line reason and the usage.
var errUsage = errors.New("usage")

// errFindings marks a check that completed and found problems (exit status 3); wrap it with
// the count, e.g. fmt.Errorf("%w: 4 tasks", errFindings).
var errFindings = errors.New("problems found")

// command is one subcommand: its name, its one-line summary for `web help`, and its body.
// A body prints its own usage on --help (parseFlags) and returns errUsage for a bad invocation.
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error
}

// commands is the dispatch table, one line per subcommand, in the order `web help` lists them.
func commands() []command {
	return []command{
		{"serve", "run the HTTP server and its background workers (--migrate applies pending migrations first)", serveCommand},
		{"migrate", "up | down | status: manage the database schema", migrateCommand},
		{"rekey", "reseal protected values under the newest encryption key", rekeyCommand},
		{"purge", "delete what the retention policy no longer keeps (--dry-run prints it)", purgeCommand},
		{"backup", "copy a live SQLite database into a file (PostgreSQL/MariaDB: their dump tools)", backupCommand},
		{"audit", "check the store's invariants and report (exit 3 on findings); never repairs", auditCommand},
		{"demo", "reset: delete the dev SQLite database and seed the demo afresh (dev mode only)", demoCommand},
		{"stress", "cas | claim | mixed | burst | all: load the store or a server, check invariants, compare with raw SQL", stressCommand},
		{"version", "print the version, commit and Go version", versionCommand},
	}
}

// lookup finds a subcommand by name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usage is `web help`: the commands and where the configuration comes from.
func usage(w io.Writer) {
	fmt.Fprint(w, "usage: web <command> [flags]\n\ncommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `  help      help <command>: the usage, flags and environment of a command

Configuration comes from USERTASKS_* environment variables (see docs/configuration.md).
Run 'web <command> --help' for the flags of a command.
Exit status: 0 ok, 1 failure, 2 bad invocation, 3 a check found problems.
`)
}

// run is main without the process: tests call it directly. env is the whole environment,
// not a getenv, so that variables nobody reads can be told apart and warned about.
func run(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "--help":
		if len(rest) == 0 {
			usage(stdout)
			return exitOK
		}
		if cmd, ok := lookup(rest[0]); ok {
			cmd.run(ctx, []string{"--help"}, env, stdout, stdout) // asked for: help goes to stdout
			return exitOK
		}
		name = rest[0]
	}
	cmd, ok := lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "web: unknown command %q\n", name)
		usage(stderr)
		return exitUsage
	}
	err := cmd.run(ctx, rest, env, stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "web: %s\n", strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
		cmd.run(ctx, []string{"--help"}, env, io.Discard, stderr) // prints the command's usage
		return exitUsage
	case errors.Is(err, errFindings):
		fmt.Fprintf(stderr, "web: %v\n", err)
		return exitFindings
	default:
		fmt.Fprintf(stderr, "web: %v\n", err)
		return exitFailure
	}
}

// parseFlags parses a command's flags; a bad flag is a usage error with a one-line reason.
// --help prints the command's usage (fs.Usage, see commandUsage) and returns flag.ErrHelp.
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

// parseFlagsOnly is parseFlags for a command that takes flags and no arguments.
func parseFlagsOnly(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: %s takes no arguments, got %q", errUsage, fs.Name(), fs.Arg(0))
	}
	return nil
}

// commandUsage is a command's --help: its synopsis and description, its flags, and the
// environment it reads.
func commandUsage(fs *flag.FlagSet, synopsis, description, environment string) func() {
	return func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis, strings.TrimSpace(description))
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(w, "\nflags:\n")
			fs.PrintDefaults()
		}
		if environment != "" {
			fmt.Fprintf(w, "\nenvironment:\n%s\n", strings.TrimRight(environment, "\n"))
		}
	}
}

// toolEnvironment describes the variables every command reads (the table's tools rows).
func toolEnvironment() string {
	var b strings.Builder
	for _, s := range (&config{}).settings() {
		if s.tools {
			fmt.Fprintf(&b, "  %s\n", s.name)
		}
	}
	b.WriteString("  (see docs/configuration.md)")
	return b.String()
}
