package tasks

import "usertasks/models"

// CommandObserver hears the outcome of every command (the metrics count them by kind and
// outcome). It is told after the command answered, refusals included, and must not block.
type CommandObserver interface {
	Command(kind models.OperationKind, replayed bool, err error)
}

// observe tells the observer about one command; each command defers it first thing, so a 403
// before anything is loaded counts as well as a conflict in the transaction.
func (s *Service) observe(kind models.OperationKind, res *Result, err *error) {
	if s.commands != nil {
		s.commands.Command(kind, res.Replayed, *err)
	}
}
