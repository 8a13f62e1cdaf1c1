package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"

	"usertasks/repository"
	"usertasks/store"
)

// Bounds of the audit's flags.
const (
	auditPageSize      = 200 // tasks per read transaction
	auditShown         = 100 // findings listed in the report; the counts cover them all
	auditProgressPages = 10  // a progress line every so many pages
	maxTenantLength    = 64  // user_tasks.tenant_id
	maxTaskIDLength    = 36  // user_tasks.id
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

	rep := auditReport{Tenant: *tenant, PrimaryKey: cfg.Keys.PrimaryKeyID(), ByKey: map[string]int{}, Counts: map[string]int{}, Findings: []auditFinding{}}
	if *after == "" {
		// The counters are per tenant, not per task: checked once, at the start of a full run.
		found, err := st.AuditTenantCounters(ctx, *tenant)
		if err != nil {
			return err
		}
		rep.add(found)
	}
	if *after == "" && *tenant == "" {
		if err := auditSealedApart(ctx, st, &rep); err != nil {
			return err
		}
	}
	for pages := 1; ; pages++ {
		size := auditPageSize
		if *limit > 0 {
			size = min(size, *limit-rep.Tasks)
		}
		p, err := st.Audit(ctx, filter, size)
		if err != nil {
			return err
		}
		rep.Tasks += p.Tasks
		rep.add(p.Findings)
		for kid, n := range p.ByKey {
			rep.ByKey[kid] += n
		}
		if p.Tasks > 0 {
			filter.AfterTenant, filter.AfterID = p.LastTenant, p.LastID
			rep.Last = resumeKey(*tenant, p.LastTenant, p.LastID)
		}
		if p.Done {
			rep.Complete = true
			break
		}
		if *limit > 0 && rep.Tasks >= *limit {
			break
		}
		if pages%auditProgressPages == 0 {
			fmt.Fprintf(stderr, "audit: %d tasks checked, %d findings, last %s\n", rep.Tasks, rep.Total, rep.Last)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		rep.print(stdout)
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

// resumeKey is the --after value that continues after (tenant, id).
func resumeKey(scope, tenant, id string) string {
	if scope != "" {
		return id
	}
	return tenant + "/" + id
}

// auditReport is what `web audit` prints (as text, or as JSON with these field names).
type auditReport struct {
	Tenant     string         `json:"tenant,omitempty"`
	Tasks      int            `json:"tasks"`
	Complete   bool           `json:"complete"` // every task in scope was checked
	Last       string         `json:"last,omitempty"`
	PrimaryKey string         `json:"primaryKey"`
	ByKey      map[string]int `json:"sealedValuesByKey"`
	Total      int            `json:"findingCount"`
	Counts     map[string]int `json:"findingsByInvariant"`
	Findings   []auditFinding `json:"findings"`
}

type auditFinding struct {
	Tenant    string `json:"tenant,omitempty"`
	TaskID    string `json:"taskId,omitempty"`
	Row       string `json:"rowId,omitempty"`
	Invariant string `json:"invariant"`
	Message   string `json:"message"`
}

func (r *auditReport) add(found []store.AuditFinding) {
	for _, f := range found {
		r.Total++
		r.Counts[f.Invariant]++
		if len(r.Findings) < auditShown {
			r.Findings = append(r.Findings, auditFinding(f))
		}
	}
}

func (r *auditReport) print(w io.Writer) {
	scope := "every tenant"
	if r.Tenant != "" {
		scope = fmt.Sprintf("tenant %q", r.Tenant)
	}
	fmt.Fprintf(w, "audited %d tasks of %s\n", r.Tasks, scope)
	fmt.Fprintf(w, "sealed values by key: %s (primary %q)\n", byKeyText(r.ByKey), r.PrimaryKey)
	if others := r.sealedUnderOtherKeys(); others > 0 {
		fmt.Fprintf(w, "  %d values are under other keys; `web rekey` moves them to the primary\n", others)
	}
	fmt.Fprintln(w, "findings by invariant:")
	for _, inv := range repository.Invariants {
		fmt.Fprintf(w, "  %-20s %d\n", inv, r.Counts[inv])
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(w, "first %d findings:\n", len(r.Findings))
		for _, f := range r.Findings {
			where := "tenant " + f.Tenant
			if f.Tenant == "" {
				where = "store"
			}
			if f.TaskID != "" {
				where += " task " + f.TaskID
			}
			if f.Row != "" {
				where += " row " + f.Row
			}
			fmt.Fprintf(w, "  %s: %s: %s\n", where, f.Invariant, f.Message)
		}
	}
	switch {
	case r.Complete:
		fmt.Fprintln(w, "every task in scope was checked")
	case r.Last != "":
		fmt.Fprintf(w, "stopped at the limit; continue with --after %s\n", r.Last)
	}
	if r.Total == 0 {
		fmt.Fprintln(w, "clean: no findings")
	} else {
		fmt.Fprintf(w, "%d findings; the audit repairs nothing (docs/operations.md says what to do)\n", r.Total)
	}
}

func (r *auditReport) sealedUnderOtherKeys() int {
	n := 0
	for kid, c := range r.ByKey {
		if kid != r.PrimaryKey {
			n += c
		}
	}
	return n
}

// auditSealedApart checks the sealed tables outside the task aggregates (browser sessions) at
// the start of a full run over every tenant. A finding names the row by the first 16 digits of
// its key (a session's id hash), enough to find it and too little to present it.
func auditSealedApart(ctx context.Context, st store.Operations, rep *auditReport) error {
	for _, t := range repository.SealedTables {
		if t.TaskScoped() {
			continue
		}
		after := ""
		for {
			p, err := st.AuditSealed(ctx, t.Name, after, 500)
			if err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
			for kid, n := range p.ByKey {
				rep.ByKey[kid] += n
			}
			for _, key := range p.Unreadable {
				rep.add([]store.AuditFinding{{Row: t.Name + ":" + key[:min(len(key), 16)], Invariant: repository.InvCiphertext,
					Message: "a sealed value does not open with the configured keys"}})
			}
			if after = p.Next; after == "" {
				break
			}
		}
	}
	return nil
}
