package tasks

import "usertasks/models"

// TaskView is a task as one actor may see it: the summary fields are always safe; Relation,
// AllowedActions and Disclosure are computed for that actor.
type TaskView struct {
	Task           models.Task
	Relation       models.Relation
	AllowedActions []string
	Disclosure     models.Disclosure
	// Manager is true when the viewer is a manager (health codes are shown to managers only).
	Manager bool
}

func viewOf(t models.Task, a models.Actor, pastActor bool) TaskView {
	r := models.Relate(t, a, pastActor)
	return TaskView{
		Task:           t,
		Relation:       r,
		AllowedActions: models.AllowedActions(t, a, r),
		Disclosure:     models.Disclose(t, a, r),
		Manager:        r.Manager,
	}
}

// Result answers a command: {operationId, status, revision, task}.
type Result struct {
	OperationID string
	// Status is "accepted" when the workflow still has to acknowledge (complete, cancel,
	// timeout) and "completed" otherwise.
	Status   string
	Revision int
	Task     TaskView
	// Replayed is true when the answer repeats a stored operation.
	Replayed bool
}
