package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/models"
)

// A resumption's id is the primary key of user_task_resumptions across all tasks, as on SQL.
// Inside one aggregate the write keeps it unique, but the aggregate cannot see other tasks,
// and the relay inserts the entry only after the aggregate committed: a duplicate found then
// could no longer fail the write that queued it. So a write that queues a resumption first
// reserves its id with a unique insert into user_task_claims (outboxReservation), before the
// aggregate is written; a duplicate that belongs to another task fails the write, exactly as
// SQL's unique violation rolls the unit back (docs/document-store.md, "Outbox ids").

// outboxReservation is the claim _id that reserves a resumption id. Version claims end in
// "/<version>", a number, so this can never be one.
func outboxReservation(resumptionID string) string { return resumptionID + "/outbox" }

// reservationDoc reserves a resumption id for one task.
type reservationDoc struct {
	ID        string    `bson:"_id"`
	TenantID  string    `bson:"tenant_id"`
	TaskID    string    `bson:"task_id"`
	CreatedAt time.Time `bson:"created_at"`
}

// reserveResumptionID reserves r's id for its task. Reserving it again for the same task (a
// write that lost its version claim and decides again) succeeds; an id another task holds is a
// revision conflict, the error the SQL store returns for a duplicate key in a mutation.
func (s *Store) reserveResumptionID(ctx context.Context, r *models.Resumption, now time.Time) error {
	if r == nil {
		return nil
	}
	_, err := s.claims().InsertOne(ctx, reservationDoc{ID: outboxReservation(r.ID), TenantID: r.Tenant, TaskID: r.TaskID, CreatedAt: utc(now)})
	if !mongo.IsDuplicateKeyError(err) {
		return translate(err)
	}
	var held reservationDoc
	if err := s.claims().FindOne(ctx, bson.D{{Key: "_id", Value: outboxReservation(r.ID)}}).Decode(&held); err != nil {
		return translate(err)
	}
	if held.TenantID != r.Tenant || held.TaskID != r.TaskID {
		return models.Conflict(models.CodeRevisionConflict)
	}
	return nil
}

// errForeignResumption: the relay found a resumption's id taken by another task. The
// reservation makes this impossible for writes of this version; it is reported, never taken
// for an earlier pass's insert, so the entry stays queued where an operator can see it.
var errForeignResumption = errors.New("docstore: a queued resumption's id belongs to another task")

// insertResumptionOnce inserts a queued resumption. A duplicate key is an earlier pass's insert
// only when the stored resumption is this task's; another task's is errForeignResumption.
func (s *Store) insertResumptionOnce(ctx context.Context, r resumptionDoc) error {
	var stored resumptionDoc
	dup, err := s.insertOrRead(ctx, resumptionCollection, r.ID, r, &stored)
	switch {
	case !dup:
		return err
	case errors.Is(err, mongo.ErrNoDocuments):
		return nil // the duplicate is on (tenant_id, task_id, operation_id): this task's own entry
	case err != nil:
		return translate(err)
	case stored.TenantID != r.TenantID || stored.TaskID != r.TaskID:
		return fmt.Errorf("%w (task %s)", errForeignResumption, r.TaskID)
	}
	return nil
}
