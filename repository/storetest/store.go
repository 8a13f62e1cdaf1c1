package storetest

import (
	"context"
	"time"

	"usertasks/models"
)

// Store is what the contract suite calls on a store: exactly the methods its cases use, with the
// signatures of repository.Store, so the suite runs unchanged against any store that has them
// — the SQL store on every dialect, and the document store (docstore) on the MongoDB API. Its
// types come from models (models/store_contract.go), so a store on the same floor as repository
// can implement it without importing repository. The SQL harness
// (repository/storetest/sqlharness) asserts that repository.Store satisfies it. Its core, Tasks,
// is what every store has; the rest is grouped by what it serves (Health, Lists, Dashboards …),
// and each case asks for the core plus the groups it calls (openAs), so a store that grows one
// group at a time runs every case its groups cover.
//
// Opening, closing and reopening a store are the harness's (Harness.Open, Harness.Reopen), and
// whatever a case must do to the stored records behind the store's back — corrupt them, count
// them, look for a raw secret — goes through the harness's storage hooks (hooks.go), never
// through this interface.
type Store interface {
	Tasks
	Health
	Lists
	Dashboards
	Resumptions
	Guests
	ChangeNotifier
	Workers
	Sweeps
	WebSessions
	SavedViews
	Counters
	Operations
}

// Health of a task.
type Health interface {
	SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error
	ClearHealth(ctx context.Context, tenant, taskID, code string) error
}

// Lists are the task lists and the workflows they can be filtered by.
type Lists interface {
	Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error)
	WorkflowChoices(ctx context.Context, f models.TaskFilter, limit int) ([]models.WorkflowChoice, error)
}

// Dashboards are the managers' counts.
type Dashboards interface {
	Backlog(ctx context.Context) (models.Backlog, error)
	DashboardCounts(ctx context.Context, tenant string, staleAfter time.Duration) (models.DashboardCounts, error)
	DailyRollup(ctx context.Context, tenant, fromDay string) (models.Rollup, error)
}

// Resumptions is the workflow-resumption outbox's worker side.
type Resumptions interface {
	ClaimResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Resumption, error)
	AckResumption(ctx context.Context, r models.Resumption) error
	RetryResumption(ctx context.Context, r models.Resumption, delay time.Duration, errCode string) (int, error)
}

// Guests are invitations, their sealed deliveries, verification and guest sessions.
type Guests interface {
	IssueInvitation(ctx context.Context, tenant, taskID string, build models.IssueFunc) (models.Invitation, error)
	Invitations(ctx context.Context, tenant, taskID string) ([]models.Invitation, error)
	InvitationDeliveries(ctx context.Context, tenant, taskID string) ([]models.Delivery, error)
	FindInvitationByTokenHash(ctx context.Context, tokenHash string) (models.Invitation, error)
	RevokeInvitation(ctx context.Context, tenant, taskID, invitationID string, build models.RevokeFunc) (models.Invitation, error)
	ConsumeInvitation(ctx context.Context, tenant, invitationID string) error
	ExpireInvitations(ctx context.Context, limit int) (map[string]int, error)
	ClaimDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Delivery, error)
	AckDelivery(ctx context.Context, d models.Delivery) error
	RetryDelivery(ctx context.Context, d models.Delivery, delay time.Duration, errCode string, abandon bool) (int, error)
	VerifyInvitation(ctx context.Context, v models.GuestVerification) (models.GuestSession, error)
	GuestAccess(ctx context.Context, tokenHash string) (models.GuestAccess, error)
	// NotifyDeliveries sets the hook told after a commit that queued deliveries.
	NotifyDeliveries(fn func())
}

// ChangeNotifier is the hook told about each committed change of a task.
type ChangeNotifier interface {
	NotifyChanges(n models.ChangeNotifier)
}

// Workers are the background workers' leases and the runs they record.
type Workers interface {
	AcquireLease(ctx context.Context, name, owner string, ttl time.Duration) (models.Lease, error)
	RenewLease(ctx context.Context, name string, l models.Lease, ttl time.Duration) (models.Lease, error)
	ReleaseLease(ctx context.Context, name string, l models.Lease) error
	RecordWorkerRuns(ctx context.Context, runs []models.WorkerRun) error
	WorkerRuns(ctx context.Context, tenant string, worker models.Worker, limit int) ([]models.WorkerRun, error)
}

