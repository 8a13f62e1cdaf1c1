// Package storetest is the store contract suite: written once, run against every dialect
// that can run here. Each case opens a fresh, migrated database through the Harness.
package storetest

import (
	"context"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/repository"
)

// Options tune the store a case opens.
type Options struct {
	OpenTasksPerTenant int
	TotalCap           int
	Clock              func(dbNow time.Time) time.Time
	OnSQL              func(sql string)
	WriteTimeout       time.Duration
	// Keys seals the protected columns; nil takes the process-wide test ring.
	Keys *keyring.Keyring
}

// Harness opens stores of one dialect for the suite.
type Harness struct {
	// Name of the provider, for messages.
	Name string
	// Open returns a store on a fresh, migrated database; the harness closes and drops it
	// when the test ends.
	Open func(t *testing.T, opts Options) *repository.Store
	// Reopen returns a new store on the same database as s (close and reopen durability).
	Reopen func(t *testing.T, s *repository.Store, opts Options) *repository.Store
	// Corrupt runs raw SQL against the store's database, for tampering cases.
	Exec func(t *testing.T, s *repository.Store, sql string, args ...any)
	// QueryInt runs a raw query returning one integer (counts for storage checks).
	QueryInt func(t *testing.T, s *repository.Store, sql string, args ...any) int
	// Explain returns the query plan text of a statement (SQLite EXPLAIN QUERY PLAN,
	// PostgreSQL EXPLAIN); nil where the suite does not check plans.
	Explain func(t *testing.T, s *repository.Store, sql string, args ...any) string
}

// Run runs every contract case against h.
func Run(t *testing.T, h Harness) {
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
	t.Run("WorkflowChoices", func(t *testing.T) { testWorkflowChoices(t, h) })
	t.Run("Purge", func(t *testing.T) { testPurge(t, h) })
	t.Run("Backlog", func(t *testing.T) { testBacklog(t, h) })
	t.Run("Audit", func(t *testing.T) { testAudit(t, h) })
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}
