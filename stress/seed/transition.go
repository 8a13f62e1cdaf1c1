package seed

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// A transitional task is written as the store writes it: the seed runs the model's own
// transition (models.Complete, models.Cancel, models.RequestTimeout) on the claimed task and
// encodes its change with the store's codec, so the accepted operation carries its action key,
// actor, reason, result and, for a completion, the completion data sealed with the key ring the
// server opens it with. The dispatcher builds its stimulus from exactly these (workflow.NewStimulus)
// and the finalization records the task's outcome (models.Finalize); `web audit` checks them
// (resume-stimulus).

// seededForm is the form of the completing tasks, whose completions carry data.
var seededForm = &models.PinnedForm{Key: "decision", Version: "1", Schema: json.RawMessage(
	`{"type":"object","properties":{"approved":{"type":"boolean"},"comment":{"type":"string"}}}`)}

// seededDecision is a completing task's completion data.
var seededDecision = json.RawMessage(`{"approved":true,"comment":"generated decision"}`)

// cancelReason is a cancelling task's reason.
const cancelReason = "no longer needed"

// transitioned is what a transition wrote beside the task's own columns.
type transitioned struct {
	outcome        models.Outcome
	form, data     *string // sealed form and completion data of the task
	transitionedAt time.Time
}

// transition runs the transition into status on the claimed task id (assigned to person at
// claimed, its events up to ev.seq) at `at`, and adds its event, operation and resumption.
func (g *generator) transition(id string, status models.Status, person int, due *time.Time, ev *eventSeq, at time.Time) (transitioned, error) {
	pid, pname := Person(person)
	assignee := models.ParticipantRef{Tenant: g.tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: pid, DisplayName: pname}
	cur := models.Task{ID: id, Tenant: g.tenant, Status: models.StatusAssigned, Assignee: &assignee,
		Actions: models.DefaultActions(), TimeoutEnabled: status == models.StatusTimingOut, CancellationEnabled: true, DueAt: due,
		Revision: ev.seq, LastEventSeq: ev.seq}
	cmd := models.Command{OperationID: models.NewID(), ExpectedRevision: cur.Revision}
	var ch models.Change
	var err error
	switch status {
	case models.StatusCompleting:
		cur.Protected.Form = seededForm
		cmd.Actor = models.Actor{Tenant: g.tenant, Subject: assignee}
		ch, err = models.Complete(cur, cmd, models.ActionComplete, seededDecision, at)
	case models.StatusCancelling:
		mid, mname := Person((person + 1) % People)
		cmd.Actor = models.Actor{Tenant: g.tenant, Manager: true, Subject: models.ParticipantRef{Tenant: g.tenant,
			Provider: models.DefaultProvider, Type: models.UserParticipant, ID: mid, DisplayName: mname}}
		ch, err = models.Cancel(cur, cmd, cancelReason, at)
	case models.StatusTimingOut:
		ch, err = models.RequestTimeout(cur, at)
	default:
		err = fmt.Errorf("seed: %s is not a transitional status", status)
	}
	if err != nil {
		return transitioned{}, fmt.Errorf("seed: task %s into %s: %w", id, status, err)
	}
	c := g.codec
	op, err := c.OperationRow(ch.Operation)
	if err != nil {
		return transitioned{}, err
	}
	out := transitioned{outcome: ch.Task.Outcome, transitionedAt: *ch.Task.TransitionedAt}
	if out.form, err = c.SealProtected(&ch.Task, storekit.ColForm); err != nil {
		return transitioned{}, err
	}
	if out.data, err = c.SealProtected(&ch.Task, storekit.ColCompletionData); err != nil {
		return transitioned{}, err
	}
	ev.addRow(c.EventRow(ch.Event))
	g.addOperation(op)
	r := c.ResumptionRow(ch.Resumption)
	g.resumes.add(r.ID, r.TenantID, r.TaskID, r.OperationID, r.Kind, r.State, r.Attempts, r.AvailableAt, r.LeaseGeneration,
		r.CreatedAt, r.UpdatedAt)
	g.res.Backlog++
	return out, nil
}

// null is p bound as a column value: NULL for nil.
func null(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// markOverdue flags the open task id (in status, assigned to assignee or nil, its events up to
// ev.seq) overdue at `at`, as the due sweep does for a task whose timeout is disabled
// (models.MarkOverdue): its overdue event and completed operation. The seeded open tasks have
// their timeout disabled, so a server's due sweep finds nothing to time out on them.
func (g *generator) markOverdue(id string, status models.Status, assignee *models.ParticipantRef, due time.Time, ev *eventSeq, at time.Time) error {
	cur := models.Task{ID: id, Tenant: g.tenant, Status: status, Assignee: assignee, Actions: models.DefaultActions(),
		CancellationEnabled: true, DueAt: &due, Revision: ev.seq, LastEventSeq: ev.seq}
	ch, err := models.MarkOverdue(cur, at)
	if err != nil {
		return fmt.Errorf("seed: flag task %s overdue: %w", id, err)
	}
	op, err := g.codec.OperationRow(ch.Operation)
	if err != nil {
		return err
	}
	ev.addRow(g.codec.EventRow(ch.Event))
	g.addOperation(op)
	return nil
}

// addOperation adds an operation row.
func (g *generator) addOperation(op storekit.OperationRow) {
	g.ops.add(op.ID, op.TenantID, op.TaskID, op.OperationID, op.Kind, op.ExpectedRevision, op.RequestHash, op.State,
		op.Attempts, op.CreatedAt, op.UpdatedAt, null(op.ActionKey), null(op.Reason), null(op.ActorProvider), null(op.ActorType),
		null(op.ActorID), null(op.ActorDisplay), null(op.ResultJSON), null(op.PayloadEnc), nullTime(op.CompletedAt))
}

// nullTime is p bound as a column value: NULL for nil.
func nullTime(p *time.Time) any {
	if p == nil {
		return nil
	}
	return *p
}
