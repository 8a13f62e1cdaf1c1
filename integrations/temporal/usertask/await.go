package usertask

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Activity names, registered by Register.
const (
	ProjectActivity = "usertasks.Project"
	RemoveActivity  = "usertasks.Remove"
)

// activityOptions: projection and removal are idempotent in User Tasks, so they are retried
// until they succeed or User Tasks refuses them for good (a non-retryable error).
var activityOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 30 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    time.Minute,
	},
}

// Await projects def as a user task and blocks the workflow until a person decides. It
// returns the decision; an *EndedError matching ErrTimedOut or ErrCancelled when the task ended
// without one; or the workflow's cancellation, after which the task is removed (it ends
// Cancelled in User Tasks).
//
// While it waits, the workflow's memo holds the step's projection under MemoKey(def.Step): the
// runtime endpoint answers User Tasks' reconciliation from it.
func Await(ctx workflow.Context, def Definition) (Outcome, error) {
	info := workflow.GetInfo(ctx)
	p, err := def.projection(info.WorkflowType.Name, info.WorkflowExecution.ID, info.WorkflowExecution.RunID)
	if err != nil {
		return Outcome{}, temporal.NewNonRetryableApplicationError(err.Error(), "usertask-definition", err)
	}
	if err := workflow.UpsertMemo(ctx, map[string]any{MemoKey(def.Step): p}); err != nil {
		return Outcome{}, err
	}
	actx := workflow.WithActivityOptions(ctx, activityOptions)
	if err := workflow.ExecuteActivity(actx, ProjectActivity, p).Get(ctx, nil); err != nil {
		clearMemo(ctx, def.Step)
		return Outcome{}, err
	}

	var s Stimulus
	decided := false
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(workflow.GetSignalChannel(ctx, SignalName(def.Step)), func(c workflow.ReceiveChannel, _ bool) {
		c.Receive(ctx, &s)
		decided = true
	})
	sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {})
	sel.Select(ctx)
	resumed := workflow.Now(ctx)

	// The bookmark is removed either way: after a decision that finalizes the task (the runtime
	// resumed); after the workflow's cancellation it cancels an open task. Removal outlives the
	// workflow's cancellation, hence the disconnected context.
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	clearMemo(dctx, def.Step)
	removeErr := workflow.ExecuteActivity(workflow.WithActivityOptions(dctx, activityOptions), RemoveActivity, p.BookmarkID).Get(dctx, nil)
	if removeErr != nil {
		// The decision stands (or the cancellation); reconciliation finalizes the task later.
		workflow.GetLogger(ctx).Warn("usertask: removing the bookmark failed", "step", def.Step, "error", removeErr)
	}
	if !decided {
		return Outcome{}, ctx.Err()
	}
	o, err := s.result()
	o.ResumedAt = resumed
	return o, err
}

// clearMemo drops the step's memo entry (a nil value deletes the key).
func clearMemo(ctx workflow.Context, step string) {
	if err := workflow.UpsertMemo(ctx, map[string]any{MemoKey(step): nil}); err != nil {
		workflow.GetLogger(ctx).Warn("usertask: clearing the memo failed", "step", step, "error", err)
	}
}
