// Package store is the store contract: the one definition of what a task store does, declared
// once and grouped by concern, with the types its signatures use beyond the domain's. The SQL
// store (repository, five dialects) and the document store (docstore, the MongoDB API) each
// implement the whole of Store; the contract suite (storetest) runs the same cases on both.
//
// Consumers keep declaring the small interface they need (workers.DispatchStore,
// tasks.InboxStore …); each is a subset of Store, which cmd/web checks when it hands its one
// store.Store to every part. What both stores decide alike lives once in storekit; the drivers
// keep loading, saving, claiming, querying and their transactions.
//
// Errors: the store answers with the domain's sentinels (models.ErrNotFound, ErrConflict,
// ErrBusy, ErrCorrupt, ErrCapacity, ErrLeaseLost, …), which the HTTP layer maps once; the
// store-only ones are declared here (errors.go).
package store

import "context"

// Store is the whole contract. A method added to a store is added to one of its groups, its
// shared rules to storekit, and a driver change to each of repository and docstore.
type Store interface {
	Lifecycle
	Tasks
	Health
	Changes
	Lists
	Dashboards
	Outbox
	Sweeps
	Workers
	Guests
	WebSessions
	SavedViews
	Notifications
	People
	Operations
	Comments
	Attachments
	Activity
	Deadlines
	Absences
	DeadlinePolicies
}

// Lifecycle is the store as a connection: readiness, the schema check and closing.
type Lifecycle interface {
	// Ping answers whether the database is reachable now.
	Ping(ctx context.Context) error
	// CheckSchema fails unless the database's schema is this binary's (migrations.ErrPending
	// when it is behind).
	CheckSchema(ctx context.Context) error
	Close() error
}
