package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"

	"usertasks/audit"
	"usertasks/store"
)

// Bounds of the audit's flags.
const (
	maxTenantLength = 64 // user_tasks.tenant_id
	maxTaskIDLength = 36 // user_tasks.id
)

// auditCommand runs `web audit [--tenant T] [--limit N] [--after ID] [--json]`: it reads the
// store in pages of tasks, checks the invariants of SPEC 8 and prints a report. It never
// writes. Exit status 0 when clean, 3 with findings, 1 when the audit could not run.
func auditCommand(ctx context.Context, args []string, env environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	tenant := fs.String("tenant", "", "audit only this tenant")
	limit := fs.Int("limit", 0, "stop after this many tasks (0: all); the report says where to resume")
	after := fs.String("after", "", "resume after this task: the value a previous report printed (TENANT/ID, or ID with --tenant)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = commandUsage(fs, "web audit [--tenant T] [--limit N] [--after ID] [--json]", `
Checks every task with its rows against the store's invariants (docs/operations.md) and
prints a report. Never writes or repairs. Exit status 0 when clean, 3 when something is
inconsistent, 1 when the audit could not run, 2 on bad flags.`, toolEnvironment())
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	if *limit < 0 {
		return fmt.Errorf("%w: --limit must not be negative", errUsage)
	}
	if err := checkIdentifier("--tenant", *tenant, maxTenantLength); err != nil {
		return err
	}
	filter, err := parseAfter(*tenant, *after)
	if err != nil {
		return err
	}
	cfg, st, err := openKeyedTool(ctx, env, stderr)
	if err != nil {
		return err
	}
	defer st.Close()

	rep, err := audit.Run(ctx, st, audit.Options{From: filter, Limit: *limit, PrimaryKey: cfg.Keys.PrimaryKeyID(), Progress: stderr})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		rep.Print(stdout)
	}
	if rep.Total > 0 {
		return errFindings
	}
	return nil
}

// checkIdentifier refuses a flag value that no row can hold: too long or with control characters.
func checkIdentifier(flagName, v string, maxLen int) error {
	if len(v) > maxLen {
		return fmt.Errorf("%w: %s is longer than %d bytes", errUsage, flagName, maxLen)
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return fmt.Errorf("%w: %s holds a control character", errUsage, flagName)
	}
	return nil
}

// parseAfter turns --after into a resume key: ID within --tenant, or TENANT/ID (split at the
// last slash; task ids hold none).
func parseAfter(tenant, after string) (store.AuditFilter, error) {
	f := store.AuditFilter{Tenant: tenant}
	if after == "" {
		return f, nil
	}
	afterTenant, id := tenant, after
	if i := strings.LastIndexByte(after, '/'); i >= 0 {
		afterTenant, id = after[:i], after[i+1:]
		if tenant != "" && afterTenant != tenant {
			return f, fmt.Errorf("%w: --after names tenant %q, --tenant %q", errUsage, afterTenant, tenant)
		}
	} else if tenant == "" {
		return f, fmt.Errorf("%w: --after needs TENANT/ID without --tenant", errUsage)
	}
	if id == "" || afterTenant == "" {
		return f, fmt.Errorf("%w: --after needs a tenant and a task id", errUsage)
	}
	if err := checkIdentifier("--after", afterTenant, maxTenantLength); err != nil {
		return f, err
	}
	if err := checkIdentifier("--after", id, maxTaskIDLength); err != nil {
		return f, err
	}
	f.AfterTenant, f.AfterID = afterTenant, id
	return f, nil
}
