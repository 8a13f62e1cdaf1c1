package models

import "time"

// The types below appear in the signatures of the store's methods. They live here, not in the
// SQL store's package, so that every store — the SQL store (repository) and the document store
// (docstore), which stand on the same floor and may not import each other — can implement the
// same methods, and the contract suite (repository/storetest) can run against either.

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

// IssueFunc builds an invitation, its delivery and the invitation-issued event for the task
// as loaded inside the store's write.
type IssueFunc func(now time.Time, task Task) (Invitation, Delivery, Event, error)

// RevokeFunc builds the invitation-revoked event for the invitation and its task as loaded
// inside the store's write; it refuses (with the domain's error) what may not be revoked.
type RevokeFunc func(now time.Time, task Task, inv Invitation) (Event, error)

// GuestVerification is one attempt to verify an invitation.
type GuestVerification struct {
	// TokenHash is the SHA-256 hash of the presented invitation token.
	TokenHash string
	// Proof decides, for the invitation as locked inside the store's write, whether the
	// presented proof (a code, or the link alone) holds. A failed proof counts one attempt.
	Proof func(inv Invitation) bool
	// Session builds the guest session of a successful verification; the store sets nothing
	// of it but checks that it names the invitation.
	Session func(now time.Time, inv Invitation) GuestSession
}

// GuestAccess is what a guest session request is judged on, read in one snapshot.
type GuestAccess struct {
	Session    GuestSession
	Invitation Invitation
	Task       Task      // without protected content
	Now        time.Time // the database clock
}
