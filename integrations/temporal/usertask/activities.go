package usertask

import (
	"context"
	"errors"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
)

// Activities project and remove bookmarks for Await; register them on every worker that runs
// workflows calling Await.
type Activities struct {
	Client *Client
}

// Register adds the activities to a worker under the names Await calls.
func Register(w worker.Registry, a *Activities) {
	w.RegisterActivityWithOptions(a.Project, activity.RegisterOptions{Name: ProjectActivity})
	w.RegisterActivityWithOptions(a.Remove, activity.RegisterOptions{Name: RemoveActivity})
}

// Project posts the bookmark; User Tasks answers a repeat with the existing task, so a retried
// activity projects once.
func (a *Activities) Project(ctx context.Context, p Projection) (ProjectionResult, error) {
	r, err := a.Client.Project(ctx, p)
	return r, final(err)
}

// Remove removes the bookmark, finalizing its task.
func (a *Activities) Remove(ctx context.Context, bookmarkID string) error {
	return final(a.Client.Remove(ctx, bookmarkID))
}

// final makes a refusal non-retryable: User Tasks would refuse the same call again.
func final(err error) error {
	var r *refusal
	if errors.As(err, &r) {
		return temporal.NewNonRetryableApplicationError(r.Error(), "usertasks-refused", nil)
	}
	return err
}
