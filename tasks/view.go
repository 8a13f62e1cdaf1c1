package tasks

import "usertasks/models"

// TaskView is a task as one actor may see it: the summary fields are always safe; Relation,
// AllowedActions and Disclosure are computed for that actor. Task.Protected is empty except in
// a Detail, which fills in what the actor may read.
type TaskView struct {
	Task           models.Task
	Relation       models.Relation
	AllowedActions []string
	Disclosure     models.Disclosure
	// Manager is true when the viewer is a manager (health codes are shown to managers only).
	Manager bool
	// Attention says why the needs-attention list holds the task (that list's items only).
	Attention []models.AttentionReason
}

// viewOf is t as a sees it. Relation, actions and disclosure are decided on the whole task, but
// the view carries none of its protected content: command results and list items never need it,
// and Detail adds back only what the caller may see, masked members removed.
func viewOf(t models.Task, a models.Actor, pastActor bool) TaskView {
	r := models.Relate(t, a, pastActor)
	v := TaskView{
		Task:           t,
		Relation:       r,
		AllowedActions: models.AllowedActions(t, a, r),
		Disclosure:     models.Disclose(t, a, r),
		Manager:        r.Manager,
	}
	v.Task.Protected = models.Protected{}
	return v
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
