package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/models"
	"usertasks/storekit"
)

// Mutate applies one command, as repository.Store.Mutate does: it reads the aggregate, runs the
// decision on it at the database time, and writes the task, its event, operation and outbox
// entry with one claimed write (commit). A write that loses the version claim re-reads and
// decides again on the winner's state, which is what the SQL store's row lock gives its waiting
// writers: a stale expected revision then fails with revision-conflict, a command of the same
// operation id replays the winner's answer, and an event appended meanwhile (which moves the
// version, not the revision) just makes the decision run again. As on SQL, a command with an
// operation id that still ends in a revision conflict is decided once more on fresh state.
func (s *Store) Mutate(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc) (models.Change, error) {
	change, err := s.mutateOnce(ctx, tenant, taskID, operationID, decide)
	if operationID != "" && models.ErrorCode(err) == models.CodeRevisionConflict {
		change, err = s.mutateOnce(ctx, tenant, taskID, operationID, decide)
	}
	if err == nil && change.Replay == nil {
		s.changed(tenant, taskID, change.Task.Revision)
	}
	return change, err
}

func (s *Store) mutateOnce(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc) (models.Change, error) {
	parts := models.ProtectedReads(ctx)
	var change models.Change
	err := s.write(ctx, tenant, taskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		before, err := s.fromDoc(cur, parts)
		if err != nil {
			return nil, err
		}
		prior, err := s.findOperation(ctx, cur, operationID)
		if err != nil {
			return nil, err
		}
		if change, err = decide(now, before, prior); err != nil || change.Replay != nil {
			return nil, err
		}
		// An assignment to an absent user goes to the substitute (SPEC 10.5).
		if err := storekit.ApplySubstitution(&before, &change, now, s.absencesFor(ctx)); err != nil {
			return nil, err
		}
		next, err := s.applyChange(cur, &before, &change, now)
		if err != nil {
			return nil, err
		}
		// Before the write: a resumption id another task holds must fail this write.
		if err := s.reserveResumptionID(ctx, change.Resumption, now); err != nil {
			return nil, err
		}
		return next, nil
	})
	return change, err
}

// write runs one claimed write of the aggregate: it reads the aggregate at the database time,
// lets build make the next state from it, and commits that. When another writer claimed the
// version first, it waits a little and reads and builds again, as often as maxAttempts allows.
// build's error, or a nil state (nothing to write), ends the write. After a commit the relay
// moves what the write queued.
func (s *Store) write(ctx context.Context, tenant, id string, build func(now time.Time, cur *taskDoc) (*taskDoc, error)) error {
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		cur, err := s.load(ctx, taskFilter(tenant, id))
		if err != nil {
			return err
		}
		next, err := build(now, cur)
		if err != nil || next == nil {
			return err
		}
		err = s.commit(ctx, cur, next, now)
		if errors.Is(err, errClaimLost) {
			if err := backoff(ctx, attempt); err != nil {
				return err
			}
			continue
		}
		if err == nil {
			s.relayAfterWrite(ctx, tenant, id)
		}
		return err
	}
	return fmt.Errorf("%w: the task kept changing under the write", models.ErrBusy)
}

// applyChange builds the aggregate after a change from cur, the aggregate the decision read:
// the task's fields from the changed task (storekit.Codec.NextTaskRow: a protected value sealed
// again only when its plaintext changed), the candidates and exclusions rewritten when the
// assignment changed, on finalization the accepted operations completed and the pending
// resumptions settled, and the change's event, operation and resumption queued.
func (s *Store) applyChange(cur *taskDoc, before *models.Task, c *models.Change, now time.Time) (*taskDoc, error) {
	t := &c.Task
	if t.ID != before.ID || t.Tenant != before.Tenant {
		return nil, fmt.Errorf("docstore: a change may not move a task")
	}
	if c.ExpectedRevision != before.Revision {
		return nil, models.Conflict(models.CodeRevisionConflict)
	}
	row, _, err := s.codec().NextTaskRow(&cur.TaskRow, before, t)
	if err != nil {
		return nil, err
	}
	next := &taskDoc{TaskRow: row, TagKeys: tagDocs(t)}
	rest := cur.clone()
	next.Version, next.Operations, next.PendingEvents = cur.Version, rest.Operations, rest.PendingEvents
	next.PendingResumptions, next.PendingEffects = rest.PendingResumptions, rest.PendingEffects
	next.Candidates, next.Exclusions = rest.Candidates, rest.Exclusions
	// What earlier writes queued and the relay has not moved yet stays queued.
	next.PendingInvitations, next.PendingDeliveries = rest.PendingInvitations, rest.PendingDeliveries
	next.PendingNotifications = rest.PendingNotifications
	next.CommentCount, next.PendingComments = rest.CommentCount, rest.PendingComments
	next.Deadlines = rest.Deadlines
	if c.AssignmentChanged {
		next.Candidates, next.Exclusions = candidateDocs(t, now), exclusionDocs(t, now)
	}
	if c.Finalize {
		settle(next, c, now)
	}
	if before.Status.CountsAsOpen() && !t.Status.CountsAsOpen() {
		// The task's place in the tenant's open-task counter is freed by the relay.
		next.PendingEffects = append(next.PendingEffects, effectDoc{ID: models.NewID(), Kind: effectReleasePlace, CreatedAt: utc(now)})
	}
	if metric, bucket, ok := storekit.Rollup(before, t, c.Event, now); ok {
		next.PendingEffects = append(next.PendingEffects, countDaily(t, metric, bucket, now))
	}
	// The notifications the change causes, in the same write (before: the task as loaded).
	next.PendingNotifications = append(next.PendingNotifications, notificationDocs(before, c, now)...)
	if err := s.queue(next, c); err != nil {
		return nil, err
	}
	return next, nil
}

