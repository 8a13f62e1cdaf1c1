package storetest

import (
	"testing"

	"usertasks/migrations"
	"usertasks/store"
)

// The storage hooks: what a case does to the stored records behind the store's back, named for
// what it means rather than written as SQL, so that every provider implements it its own way
// (the SQL harness, storetest/sqlharness, with the statements the cases always
// ran; the document-store harness, storetest/docharness, with field updates of its documents). Units and fields are the logical schema's
// (migrations/logical): the SQL table and column names, which the document store's
// collections and fields share.
//
// A provider that lacks a hook, or answers a Tampering with an error, has the case reported as
// not applicable ("not applicable on <provider>: <case> — <reason>") and counted in the suite's
// final line, never silently passed.

// Tampering names an out-of-band change of stored records that no store method makes: a
// corruption the store must detect, or a state a case needs faster than the real path reaches
// it. The args each one takes are listed beside it; ids are the models' ids.
type Tampering string

// Corruptions the reads must detect (models.ErrCorrupt).
const (
	// CorruptInstructions (taskID) replaces the task's sealed instructions by a ciphertext
	// under the test key that does not decode.
	CorruptInstructions Tampering = "corrupt-instructions"
	// CorruptDataKey (taskID) replaces the task's sealed data by a ciphertext under a key id
	// the ring does not know.
	CorruptDataKey Tampering = "corrupt-data-key"
	// CorruptStatus (taskID) sets the task's status to "Bogus".
	CorruptStatus Tampering = "corrupt-status"
	// CorruptActions (taskID) makes the task's stored actions undecodable ("not json").
	CorruptActions Tampering = "corrupt-actions"
	// CorruptCandidateStatus (taskID) sets the status copy of the task's candidate records to
	// Completed (a provider without such a copy answers not applicable).
	CorruptCandidateStatus Tampering = "corrupt-candidate-status"
	// MoveInstructions (fromTaskID, toTaskID) copies one task's sealed instructions, as
	// stored, over another's (a ciphertext bound to the wrong task).
	MoveInstructions Tampering = "move-instructions"
	// MoveRefreshToken (fromIDHash, toIDHash) copies one web session's sealed refresh token,
	// as stored, over another's.
	MoveRefreshToken Tampering = "move-refresh-token"
)

// BreakInvariant (taskID) breaks the audit invariant inv (storekit.Inv*) of one task of
// EveryStatus, as auditCorruptions lists: the audit must report exactly that finding.
func BreakInvariant(inv string) Tampering { return Tampering("break " + inv) }

// States a case sets directly.
const (
	// SetSiblingGroup (groupID, taskID) puts every invitation of the task in one sibling group.
	SetSiblingGroup Tampering = "set-sibling-group"
	// ConsumeInvitationRecord (invitationID) marks the invitation consumed, verified and
	// consumed at its last update.
	ConsumeInvitationRecord Tampering = "consume-invitation"
	// RevokeInvitationRecord (invitationID) marks the invitation revoked at its last update.
	RevokeInvitationRecord Tampering = "revoke-invitation"
	// SetInvitationStatus (status string, invitationID) sets the invitation's status only.
	SetInvitationStatus Tampering = "set-invitation-status"
	// InsertGuestSession (id, tenant, taskID, invitationID, tokenHash, participantProvider,
	// participantID, capabilities JSON string, issuedAt, expiresAt time.Time) stores a guest
	// session as a verification would.
	InsertGuestSession Tampering = "insert-guest-session"
	// ForceCompleted (taskID) sets the task's status to Completed, completed at its last
	// update, leaving its operations and outbox records as they are.
	ForceCompleted Tampering = "force-completed"
	// CompleteOperations (taskID) sets every operation of the task to completed.
	CompleteOperations Tampering = "complete-operations"
	// LeaseDelivery (expiresAt time.Time, invitationID) leases the invitation's delivery to
	// owner "node" with token "tok" until expiresAt.
	LeaseDelivery Tampering = "lease-delivery"
	// AssignToGuest (participantID, taskID) sets the task Assigned to the guest user
	// participantID.
	AssignToGuest Tampering = "assign-to-guest"
	// DeliverDelivery (invitationID) marks the invitation's delivery delivered.
	DeliverDelivery Tampering = "deliver-delivery"
	// DeliverResumptions (taskID) marks the task's resumption outbox records delivered.
	DeliverResumptions Tampering = "deliver-resumptions"
	// CounterOnStripeZero (tenant) moves the tenant's whole open-task count onto stripe 0, the
	// other stripes to 0, as migration 00008 leaves a counter.
	CounterOnStripeZero Tampering = "counter-on-stripe-zero"
	// DropChunk (chunkID) deletes one sealed attachment chunk (storekit.ChunkID).
	DropChunk Tampering = "drop-chunk"
	// CopyChunk (fromChunkID, toChunkID) copies one chunk's sealed bytes and size, as stored,
	// over another's (a ciphertext bound to the wrong place).
	CopyChunk Tampering = "copy-chunk"
	// CorruptAttachmentHash (attachmentID) records another SHA-256 for the attachment.
	CorruptAttachmentHash Tampering = "corrupt-attachment-hash"
)

