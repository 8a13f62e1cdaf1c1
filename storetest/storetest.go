// Package storetest is the store contract suite: written once, run against every store that can
// run here — the SQL store on each dialect (sqlharness) and the document store (docharness).
// Each case opens a fresh, migrated database through the Harness and calls the store only
// through the Store interface (store.go): the methods of Store the cases use, with
// types from models. Whatever a case does behind the store's back goes through the harness's
// storage hooks, named for what they do (hooks.go): Tamper (a named out-of-band change,
// Tampering), CountRecords, CountContaining and CounterStripes (reads of the stored records by
// logical unit and field). The cases that read SQL statements or query plans need
// Harness.SQL. A provider without a hook a case needs gets that case reported as "not
// applicable on <provider>: <case> — <reason>" and counted in the suite's last line, never
// silently passed.
package storetest

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/store"
	"usertasks/testfactory"
)

// Options tune the store a case opens.
type Options struct {
	OpenTasksPerTenant int
	TotalCap           int
	// SearchProbe bounds how many matches of a search a SQL store reads through its substring
	// index before it walks the sort index instead (repository.Config.SearchProbe): both paths
	// give the same answers, so a store without it ignores it.
	SearchProbe       int
	ShortSearchWindow int
	Clock             func(dbNow time.Time) time.Time
	// OnSQL sees every statement the store sends; SQL providers only (Harness.SQL).
	OnSQL        func(sql string)
	WriteTimeout time.Duration
	// Keys seals the protected values; nil takes the process-wide test ring.
	Keys *keyring.Keyring
}

// StoreOpts are o as testfactory takes them: the harnesses open their stores there.
func (o Options) StoreOpts() *testfactory.StoreOpts {
	return &testfactory.StoreOpts{OpenTasksPerTenant: o.OpenTasksPerTenant, TotalCap: o.TotalCap, SearchProbe: o.SearchProbe,
		ShortSearchWindow: o.ShortSearchWindow, Clock: o.Clock, OnSQL: o.OnSQL, WriteTimeout: o.WriteTimeout, Keys: o.Keys}
}

// Harness opens stores of one provider for the suite and reaches behind them where a case
// must (the storage hooks, hooks.go). A nil hook makes the cases that need it not applicable.
type Harness struct {
	// Name of the provider, for messages.
	Name string
	// Open returns a store on a fresh, migrated database; the harness closes and drops it
	// when the test ends.
	Open func(t *testing.T, opts Options) store.Store
	// Reopen closes s and returns a new store on the same database (close and reopen
	// durability).
	Reopen func(t *testing.T, s store.Store, opts Options) store.Store
	// Tamper applies an out-of-band change (Tampering) to the stored records; an error means
	// the provider cannot store that state, and the case is reported not applicable.
	Tamper func(t *testing.T, s store.Store, what Tampering, args ...any) error
	// CountRecords counts the records of a logical storage unit (a table of the logical
	// schema) whose fields equal where's values; a nil value matches an unset field, an empty
	// where counts every record.
	CountRecords func(t *testing.T, s store.Store, unit string, where map[string]any) int
	// CountContaining counts the records of unit whose field, as stored, contains text (the
	// cases look for raw secrets that must never be stored).
	CountContaining func(t *testing.T, s store.Store, unit, field, text string) int
	// CounterStripes returns the tenant's open-task counter stripes as stored.
	CounterStripes func(t *testing.T, s store.Store, tenant string) []int
	// Unsupported, when set, names the options of opts the provider's store cannot honour
	// ("" when it honours them all): the cases that set them are reported not applicable
	// rather than run without them.
	Unsupported func(opts Options) string
	// Differs lists the known differences of the provider: the case (its name below the
	// suite's test, e.g. "RoundTrip/OK") → why it cannot hold there. Only the cases that
	// check h.differs consult it; each one listed is reported not applicable with its reason.
	Differs map[string]string
	// SQL is set by SQL providers only: the statement and query-plan cases need it.
	SQL *SQLHooks

	na *atomic.Int64 // the not-applicable cases of one Run
}

