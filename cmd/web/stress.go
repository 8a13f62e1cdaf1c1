package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"usertasks/stress"
)

// Bounds of the stress flags: enough for the scale runs, small enough that a typo does not
// load a production database with millions of tasks.
const (
	maxStressTasks   = 100_000
	maxStressWriters = 256
	maxStressRounds  = 100
	maxStressPace    = 100_000 // writes per second
	maxStressMembers = 1_000   // the notify mode's group
)

// stressCommands is the `web stress` table, one line per subcommand, like commands().
func stressCommands() []command {
	return []command{
		{"cas", "W writers each try the same revision-checked completion of every task: one applies", stressMode("cas")},
		{"claim", "W people race to claim every available task: one wins", stressMode("claim")},
		{"mixed", "readers page the inbox while workers claim and complete and the loopback finalizes", stressMode("mixed")},
		{"burst", "every bookmark is projected W times at once: one task each", stressMode("burst")},
		{"all", "cas, claim, mixed and burst in turn", stressMode("all")},
		{"notify", "T tasks for a group of G with the notification worker running: exact rows, mails, digests (scratch database)", stressMode("notify")},
		{"bench", "the benchmark set (make bench): writes, startup, the inbox matrix at scale, RSS, a profile", stressBenchCommand},
		{"seed", "load generated tenants at the scale target (--open, --terminal) for benchmarks", stressSeedCommand},
	}
}

// stressCommand runs `web stress <mode> [flags]`: a load run against the store or a server
// (docs/operations.md, "Stress runs").
func stressCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: stress needs a mode", errUsage)
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		stressUsage(stderr)
		return flag.ErrHelp
	}
	for _, c := range stressCommands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], env, stdout, stderr)
		}
	}
	return fmt.Errorf("%w: stress has no mode %q", errUsage, args[0])
}

