package models

import "time"

// Conflict codes only the due sweep sees: it skips a task that answers with ErrConflict, so a
// stale page never writes anything twice. They are not part of the HTTP error vocabulary.
const (
	// CodeNotDue: the task has no due date, or it has not passed.
	CodeNotDue Code = "not-due"
	// CodeAlreadyOverdue: the task was flagged overdue before.
	CodeAlreadyOverdue Code = "already-overdue"
)

// isDue reports whether t's due date has passed at now (a due date equal to now has passed).
func isDue(t Task, now time.Time) bool { return t.DueAt != nil && !t.DueAt.After(now) }

// RequestTimeout times out an open task whose due date passed and whose timeout is enabled
// (SPEC 3.3 `timeout-requested`): TimingOut, an accepted timeout operation with a minted id and a
// pending resumption row carrying the Timeout action.
//
// Refusals: terminal / transition-in-progress conflicts; Conflict(CodeNotDue) when there is no
// due date or it has not passed (the sweep's page is stale — skip it); a validation-failed error
// naming timeoutEnabled when the timeout is disabled (the sweep must call MarkOverdue instead).
func RequestTimeout(t Task, now time.Time) (Change, error) {
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	if err := requireOpen(t); err != nil {
		return Change{}, err
	}
	if !t.TimeoutEnabled {
		return Change{}, InvalidField("timeoutEnabled", "timeout is disabled; mark the task overdue instead")
	}
	if !isDue(t, now) {
		return Change{}, Conflict(CodeNotDue)
	}

	next := cloneTask(t)
	next.Status = StatusTimingOut
	next.TransitionedAt = clonePtr(&now)
	next.Outcome = Outcome{ActionKey: ActionTimeout}
	return commit(t, next, transition{
		kind:        OpTimeout,
		event:       EventTimeoutRequested,
		state:       OperationAccepted,
		requestHash: RequestHash(OpTimeout, t.Revision, map[string]any{"dueAt": t.DueAt}),
		actionKey:   ActionTimeout,
	}, now)
}

// MarkOverdue flags an open task whose due date passed and whose timeout is disabled (SPEC 3.3
// `overdue`), once.
//
// Refusals: terminal / transition-in-progress conflicts; Conflict(CodeAlreadyOverdue) when the
// flag is set; Conflict(CodeNotDue) when there is no due date or it has not passed; a
// validation-failed error naming timeoutEnabled when the timeout is enabled (call RequestTimeout).
func MarkOverdue(t Task, now time.Time) (Change, error) {
	if err := checkStored(t); err != nil {
		return Change{}, err
	}
	if err := requireOpen(t); err != nil {
		return Change{}, err
	}
	if t.TimeoutEnabled {
		return Change{}, InvalidField("timeoutEnabled", "timeout is enabled; request the timeout instead")
	}
	if t.IsOverdue {
		return Change{}, Conflict(CodeAlreadyOverdue)
	}
	if !isDue(t, now) {
		return Change{}, Conflict(CodeNotDue)
	}

	next := cloneTask(t)
	next.IsOverdue = true
	return commit(t, next, transition{
		kind:        OpMarkOverdue,
		event:       EventOverdue,
		state:       OperationCompleted,
		requestHash: RequestHash(OpMarkOverdue, t.Revision, map[string]any{"dueAt": t.DueAt}),
		metadata:    map[string]any{"dueAt": t.DueAt},
	}, now)
}
