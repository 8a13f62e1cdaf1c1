package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"usertasks/models"
	"usertasks/progress"
	"usertasks/stress/seed"
)

// Bounds of the seed command's flags.
const (
	seedMaxTenants  = 1_000
	seedMaxTerminal = 100_000_000
	seedMaxBatch    = 50_000
)

// stressSeedCommand runs `web stress seed [--tenants N] [--tenant NAME] [--open N] [--terminal N]
// [--seed N] [--batch N]`: it loads generated tenants into the database in bulk (stress/seed)
// for load tests and query plans at the scale target, and refreshes the planner statistics.
// A tenant that already holds tasks is refused, before anything is written: the generator
// creates tenants, it never adds to one (its counter, rollup and lists would mix two data sets).
func stressSeedCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stress seed", flag.ContinueOnError)
	tenants := fs.Int("tenants", 1, fmt.Sprintf("how many tenants to load, 1 to %d", seedMaxTenants))
	name := fs.String("tenant", "stress", "the tenant's name; with --tenants N above 1 the tenants are NAME-1 … NAME-N")
	open := fs.Int("open", 100_000, fmt.Sprintf("open and transitional tasks per tenant, 0 to %d (the open-task cap)", models.DefaultOpenTasksPerTenant))
	terminal := fs.Int("terminal", 1_000_000, fmt.Sprintf("completed, cancelled and timed-out tasks per tenant, 0 to %d", seedMaxTerminal))
	seedValue := fs.Uint64("seed", 1, "the random generator's seed (the same seed writes the same shape of data, with new ids)")
	batch := fs.Int("batch", 10_000, fmt.Sprintf("tasks per transaction, 1 to %d", seedMaxBatch))
	fs.Usage = commandUsage(fs, "web stress seed [--tenants N] [--tenant NAME] [--open N] [--terminal N] [--seed N] [--batch N]", `
Loads generated tenants for load tests and query plans at the scale target (by default one
tenant of 100,000 open + 1,000,000 terminal tasks) straight into the tables: tasks with their
candidates (people and groups), events, operations and pending resumptions, the open-task
counter and the daily rollup, written as the store writes them: 'web audit' finds nothing and a
server's dispatcher delivers every pending resumption. The completing tasks' form and data are
sealed with USERTASKS_ENCRYPTION_KEYS (in dev mode the dev keys), so seed with the keys the
server will use. Then it refreshes the planner statistics (ANALYZE; VACUUM ANALYZE; ANALYZE
TABLE).

SQLite, PostgreSQL and MariaDB/MySQL; the schema must be current ('web migrate up'). A tenant
that already holds tasks is refused before anything is written: choose another --tenant. On
an empty database the task tables' secondary indexes are dropped for the load and built again
after it, so do not point it at a database a server is using; beside other tenants the indexes
stay and the load is slower. Never run it against production data.
Exit status: 0 loaded, 1 failed or a tenant is not empty, 2 bad invocation.`, toolEnvironment())
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	switch {
	case *tenants < 1 || *tenants > seedMaxTenants:
		return fmt.Errorf("%w: --tenants must be 1 to %d", errUsage, seedMaxTenants)
	case *open < 0 || *open > models.DefaultOpenTasksPerTenant:
		return fmt.Errorf("%w: --open must be 0 to %d", errUsage, models.DefaultOpenTasksPerTenant)
	case *terminal < 0 || *terminal > seedMaxTerminal:
		return fmt.Errorf("%w: --terminal must be 0 to %d", errUsage, seedMaxTerminal)
	case *open+*terminal == 0:
		return fmt.Errorf("%w: --open and --terminal are both 0: nothing to load", errUsage)
	case *batch < 1 || *batch > seedMaxBatch:
		return fmt.Errorf("%w: --batch must be 1 to %d", errUsage, seedMaxBatch)
	case *name == "":
		return fmt.Errorf("%w: --tenant must not be empty", errUsage)
	}
	names := seedTenantNames(*name, *tenants)
	if err := checkIdentifier("--tenant", names[len(names)-1], maxTenantLength); err != nil {
		return err
	}
	cfg, _, err := loadToolConfig(env, stderr)
	if err != nil {
		return err
	}
	store, err := openSQLToolStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer store.Close()
	// The completions' data is sealed with the server's keys, or its dispatcher cannot open it.
	if err := cfg.requireKeys(); err != nil {
		return err
	}
	db, err := store.DB()
	if err != nil {
		return err
	}

	opts := seed.Options{Seed: *seedValue, Batch: *batch, Keys: cfg.Keys}
	for _, n := range names {
		opts.Tenants = append(opts.Tenants, seed.Tenant{Name: n, Open: *open, Terminal: *terminal})
	}
	prog := progress.New(stdout, "seed")
	start, phase := time.Now(), seed.Phase("")
	opts.Progress = func(p seed.Progress) {
		if p.Phase != phase {
			prog.Line("seed: %s (%s)", p.Phase, time.Since(start).Round(time.Second))
			phase = p.Phase
		}
		if p.Phase == seed.PhaseTasks {
			prog.Step(p.Done, p.Total, "tenant "+p.Tenant)
		}
	}
	results, err := seed.Load(ctx, db, store.Dialect(), opts)
	if errors.Is(err, seed.ErrTenantNotEmpty) {
		return fmt.Errorf("%w; nothing was written: choose another --tenant", err)
	}
	if err != nil {
		return fmt.Errorf("seed stopped (the tenants written so far stay; drop the database to start again): %w", err)
	}
	took := time.Since(start)
	tasks := 0
	for _, r := range results {
		tasks += r.Tasks
		fmt.Fprintf(stdout, "tenant %s: %d tasks (%d open or transitional, %d overdue, %d with a health finding, %d pending resumptions), %d events, %d workflows, %d rollup rows\n",
			r.Tenant, r.Tasks, r.Tasks-seedTerminal(r), r.Overdue, r.Health, r.Backlog, r.Events, r.Workflows, r.Stats)
	}
	prog.Done(fmt.Sprintf("seeded %d tasks in %d tenants in %s (%.0f tasks/s, statistics included)",
		tasks, len(results), took.Round(time.Second), float64(tasks)/max(took.Seconds(), 0.001)))
	return nil
}

// seedTenantNames are the tenants of --tenant and --tenants: NAME alone, or NAME-1 … NAME-N.
func seedTenantNames(name string, n int) []string {
	if n == 1 {
		return []string{name}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = name + "-" + strconv.Itoa(i+1)
	}
	return out
}

// seedTerminal counts a result's terminal tasks.
func seedTerminal(r seed.Result) int {
	n := 0
	for _, st := range models.TerminalStatuses {
		n += r.ByStatus[st]
	}
	return n
}