// settle completes the task's accepted operations and settles its pending resumptions, so
// nothing more is delivered for a finalized task. Those still in the aggregate are settled
// here; those the relay moved already are settled by an effect the relay applies, which spares
// the resumption the finalizing change itself writes (queued after this, as on SQL).
func settle(d *taskDoc, c *models.Change, now time.Time) {
	at := utc(now)
	for i := range d.Operations {
		if o := &d.Operations[i]; o.State == string(models.OperationAccepted) {
			o.State, o.CompletedAt, o.UpdatedAt = string(models.OperationCompleted), &at, at
		}
	}
	for i := range d.PendingResumptions {
		if r := &d.PendingResumptions[i]; r.State == string(models.DeliveryPending) {
			r.State, r.UpdatedAt = string(models.DeliverySettled), at
			r.LeaseOwner, r.LeaseToken, r.LeaseExpiresAt = nil, nil, nil
		}
	}
	effect := effectDoc{ID: models.NewID(), Kind: effectSettleResumptions, CreatedAt: at}
	if c.Resumption != nil {
		effect.Exclude = []string{c.Resumption.ID}
	}
	d.PendingEffects = append(d.PendingEffects, effect)
}

// findOperation returns the operation with opID of the task, or nil: the aggregate d (read
// first) holds the open ones and those the relay has not moved yet, the collection the rest.
// The relay inserts before it pulls, so an operation missing from d is in the collection.
func (s *Store) findOperation(ctx context.Context, d *taskDoc, opID string) (*models.Operation, error) {
	if opID == "" {
		return nil, nil
	}
	for i := range d.Operations {
		if d.Operations[i].OperationID == opID {
			op, err := s.operationOf(&d.Operations[i])
			return &op, err
		}
	}
	var found operationDoc
	err := s.db.Collection(operationCollection).FindOne(ctx, bson.D{{Key: "tenant_id", Value: d.TenantID},
		{Key: "task_id", Value: d.ID}, {Key: "operation_id", Value: opID}}).Decode(&found)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, translate(err)
	}
	op, err := s.operationOf(&found)
	return &op, err
}

// Operation loads one operation record of a task.
func (s *Store) Operation(ctx context.Context, tenant, taskID, opID string) (models.Operation, error) {
	d, err := s.load(ctx, taskFilter(tenant, taskID))
	if err != nil {
		return models.Operation{}, err
	}
	op, err := s.findOperation(ctx, d, opID)
	if err != nil {
		return models.Operation{}, err
	}
	if op == nil {
		return models.Operation{}, models.ErrNotFound
	}
	return *op, nil
}

// AppendEvent appends an event without raising the revision: the event takes the next
// sequence number under a claimed write of the aggregate, so sequences stay unique and
// monotonic; a concurrent write makes it read and build again.
func (s *Store) AppendEvent(ctx context.Context, tenant, taskID string, build models.AppendFunc) (models.Event, error) {
	var ev models.Event
	err := s.write(ctx, tenant, taskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		t, err := s.fromDoc(cur, 0)
		if err != nil {
			return nil, err
		}
		if ev, err = build(now, t); err != nil {
			return nil, err
		}
		if ev.Seq != t.LastEventSeq+1 || ev.TaskID != t.ID || ev.Tenant != t.Tenant || ev.Revision != t.Revision {
			return nil, fmt.Errorf("docstore: an appended event must follow the task's sequence at its revision")
		}
		next := cur.clone()
		next.LastEventSeq = ev.Seq
		if err := s.queue(next, &models.Change{Event: &ev}); err != nil {
			return nil, err
		}
		return next, nil
	})
	if err != nil {
		return models.Event{}, err
	}
	return ev, nil
}

// pending reads the aggregate for a merged read: an empty one when the task does not exist
// (its collections then hold nothing of it either).
func (s *Store) pending(ctx context.Context, tenant, taskID string) (*taskDoc, error) {
	d, err := s.load(ctx, taskFilter(tenant, taskID))
	if errors.Is(err, models.ErrNotFound) {
		return &taskDoc{}, nil
	}
	return d, err
}
