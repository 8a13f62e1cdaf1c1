package models

import "time"

// UpdateSchedule changes an open task's priority and due date (SPEC 3.3 `schedule-updated`);
// managers only. priority nil keeps the priority; dueAt sets the due date; clearDue removes it.
// Moving the due date into the future (or clearing it) clears IsOverdue; the due sweep flags a
// task again if its new due date has passed.
func UpdateSchedule(t Task, cmd Command, priority *int, dueAt *time.Time, clearDue bool, now time.Time) (Change, error) {
	var due *time.Time
	if dueAt != nil {
		d := dueAt.UTC()
		due = &d
	}
	cmd, err := start(t, cmd, OpScheduleUpdate, map[string]any{"priority": priority, "dueAt": due, "clearDue": clearDue}, manages)
	if err != nil {
		return Change{}, err
	}
	var pr problems
	pr.operationID(cmd.OperationID, false)
	pr.priority(priority)
	switch {
	case due != nil && clearDue:
		pr.fail("dueAt", "cannot be set and cleared at once")
	case due != nil && due.IsZero():
		pr.fail("dueAt", "must be a time")
	case priority == nil && due == nil && !clearDue:
		pr.fail("priority", "priority or dueAt is required")
	}
	if replay, err := admitOpen(t, cmd, &pr); err != nil || replay != nil {
		return Change{Replay: replay}, err
	}

	next := cloneTask(t)
	if priority != nil {
		next.Priority = *priority
	}
	switch {
	case clearDue:
		next.DueAt = nil
		next.IsOverdue = false
	case due != nil:
		next.DueAt = due
		if due.After(now) {
			next.IsOverdue = false
		}
	}
	return commitCommand(t, next, cmd, transition{
		event:    EventScheduleUpdated,
		state:    OperationCompleted,
		metadata: map[string]any{"priority": next.Priority, "dueAt": next.DueAt},
	}, now)
}
