package store

import (
	"context"
	"time"

	"usertasks/models"
)

// Outbox is the worker side of the workflow-resumption outbox: claims under a lease, and the
// acknowledgement or retry of each claimed resumption.
type Outbox interface {
	ClaimResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Resumption, error)
	AckResumption(ctx context.Context, r models.Resumption) error
	RetryResumption(ctx context.Context, r models.Resumption, delay time.Duration, errCode string) (int, error)
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
	// FoldDailyStats folds the daily rollup's stripes of closed days into one and returns how
	// many it folded (the due sweep calls it, at most once per workers.FoldEvery).
	FoldDailyStats(ctx context.Context) (int, error)
}

// Workers are the background workers' leases and the runs they record.
type Workers interface {
	AcquireLease(ctx context.Context, name, owner string, ttl time.Duration) (models.Lease, error)
	RenewLease(ctx context.Context, name string, l models.Lease, ttl time.Duration) (models.Lease, error)
	ReleaseLease(ctx context.Context, name string, l models.Lease) error
	RecordWorkerRuns(ctx context.Context, runs []models.WorkerRun) error
	WorkerRuns(ctx context.Context, tenant string, worker models.Worker, limit int) ([]models.WorkerRun, error)
}
