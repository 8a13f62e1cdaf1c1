package store

import (
	"context"

	"usertasks/models"
)

// Operations are the operator's commands: the audit of every invariant, key rotation of the
// sealed values, and the retention purge.
type Operations interface {
	Audit(ctx context.Context, f AuditFilter, size int) (AuditPage, error)
	// AuditTenantCounters checks the tenant's open-task counter against its open tasks.
	AuditTenantCounters(ctx context.Context, tenant string) ([]AuditFinding, error)
	AuditSealed(ctx context.Context, table, after string, limit int) (KeyPage, error)
	RekeyPage(ctx context.Context, table string, after string, limit int, dryRun bool) (KeyPage, error)
	Purge(ctx context.Context, tenant string, p models.RetentionPolicy, progress func(models.PurgeCounts)) (models.PurgeCounts, error)
}

// AuditFinding is one violated invariant. TaskID is empty for a tenant-wide finding; Row names the
// offending child row (an event, operation, invitation, delivery or session id) where there is one.
type AuditFinding struct {
	Tenant    string
	TaskID    string
	Row       string
	Invariant string
	Message   string
}

// AuditFilter selects the tasks of an audit page: one tenant or all, after a resume key.
type AuditFilter struct {
	Tenant      string // "" for every tenant
	AfterTenant string // with AfterID: resume after this (tenant, id)
	AfterID     string
}

// AuditPage is what one page of the audit found.
type AuditPage struct {
	Tasks    int
	Findings []AuditFinding
	// ByKey counts the sealed values of the page by the key id they are under (information:
	// values under a key other than the primary show how far a rotation has come).
	ByKey map[string]int
	// LastTenant and LastID are the page's last task; the next page starts after them.
	LastTenant, LastID string
	// Done is set when the page was the last one (fewer tasks than asked for).
	Done bool
}

// KeyPage is what one page of a key rotation (or a dry run) found.
type KeyPage struct {
	Rows       int            // rows read
	Resealed   int            // values rewritten under the primary key (a dry run: would be)
	ByKey      map[string]int // sealed values by the key id they were under when read
	Unreadable []string       // row keys whose value names an unknown key or fails to open
	Next       string         // the last row key of the page; "" when the table is done
}