// Run runs every contract case against h and ends with the count of cases that were not
// applicable on the provider (each one is reported where it is skipped).
func Run(t *testing.T, h Harness) {
	h.na = &atomic.Int64{}
	t.Run("RoundTrip", func(t *testing.T) { testRoundTrip(t, h) })
	t.Run("Projection", func(t *testing.T) { testProjection(t, h) })
	t.Run("Mutation", func(t *testing.T) { testMutation(t, h) })
	t.Run("Notifications", func(t *testing.T) { testNotifications(t, h) })
	t.Run("Events", func(t *testing.T) { testEvents(t, h) })
	t.Run("Capacity", func(t *testing.T) { testCapacity(t, h) })
	t.Run("TenantCounter", func(t *testing.T) { testTenantCounter(t, h) })
	t.Run("Statements", func(t *testing.T) { testStatements(t, h) })
	t.Run("ProtectedReads", func(t *testing.T) { testProtectedReads(t, h) })
	t.Run("Leases", func(t *testing.T) { testLeases(t, h) })
	t.Run("WorkerQueries", func(t *testing.T) { testWorkerQueries(t, h) })
	t.Run("Corruption", func(t *testing.T) { testCorruption(t, h) })
	t.Run("Durability", func(t *testing.T) { testDurability(t, h) })
	t.Run("Invitations", func(t *testing.T) { testInvitations(t, h) })
	t.Run("Rekey", func(t *testing.T) { testRekey(t, h) })
	t.Run("InvitationExpiry", func(t *testing.T) { testInvitationExpiry(t, h) })
	t.Run("DeliveryNotify", func(t *testing.T) { testDeliveryNotify(t, h) })
	t.Run("GuestSessions", func(t *testing.T) { testGuestSessions(t, h) })
	t.Run("InvitationRevoke", func(t *testing.T) { testInvitationRevoke(t, h) })
	t.Run("Queries", func(t *testing.T) { testQueries(t, h) })
	t.Run("QueryPlans", func(t *testing.T) { testQueryPlans(t, h) })
	t.Run("WebSessions", func(t *testing.T) { testWebSessions(t, h) })
	t.Run("Dashboard", func(t *testing.T) { testDashboard(t, h) })
	t.Run("WebNotes", func(t *testing.T) { testWebNotes(t, h) })
	t.Run("SavedViews", func(t *testing.T) { testSavedViews(t, h) })
	t.Run("NotificationRows", func(t *testing.T) { testNotificationRows(t, h) })
	t.Run("People", func(t *testing.T) { testPeople(t, h) })
	t.Run("WorkflowChoices", func(t *testing.T) { testWorkflowChoices(t, h) })
	t.Run("Purge", func(t *testing.T) { testPurge(t, h) })
	t.Run("Backlog", func(t *testing.T) { testBacklog(t, h) })
	t.Run("Audit", func(t *testing.T) { testAudit(t, h) })
	t.Run("Comments", func(t *testing.T) { testComments(t, h) })
	t.Run("Attachments", func(t *testing.T) { testAttachments(t, h) })
	t.Run("ActivityCounts", func(t *testing.T) { testActivityCounts(t, h) })
	t.Run("Deadlines", func(t *testing.T) { testDeadlines(t, h) })
	t.Run("DeadlinePlans", func(t *testing.T) { testDeadlinePlans(t, h) })
	t.Run("Delegation", func(t *testing.T) { testDelegation(t, h) })
	t.Run("Absences", func(t *testing.T) { testAbsences(t, h) })
	t.Run("DeadlinePolicies", func(t *testing.T) { testDeadlinePolicies(t, h) })
	t.Run("Substitution", func(t *testing.T) { testSubstitution(t, h) })
	t.Run("SubstituteScope", func(t *testing.T) { testSubstituteScope(t, h) })
	t.Logf("contract suite on %s: %d cases not applicable", h.Name, h.na.Load())
}

// open opens a store through h.Open, or reports the case not applicable when the provider
// cannot honour opts.
func (h Harness) open(t *testing.T, opts Options) store.Store {
	t.Helper()
	h.honours(t, opts)
	return h.Open(t, opts)
}

// reopen reopens s through h.Reopen, or reports the case not applicable when the provider
// cannot honour opts.
func (h Harness) reopen(t *testing.T, s store.Store, opts Options) store.Store {
	t.Helper()
	h.honours(t, opts)
	return h.Reopen(t, s, opts)
}

func (h Harness) honours(t *testing.T, opts Options) {
	t.Helper()
	if h.Unsupported != nil {
		if why := h.Unsupported(opts); why != "" {
			h.notApplicable(t, why)
		}
	}
}

// differs reports the running case not applicable when the provider lists it as a known
// difference (Harness.Differs).
func (h Harness) differs(t *testing.T) {
	t.Helper()
	_, name, _ := strings.Cut(t.Name(), "/")
	if why, ok := h.Differs[name]; ok {
		h.notApplicable(t, "known difference: "+why)
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}
