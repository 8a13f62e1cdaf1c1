// Package audit is the operator's audit of a store (`web audit`): it walks every task of one
// tenant or of all, page by page, through the store contract's Operations (each page one
// consistent read, checked by the store's shared rules), adds the tenants' open-task counters
// and the sealed tables outside the task aggregates on a full run, and gathers what it finds
// into a Report that says where a limited run stopped. It never writes or repairs.
package audit

import (
	"context"
	"fmt"
	"io"

	"usertasks/store"
	"usertasks/storekit"
)

// Bounds of a run.
const (
	PageSize      = 200 // tasks per read transaction
	shown         = 100 // findings listed in the report; the counts cover them all
	progressPages = 10  // a progress line every so many pages
	sealedPage    = 500 // rows per page of a sealed table outside the tasks
)

// Options say what a run covers.
type Options struct {
	// From is the scope and the resume key: one tenant or all, after (AfterTenant, AfterID).
	From store.AuditFilter
	// Limit stops the run after this many tasks (0: all).
	Limit int
	// PrimaryKey is the key ring's primary key id, to tell values under older keys apart.
	PrimaryKey string
	// Progress, when set, hears a line every few pages.
	Progress io.Writer
}

// Run audits the store as o says and returns the report.
func Run(ctx context.Context, st store.Operations, o Options) (Report, error) {
	rep := Report{Tenant: o.From.Tenant, PrimaryKey: o.PrimaryKey, ByKey: map[string]int{}, Counts: map[string]int{}, Findings: []Finding{}}
	resuming := o.From.AfterID != ""
	if !resuming {
		// The counters are per tenant, not per task: checked once, at the start of a full run.
		found, err := st.AuditTenantCounters(ctx, o.From.Tenant)
		if err != nil {
			return rep, err
		}
		rep.add(found)
	}
	if !resuming && o.From.Tenant == "" {
		if err := sealedApart(ctx, st, &rep); err != nil {
			return rep, err
		}
	}
	filter := o.From
	for pages := 1; ; pages++ {
		size := PageSize
		if o.Limit > 0 {
			size = min(size, o.Limit-rep.Tasks)
		}
		p, err := st.Audit(ctx, filter, size)
		if err != nil {
			return rep, err
		}
		rep.Tasks += p.Tasks
		rep.add(p.Findings)
		for kid, n := range p.ByKey {
			rep.ByKey[kid] += n
		}
		if p.Tasks > 0 {
			filter.AfterTenant, filter.AfterID = p.LastTenant, p.LastID
			rep.Last = ResumeKey(o.From.Tenant, p.LastTenant, p.LastID)
		}
		if p.Done {
			rep.Complete = true
			return rep, nil
		}
		if o.Limit > 0 && rep.Tasks >= o.Limit {
			return rep, nil
		}
		if o.Progress != nil && pages%progressPages == 0 {
			fmt.Fprintf(o.Progress, "audit: %d tasks checked, %d findings, last %s\n", rep.Tasks, rep.Total, rep.Last)
		}
	}
}

// ResumeKey is the resume key that continues after (tenant, id): the id alone within one
// tenant's run, else TENANT/ID.
func ResumeKey(scope, tenant, id string) string {
	if scope != "" {
		return id
	}
	return tenant + "/" + id
}

// sealedApart checks the sealed tables outside the task aggregates (browser sessions) at the
// start of a full run over every tenant. A finding names the row by the first 16 digits of its
// key (a session's id hash), enough to find it and too little to present it.
func sealedApart(ctx context.Context, st store.Operations, rep *Report) error {
	for _, t := range storekit.SealedTables {
		if t.TaskScoped {
			continue
		}
		after := ""
		for {
			p, err := st.AuditSealed(ctx, t.Name, after, sealedPage)
			if err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
			for kid, n := range p.ByKey {
				rep.ByKey[kid] += n
			}
			for _, key := range p.Unreadable {
				rep.add([]store.AuditFinding{{Row: t.Name + ":" + key[:min(len(key), 16)], Invariant: storekit.InvCiphertext,
					Message: "a sealed value does not open with the configured keys"}})
			}
			if after = p.Next; after == "" {
				break
			}
		}
	}
	return nil
}
