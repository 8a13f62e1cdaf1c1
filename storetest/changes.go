package storetest

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// The store cases drive the store with small hand-made changes so that they test storage, not
// the lifecycle rules (models has its own tests for those).

// BumpAt changes the task only if it is still at revision expected, as every real command does.
func BumpAt(expected int, opID, hash string) models.MutateFunc {
	inner := Bump(opID, hash)
	return func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		if prior == nil && t.Revision != expected {
			return models.Change{}, models.Conflict(models.CodeRevisionConflict)
		}
		return inner(now, t, prior)
	}
}

// transitionReusingOutboxID is transition to Completing whose outbox row reuses the primary
// key outboxID of an existing row: the last insert of the unit fails after the task row was
// updated, so the whole unit must roll back.
func transitionReusingOutboxID(opID, outboxID string) models.MutateFunc {
	return func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		c, err := transition(models.StatusCompleting, opID)(now, t, prior)
		c.Resumption.ID = outboxID
		return c, err
	}
}

// transition returns a change that moves the task to status with the rows a real transition
// writes: the event, the operation (accepted for transitional statuses), the outbox row for a
// transitional status, and finalization for a terminal one.
func transition(to models.Status, opID string) models.MutateFunc {
	return func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		if prior != nil {
			return models.Change{Replay: prior}, nil
		}
		from := t.Status
		expected := t.Revision
		t.Status = to
		t.Revision++
		t.LastEventSeq++
		t.UpdatedAt = now
		if opID == "" {
			opID = models.NewID()
		}
		c := models.Change{Task: t, ExpectedRevision: expected}
		c.Event = &models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: t.LastEventSeq, Revision: t.Revision,
			Type: models.EventType("status-" + string(to)), OccurredAt: now, OperationID: opID}
		switch {
		case to.IsTransitional():
			c.Task.TransitionedAt = &now
			c.Task.Outcome.ActionKey = models.ActionComplete
			c.Task.Protected.CompletionData = json.RawMessage(`{"approved":true}`)
			c.Operation = &models.Operation{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, OperationID: opID,
				Kind: models.OpComplete, ExpectedRevision: expected, RequestHash: "h-" + opID, State: models.OperationAccepted,
				Attempts: 1, CreatedAt: now, UpdatedAt: now, ActionKey: models.ActionComplete,
				Result:  json.RawMessage(fmt.Sprintf(`{"status":"accepted","revision":%d}`, t.Revision)),
				Payload: json.RawMessage(`{"approved":true}`)}
			c.Resumption = &models.Resumption{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, OperationID: opID,
				Kind: models.OpComplete, State: models.DeliveryPending, AvailableAt: now, CreatedAt: now, UpdatedAt: now}
		case to.IsTerminal():
			c.Task.CompletedAt = &now
			c.Finalize = true
		case to == models.StatusAssigned && from != models.StatusAssigned:
			c.Task.AssignedAt = &now
		}
		return c, nil
	}
}
