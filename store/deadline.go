package store

import (
	"context"

	"usertasks/models"
)

// Deadlines keeps the tasks' deadlines (SPEC 10.4): Create writes a projection's deadlines
// with its task; the due sweep walks the due ones and fires each exactly once, on any number
// of nodes.
type Deadlines interface {
	// DueDeadlines pages the pending deadlines of every tenant whose due time has passed by the
	// database clock, by due time, task id and index, after the given key (nil for the first
	// page). It walks an index from the due end, never the open tasks: a settled deadline is
	// never listed again. Deadlines of tasks that were taken or closed are listed too (firing
	// settles them as skipped).
	DueDeadlines(ctx context.Context, limit int, after *models.DeadlineKey) ([]models.Deadline, error)
	// FireDeadline settles deadline index of the task in one transaction at the database clock
	// (models.FireDeadline decides): it marks the deadline fired or skipped only while it is
	// still pending — another sweep that settled it first makes this one fail with
	// Conflict(models.CodeDeadlineSettled) and write nothing — and writes with it the task's
	// change (revision +1 only when the state changed), the event deadline-fired and the
	// escalated notifications. managers are who a notify-managers action tells. A task still in
	// a transitional status answers Conflict(CodeTransitionInProgress) and stays pending.
	FireDeadline(ctx context.Context, tenant, taskID string, index int, managers []models.ParticipantRef) (models.DeadlineFiring, error)
	// TaskDeadlines lists the task's deadlines by index (none is an empty list, never an error).
	TaskDeadlines(ctx context.Context, tenant, taskID string) ([]models.Deadline, error)
}
