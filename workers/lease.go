package workers

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"usertasks/models"
	"usertasks/workflow"
)

// LeaseStore takes the named singleton leases of the sweep and the reconciliation.
type LeaseStore interface {
	AcquireLease(ctx context.Context, name, owner string, ttl time.Duration) (models.Lease, error)
	RenewLease(ctx context.Context, name string, l models.Lease, ttl time.Duration) (models.Lease, error)
	ReleaseLease(ctx context.Context, name string, l models.Lease) error
}

// withLease runs fn while this node holds the named singleton lease: it takes the lease for
// ttl, hands fn a renew that extends it by ttl again (call it between pages; an error means
// the lease is lost and another node goes on), and gives the lease back when fn returns, in a
// bookkeeping context so that a cancelled run still releases it. held is false, and fn does
// not run, when another live node holds the lease.
func withLease(ctx context.Context, store LeaseStore, name, owner string, ttl time.Duration, log *slog.Logger,
	fn func(renew func() error) error) (held bool, err error) {
	lease, err := store.AcquireLease(ctx, name, owner, ttl)
	if errors.Is(err, models.ErrLeaseLost) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer func() {
		book, cancel := bookkeeping(ctx)
		defer cancel()
		if err := store.ReleaseLease(book, name, lease); err != nil && !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("release lease", "code", workflow.RuntimeErrorCode(err))
		}
	}()
	renew := func() error {
		var err error
		lease, err = store.RenewLease(ctx, name, lease, ttl)
		return err
	}
	return true, fn(renew)
}
