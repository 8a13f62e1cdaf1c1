package tasks

import (
	"context"

	"usertasks/models"
)

// CommandObserver hears the outcome of every command (the metrics count them by kind and
// outcome). It is told after the command answered, refusals included, and must not block.
type CommandObserver interface {
	Command(kind models.OperationKind, replayed bool, err error)
}

// CommandTracer gives every command a span (the tracing package): the store's transaction
// becomes its child through the returned context. It is given the kind only, never the task.
type CommandTracer interface {
	StartCommand(ctx context.Context, kind models.OperationKind) (context.Context, func(replayed bool, err error))
}

// observe starts a command: the returned context carries its span, when tracing, and the
// returned function, deferred first thing, tells the tracer and the observer how it ended, so
// a 403 before anything is loaded counts as well as a conflict in the transaction.
func (s *Service) observe(ctx context.Context, kind models.OperationKind) (context.Context, func(res *Result, err *error)) {
	var traced func(bool, error)
	if s.tracer != nil {
		ctx, traced = s.tracer.StartCommand(ctx, kind)
	}
	return ctx, func(res *Result, err *error) {
		if traced != nil {
			traced(res.Replayed, *err)
		}
		if s.commands != nil {
			s.commands.Command(kind, res.Replayed, *err)
		}
	}
}