// Sweeps are the background workers' reads and small writes beyond the outbox claims: the due
// sweep, reconciliation, the tenants they visit, and a resumption's requeue, release and settle.
type Sweeps interface {
	DueTasks(ctx context.Context, limit int, after *models.Task) ([]models.Task, error)
	ReconcileTasks(ctx context.Context, tenant string, skipTouchedWithin time.Duration, afterID string, limit int) ([]models.Task, error)
	KnownBookmarks(ctx context.Context, tenant string, bookmarkIDs []string) (map[string]bool, error)
	Tenants(ctx context.Context) ([]string, error)
	AcceptedOperation(ctx context.Context, tenant, taskID string) (*models.Operation, error)
	RequeueResumption(ctx context.Context, tenant, taskID, operationID string) (bool, error)
	ReleaseResumption(ctx context.Context, r models.Resumption) error
	SettleResumption(ctx context.Context, r models.Resumption) error
}

// WebSessions are browser sessions and their notes.
type WebSessions interface {
	CreateWebSession(ctx context.Context, ws models.WebSession, lifetime time.Duration) (models.WebSession, error)
	WebSession(ctx context.Context, idHash string) (models.WebSession, error)
	UpdateWebSessionIdentity(ctx context.Context, idHash string, id models.WebIdentity, tokens models.WebTokens) error
	SetWebSessionTimeZone(ctx context.Context, idHash, zone string) error
	DeleteWebSession(ctx context.Context, idHash string) error
	EndWebSession(ctx context.Context, idHash string) (models.WebSession, error)
	EndSubjectWebSessions(ctx context.Context, tenant, provider, subject string) ([]models.WebSession, error)
	PurgeWebSessions(ctx context.Context) (int64, error)
	SaveWebNote(ctx context.Context, sessionHash string, body []byte, lifetime time.Duration) (string, error)
	WebNote(ctx context.Context, sessionHash, id string) ([]byte, error)
	PurgeWebNotes(ctx context.Context) (int64, error)
}

// SavedViews are the inbox's saved views.
type SavedViews interface {
	CreateSavedView(ctx context.Context, v models.SavedView) (models.SavedView, error)
	SavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
	SavedViews(ctx context.Context, a models.Actor) ([]models.SavedView, error)
	RenameSavedView(ctx context.Context, a models.Actor, id, name string) (models.SavedView, error)
	DeleteSavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
}

// Counters audit the tenant's open-task counter against its open tasks; a store can have it
// before the rest of Operations (the document store does).
type Counters interface {
	AuditTenantCounters(ctx context.Context, tenant string) ([]models.AuditFinding, error)
}

// Operations are audit, key rotation and retention purge.
type Operations interface {
	Audit(ctx context.Context, f models.AuditFilter, size int) (models.AuditPage, error)
	AuditSealed(ctx context.Context, table, after string, limit int) (models.KeyPage, error)
	RekeyPage(ctx context.Context, table string, after string, limit int, dryRun bool) (models.KeyPage, error)
	Purge(ctx context.Context, tenant string, p models.RetentionPolicy, progress func(models.PurgeCounts)) (models.PurgeCounts, error)
}

// Tasks is the core of Store: the task aggregate — creation, reads, mutations, events,
// operations and the resumptions a mutation queues. Harness.Open returns it, because a store may
// have only this much and some of the groups (the document store, as it grows); a case that
// needs more opens it through openAs and is reported not applicable on a store without it.
type Tasks interface {
	Now(ctx context.Context) (time.Time, error)
	Create(ctx context.Context, tenant, materializationKey, bookmarkID string, build models.BuildFunc) (models.Task, bool, error)
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	FindByMaterializationKey(ctx context.Context, tenant, key string) (models.Task, error)
	FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error)
	Mutate(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc) (models.Change, error)
	AppendEvent(ctx context.Context, tenant, taskID string, build models.AppendFunc) (models.Event, error)
	Events(ctx context.Context, tenant, taskID string, afterSeq, limit int) ([]models.Event, error)
	Operation(ctx context.Context, tenant, taskID, opID string) (models.Operation, error)
	Resumptions(ctx context.Context, tenant, taskID string) ([]models.Resumption, error)
}

// The groups each case calls beside the core (openAs); audit, backlog, purge and capacity call
// across all of them and take the whole Store.
type (
	listStore interface {
		Tasks
		Lists
	}
	notifyStore interface {
		Tasks
		Health
		ChangeNotifier
	}
	dashboardStore interface {
		Tasks
		Dashboards
		Workers
	}
	dashboardCountStore interface {
		Tasks
		Dashboards
	}
	leaseStore interface {
		Tasks
		Resumptions
		Workers
	}
	sweepStore interface {
		Tasks
		Health
		Resumptions
		Sweeps
	}
	guestStore interface {
		Tasks
		Guests
	}
	expiryStore interface {
		Tasks
		Guests
	}
	rekeyStore interface {
		Tasks
		Guests
		Operations
	}
	opsStore interface {
		Tasks
		Counters
		Operations
	}
	counterStore interface {
		Tasks
		Counters
	}
	savedViewStore interface {
		Tasks
		SavedViews
	}
	webStore interface {
		Tasks
		WebSessions
	}
)