func stressUsage(w io.Writer) {
	fmt.Fprint(w, "usage: web stress <mode> [--tasks N] [--writers W] [--rounds R] [--json] [--url URL]\n\nmodes:\n")
	for _, c := range stressCommands() {
		fmt.Fprintf(w, "  %-6s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'web stress <mode> --help' for the flags and the environment.\n")
}

// stressMode is the body of one mode's subcommand.
func stressMode(mode string) func(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	return func(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
		fs := flag.NewFlagSet("stress "+mode, flag.ContinueOnError)
		tasks := fs.Int("tasks", 200, "tasks per round (T)")
		writers := fs.Int("writers", 8, "concurrent writers (W); the mixed mode adds W/2 readers")
		rounds := fs.Int("rounds", 1, "rounds, each in a fresh tenant")
		asJSON := fs.Bool("json", false, "print the reports as JSON")
		serverURL := fs.String("url", "", "load a running server over HTTP instead of the store (e.g. http://127.0.0.1:8080)")
		usage, pace, members := "web stress "+mode+" [--tasks N] [--writers W] [--rounds R] [--json] [--url URL]", new(int), new(int)
		if mode == stress.NotifyMode {
			fs.IntVar(members, "members", 50, fmt.Sprintf("the candidate group's members (G), 2 to %d", maxStressMembers))
			usage = "web stress notify [--tasks N] [--members G] [--writers W] [--rounds R] [--json]"
		}
		if mode == "mixed" {
			fs.IntVar(pace, "pace", 0, fmt.Sprintf("a busy tenant's steady load: the writes (projections, claims, completions) at N a second across all writers and the readers' pages at N a second, 0 to %d; 0 is unthrottled", maxStressPace))
			usage = "web stress mixed [--tasks N] [--writers W] [--rounds R] [--pace N] [--json] [--url URL]"
		}
		fs.Usage = commandUsage(fs, usage, `
Loads the store directly (USERTASKS_DATABASE_URL), or with --url a running server through its
API, in fresh tenants named stress-…, then checks exact invariants (counts, one event and one
outbox row where due, the store's audit) and prints throughput, p50/p95/p99, conflicts and
errors beside a raw-SQL baseline on scratch tables of the same database (SQL only: on the
document store the report says it was skipped). Over HTTP the tokens
are minted with the server's HS256 secret; the database, when configured, adds the audit and
the baseline. Exit status 0 when every invariant held, 3 when one failed, 1 when the run could
not be carried out. Its tenants stay behind (claim and burst leave open tasks): run it on a
scratch or staging database.`, stressEnvironment())
		if err := parseFlagsOnly(fs, args, stderr); err != nil {
			return err
		}
		if err := checkStressBounds(*tasks, *writers, *rounds); err != nil {
			return err
		}
		if mode == stress.NotifyMode && (*members < 2 || *members > maxStressMembers || *serverURL != "") {
			return fmt.Errorf("%w: notify loads the store in this process (no --url) with --members 2 to %d", errUsage, maxStressMembers)
		}
		if *pace < 0 || *pace > maxStressPace {
			return fmt.Errorf("%w: --pace must be 0 (unthrottled) to %d writes per second", errUsage, maxStressPace)
		}
		cfg, _, err := loadToolConfig(env, stderr)
		if err != nil {
			return err
		}
		opts := stress.Options{Tasks: *tasks, Writers: *writers, Rounds: *rounds, Pace: *pace, Members: *members, Progress: stderr}
		if *serverURL != "" {
			if opts.Target, err = stressHTTPTarget(env, *serverURL); err != nil {
				return err
			}
		}
		if *serverURL == "" || env["USERTASKS_DATABASE_URL"] != "" || env["USERTASKS_DATABASE_URL_FILE"] != "" {
			if err := cfg.requireKeys(); err != nil {
				return err
			}
			opened, err := openToolStore(ctx, cfg)
			if err != nil {
				return err
			}
			defer opened.Close()
			opts.Store, opts.SQL, opts.Database = opened.Store, opened.sql, opened.name
		}
		if opts.Target == nil {
			opts.Target, opts.Inspector = stress.NewStoreTarget(opts.Store), stress.StoreInspector{Store: opts.Store}
		}
		reports, err := stress.Run(ctx, mode, opts)
		if err != nil {
			return err
		}
		return printStress(stdout, reports, *asJSON)
	}
}

func checkStressBounds(tasks, writers, rounds int) error {
	for _, b := range []struct {
		name   string
		v, max int
	}{{"--tasks", tasks, maxStressTasks}, {"--writers", writers, maxStressWriters}, {"--rounds", rounds, maxStressRounds}} {
		if b.v < 1 || b.v > b.max {
			return fmt.Errorf("%w: %s must be between 1 and %d", errUsage, b.name, b.max)
		}
	}
	return nil
}

// stressHTTPTarget is the server at serverURL, with the token settings the server has (the
// tools read only their own settings, so the server's are read here).
func stressHTTPTarget(env environment, serverURL string) (stress.Target, error) {
	full := defaultConfig()
	if err := full.read(env, false); err != nil {
		return nil, err
	}
	a := full.Auth
	target, err := stress.NewHTTPTarget(stress.HTTPConfig{BaseURL: serverURL, Secret: a.HS256Secret,
		Issuer: a.Issuer, Audience: a.Audience, ManagerRole: a.ManagerRole, Lifetime: a.MaxLifetime})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return target, nil
}

// printStress prints the reports and fails with errFindings when an invariant did not hold.
func printStress(w io.Writer, reports []stress.Report, asJSON bool) error {
	failed, err := stress.Write(w, reports, asJSON)
	if err == nil && failed > 0 {
		err = fmt.Errorf("%w: %d invariant checks failed", errFindings, failed)
	}
	return err
}

// stressEnvironment is what stress reads: the tools' variables and, for --url, the token settings.
func stressEnvironment() string {
	return strings.Join([]string{
		"  USERTASKS_JWT_HS256_SECRET (or _FILE), USERTASKS_JWT_ISSUER, USERTASKS_JWT_AUDIENCE,",
		"  USERTASKS_MANAGER_ROLE, USERTASKS_JWT_MAX_LIFETIME: with --url, as the server has them, to mint its tokens",
		toolEnvironment(),
	}, "\n")
}
