package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"usertasks/models"
	"usertasks/workers"
)

// purgeCommand runs `web purge [--tenant T] [--older-than D] [--dry-run] [--page-size N]`: the
// retention purge of SPEC 7 once, now, through the same purger (and lease) as the worker.
func purgeCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("purge", flag.ContinueOnError)
	tenant := fs.String("tenant", "", "purge only this tenant (default: every tenant)")
	olderThan := fs.Duration("older-than", 0, "purge terminal tasks closed longer ago than this, e.g. 2160h (default USERTASKS_RETENTION_TERMINAL_AGE; unset keeps them)")
	dryRun := fs.Bool("dry-run", false, "print what would be purged, per tenant and kind, and delete nothing")
	pageSize := fs.Int("page-size", models.DefaultPurgePageSize, fmt.Sprintf("rows per transaction, 1 to %d", models.MaxPurgePageSize))
	fs.Usage = commandUsage(fs, "web purge [--tenant T] [--older-than DURATION] [--dry-run] [--page-size N]", `
Deletes terminal tasks closed longer ago than the age, with every row that belongs to them,
and expired invitations, guest sessions and done outbox rows (docs/operations.md). Never an
open or transitional task, one with a pending operation or one with a health finding.
Exit status: 0 done, 1 failed or another node is purging, 2 bad invocation.`, toolEnvironment())
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	if err := checkTenantFlag(*tenant); err != nil {
		return err
	}
	if *olderThan != 0 && *olderThan < minRetentionAge {
		return fmt.Errorf("%w: --older-than %s is below the least age of %s", errUsage, *olderThan, minRetentionAge)
	}
	if *pageSize < 1 || *pageSize > models.MaxPurgePageSize {
		return fmt.Errorf("%w: --page-size must be 1 to %d", errUsage, models.MaxPurgePageSize)
	}
	cfg, log, err := loadToolConfig(env, stderr)
	if err != nil {
		return err
	}
	if *olderThan != 0 {
		cfg.Retention.TerminalAge = *olderThan
	}
	policy := cfg.Retention.policy(*pageSize)
	policy.DryRun = *dryRun

	st, err := openToolStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()

	if policy.TerminalAge == 0 {
		fmt.Fprintln(stdout, "terminal tasks: kept (set --older-than or USERTASKS_RETENTION_TERMINAL_AGE to purge them)")
	} else {
		fmt.Fprintf(stdout, "terminal tasks: closed more than %s ago\n", policy.TerminalAge)
	}
	fmt.Fprintf(stdout, "invitations: revoked or expired more than %s ago; guest sessions: ended more than %s ago; outbox rows: done more than %s ago\n",
		policy.InvitationAge, policy.GuestSessionAge, policy.OutboxAge)
	verb := "purged"
	if policy.DryRun {
		verb = "would purge"
		fmt.Fprintln(stdout, "dry run: nothing is deleted")
	}
	start := time.Now()
	purger := workers.NewPurger(st, workers.PurgeOptions{Policy: policy, Logger: log, Progress: func(t string, c models.PurgeCounts) {
		if !policy.DryRun {
			fmt.Fprintf(stderr, "purge: tenant %s: %s so far (%s)\n", t, formatPurgeCounts(c), time.Since(start).Round(time.Millisecond))
		}
	}})
	res, err := purger.RunOnce(ctx, *tenant)
	for _, t := range slices.Sorted(maps.Keys(res.Tenants)) {
		fmt.Fprintf(stdout, "tenant %s: %s %s\n", t, verb, formatPurgeCounts(res.Tenants[t]))
	}
	if err != nil {
		return fmt.Errorf("purge stopped (what was purged stays; run it again to go on): %w", err)
	}
	if res.Busy {
		return errors.New("another node is purging now (lease \"" + workers.PurgeLease + "\"); try again later")
	}
	fmt.Fprintf(stdout, "total: %s %s in %s\n", verb, formatPurgeCounts(res.Total), time.Since(start).Round(time.Millisecond))
	return nil
}

// checkTenantFlag refuses a tenant no token could carry: longer than the column, or with
// control characters.
func checkTenantFlag(tenant string) error {
	if len(tenant) > 64 || strings.IndexFunc(tenant, unicode.IsControl) >= 0 {
		return fmt.Errorf("%w: --tenant must be at most 64 bytes without control characters", errUsage)
	}
	return nil
}

// purgeKinds are the counted kinds in the order they are printed.
var purgeKinds = []string{"tasks", "events", "operations", "candidates", "exclusions", "tags", "resumptions",
	"invitations", "deliveries", "guestSessions", "comments"}

// formatPurgeCounts prints every kind as name=count, in a fixed order.
func formatPurgeCounts(c models.PurgeCounts) string {
	m := c.Map()
	parts := make([]string, 0, len(purgeKinds))
	for _, k := range purgeKinds {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}