// SQLHooks are what only a SQL provider has; the cases that read SQL statements (Options.OnSQL)
// or query plans run only when the harness sets them, and are reported not applicable otherwise.
type SQLHooks struct {
	Dialect migrations.Dialect
	// Explain returns the query plan text of a statement (SQLite EXPLAIN QUERY PLAN,
	// PostgreSQL and MariaDB EXPLAIN).
	Explain func(t *testing.T, s store.Store, sql string, args ...any) string
	// Analyze refreshes the planner's statistics of the task tables.
	Analyze func(t *testing.T, s store.Store)
}

// notApplicable reports the running case as not applicable on this provider and skips it.
func (h Harness) notApplicable(t *testing.T, reason string) {
	t.Helper()
	if h.na != nil {
		h.na.Add(1)
	}
	t.Skipf("not applicable on %s: %s — %s", h.Name, t.Name(), reason)
}

// needSQL skips the running case as not applicable unless the provider is a SQL one.
func (h Harness) needSQL(t *testing.T, what string) {
	t.Helper()
	if h.SQL == nil {
		h.notApplicable(t, what+" (a SQL provider's hook)")
	}
}

// tamper applies a Tampering through the harness, or reports the case not applicable.
func (h Harness) tamper(t *testing.T, s store.Store, what Tampering, args ...any) {
	t.Helper()
	if h.Tamper == nil {
		h.notApplicable(t, "the harness cannot change stored records ("+string(what)+")")
	}
	if err := h.Tamper(t, s, what, args...); err != nil {
		h.notApplicable(t, string(what)+": "+err.Error())
	}
}

// records counts the stored records of unit whose fields equal where's values (nil: unset);
// an empty where counts them all.
func (h Harness) records(t *testing.T, s store.Store, unit string, where map[string]any) int {
	t.Helper()
	if h.CountRecords == nil {
		h.notApplicable(t, "the harness cannot count stored records")
	}
	return h.CountRecords(t, s, unit, where)
}

// containing counts the stored records of unit whose field, as stored, contains text.
func (h Harness) containing(t *testing.T, s store.Store, unit, field, text string) int {
	t.Helper()
	if h.CountContaining == nil {
		h.notApplicable(t, "the harness cannot search stored values")
	}
	return h.CountContaining(t, s, unit, field, text)
}

// counterStripes returns the tenant's open-task counter stripes as stored.
func (h Harness) counterStripes(t *testing.T, s store.Store, tenant string) []int {
	t.Helper()
	if h.CounterStripes == nil {
		h.notApplicable(t, "the harness cannot read the open-task counter")
	}
	return h.CounterStripes(t, s, tenant)
}

// openCounted is the sum of the tenant's counter stripes: the open tasks the counter counts.
func (h Harness) openCounted(t *testing.T, s store.Store, tenant string) int {
	t.Helper()
	n := 0
	for _, v := range h.counterStripes(t, s, tenant) {
		n += v
	}
	return n
}
