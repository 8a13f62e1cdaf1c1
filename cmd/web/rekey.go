package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"usertasks/audit"
	"usertasks/store"
	"usertasks/storekit"
)

// errUnreadable is rekey's finding that some sealed values open under no configured key.
var errUnreadable = errors.New("some sealed values cannot be opened with USERTASKS_ENCRYPTION_KEYS")

// rekeyCommand runs `web rekey [--dry-run] [--page-size N]`: it reseals every protected value
// under the first key of USERTASKS_ENCRYPTION_KEYS, table by table in pages (one transaction
// each), so the other keys can be retired. It is safe to interrupt and rerun; a rerun skips
// what is already under the primary key.
func rekeyCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rekey", flag.ContinueOnError)
	dryRun := fs.Bool("dry-run", false, "count sealed values by key id and change nothing")
	pageSize := fs.Int("page-size", 500, "rows per transaction (1-10000)")
	fs.Usage = commandUsage(fs, "web rekey [--dry-run] [--page-size N]", `
Reseals every protected value under the first key of USERTASKS_ENCRYPTION_KEYS, so the other
keys can be removed. Safe to interrupt and run again. Exit status 1 when a value opens under
no configured key.`, toolEnvironment())
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	if *pageSize < 1 || *pageSize > 10000 {
		return fmt.Errorf("%w: --page-size must be between 1 and 10000", errUsage)
	}
	cfg, st, err := openKeyedTool(ctx, env, stderr)
	if err != nil {
		return err
	}
	defer st.Close()

	primary := cfg.Keys.PrimaryKeyID()
	verb := "resealed"
	if *dryRun {
		verb = "would reseal"
	}
	var resealed, unreadable int
	for _, t := range storekit.SealedTables {
		sum, err := rekeyTable(ctx, st, t.Name, *pageSize, *dryRun, stderr)
		if err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		fmt.Fprintf(stdout, "%-24s %8d rows  %8d %s  sealed values by key: %s\n", t.Name, sum.rows, sum.resealed, verb, audit.ByKeyText(sum.byKey))
		for _, id := range sum.unreadable[:min(len(sum.unreadable), 10)] {
			fmt.Fprintf(stdout, "  cannot open a value of row %s\n", id)
		}
		resealed += sum.resealed
		unreadable += len(sum.unreadable)
	}
	switch {
	case unreadable > 0:
		fmt.Fprintf(stdout, "%d values open under no configured key; keep every key they were sealed with (audit lists the rows)\n", unreadable)
		return errUnreadable
	case *dryRun:
		fmt.Fprintf(stdout, "dry run: %d values would be resealed under key %q; nothing was changed\n", resealed, primary)
	default:
		fmt.Fprintf(stdout, "every sealed value is under key %q (%d resealed now); the other keys may be removed from USERTASKS_ENCRYPTION_KEYS\n", primary, resealed)
	}
	return nil
}

type rekeySummary struct {
	rows, resealed int
	byKey          map[string]int
	unreadable     []string
}

// rekeyTable walks one table page by page and reports progress every ten pages.
func rekeyTable(ctx context.Context, st store.Operations, table string, pageSize int, dryRun bool, progress io.Writer) (rekeySummary, error) {
	sum := rekeySummary{byKey: map[string]int{}}
	after := ""
	for pages := 1; ; pages++ {
		p, err := st.RekeyPage(ctx, table, after, pageSize, dryRun)
		if err != nil {
			return sum, err
		}
		sum.rows += p.Rows
		sum.resealed += p.Resealed
		for kid, n := range p.ByKey {
			sum.byKey[kid] += n
		}
		sum.unreadable = append(sum.unreadable, p.Unreadable...)
		if p.Next == "" {
			return sum, nil
		}
		if pages%10 == 0 {
			fmt.Fprintf(progress, "%s: %d rows read\n", table, sum.rows)
		}
		after = p.Next
	}
}
