package models

import "time"

// Finalize closes a task whose bookmark the runtime removed (SPEC 3.3 "bookmark removed"):
// Completing → Completed, TimingOut → TimedOut, Cancelling → Cancelled, and any open status →
// Cancelled with the Cancelled action and no completer. The change sets Finalize so the store
// flips the accepted operation to completed and settles the outbox rows. Health is cleared: a
// closed task needs no attention.
//
// An already terminal task answers Conflict(CodeTerminal); repeated removals treat it as harmless.
func Finalize(t Task, now time.Time) (Change, error) {
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	next := cloneTask(t)
	var event EventType
	switch t.Status {
	case StatusCompleting:
		next.Status, event = StatusCompleted, EventCompleted
	case StatusTimingOut:
		next.Status, event = StatusTimedOut, EventTimedOut
	case StatusCancelling:
		next.Status, event = StatusCancelled, EventCancelled
	case StatusUnassigned, StatusAvailable, StatusAssigned:
		next.Status, event = StatusCancelled, EventCancelled
		next.Outcome = Outcome{ActionKey: ActionCancelled}
	default:
		return Change{}, Conflict(CodeTerminal)
	}
	next.CompletedAt = clonePtr(&now)
	next.Health = Health{}
	ch, err := commit(t, next, transition{
		kind:        OpFinalize,
		event:       event,
		state:       OperationCompleted,
		requestHash: RequestHash(OpFinalize, t.Revision, map[string]string{"bookmarkId": t.Workflow.BookmarkID}),
		actionKey:   next.Outcome.ActionKey,
		metadata:    map[string]string{"actionKey": next.Outcome.ActionKey},
	}, now)
	if err != nil {
		return Change{}, err
	}
	ch.Finalize = true
	return ch, nil
}
