package notify

import (
	"context"

	"usertasks/models"
)

// writeGate lets at most cap(gate) of the worker's store writes run at once, whatever its
// parallelism: the rows of a batch are read, checked and sent Parallel at a time, but on a
// store with one writer (SQLite) every write waits in one queue with the writes of the
// requests the service answers meanwhile (a projection, a claim), and each write of the
// worker's waiting there is one more ahead of them.
type writeGate struct {
	Store
	gate chan struct{}
}

func (g writeGate) write(ctx context.Context, fn func() error) error {
	select {
	case g.gate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-g.gate }()
	return fn()
}

func (g writeGate) SettleNotification(ctx context.Context, n models.Notification, out models.NotificationOutcome) error {
	return g.write(ctx, func() error { return g.Store.SettleNotification(ctx, n, out) })
}

func (g writeGate) ExpandNotification(ctx context.Context, group models.Notification, members []models.Notification) (int, error) {
	var written int
	err := g.write(ctx, func() (err error) {
		written, err = g.Store.ExpandNotification(ctx, group, members)
		return err
	})
	return written, err
}

func (g writeGate) SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error {
	return g.write(ctx, func() error { return g.Store.SetHealth(ctx, tenant, taskID, h) })
}

func (g writeGate) ClearHealth(ctx context.Context, tenant, taskID, code string) error {
	return g.write(ctx, func() error { return g.Store.ClearHealth(ctx, tenant, taskID, code) })
}
