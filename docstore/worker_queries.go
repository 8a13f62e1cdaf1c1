package docstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// The queries and small writes of the background workers (SPEC 7) beyond claiming outbox
// entries: the due sweep, reconciliation, the tenants the workers visit, and the resumption
// entries' release, settle and requeue. Time-dependent predicates read the database clock (Now),
// as on SQL; list items carry the safe fields only (summaryFields).

// transitionKinds are the operations that enter a transitional status and queue a resumption.
var transitionKinds = []string{string(models.OpComplete), string(models.OpTimeout), string(models.OpCancel)}

// tenantCollection records every tenant that has had a task (user_task_tenants, _id = tenant).
const tenantCollection = "user_task_tenants"

// DueTasks returns up to limit open tasks, of every tenant, whose due date has passed and that
// still need the sweep (timeout enabled, or not yet flagged overdue), ordered by status, due date
// and id; pass a page's last task as after for the next page (nil for the first). Each status is
// one walk of ix_tasks_due_sweep (status, due_at, id) that stops after the page.
func (s *Store) DueTasks(ctx context.Context, limit int, after *models.Task) ([]models.Task, error) {
	limit = storekit.WorkerPageLimit(limit)
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	statuses := openStatuses
	if after != nil {
		i := slices.Index(statuses, string(after.Status))
		if i < 0 || after.DueAt == nil {
			return nil, fmt.Errorf("due sweep: the page cursor %q is not an open task with a due date", after.ID)
		}
		statuses = statuses[i:]
	}
	var docs []taskDoc
	for i, status := range statuses {
		conds := []bson.D{fieldEq("status", status), fieldOp("due_at", "$ne", nil), fieldOp("due_at", "$lte", now),
			anyOf(fieldEq("timeout_enabled", true), fieldEq("is_overdue", false))}
		if i == 0 && after != nil {
			due := utc(*after.DueAt)
			conds = append(conds, anyOf(fieldOp("due_at", "$gt", due), bson.D{{Key: "due_at", Value: due}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: after.ID}}}}))
		}
		opts := options.Find().SetProjection(summaryFields).
			SetSort(bson.D{{Key: "due_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit - len(docs)))
		var page []taskDoc
		if err := s.findAll(ctx, Aggregate, allOf(conds), opts, &page); err != nil {
			return nil, err
		}
		if docs = append(docs, page...); len(docs) == limit {
			break
		}
	}
	return s.safeTasks(docs)
}

// ReconcileTasks returns up to limit open or transitional tasks of tenant that nothing has
// changed within skipTouchedWithin, ordered by id after afterID.
func (s *Store) ReconcileTasks(ctx context.Context, tenant string, skipTouchedWithin time.Duration, afterID string, limit int) ([]models.Task, error) {
	limit = storekit.WorkerPageLimit(limit)
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	filter := allOf([]bson.D{fieldEq("tenant_id", tenant), fieldIn("status", openTransitionalStatuses),
		fieldOp("updated_at", "$lte", now.Add(-skipTouchedWithin)), fieldOp("_id", "$gt", afterID)})
	var docs []taskDoc
	opts := options.Find().SetProjection(summaryFields).SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(limit))
	if err := s.findAll(ctx, Aggregate, filter, opts, &docs); err != nil {
		return nil, err
	}
	return s.safeTasks(docs)
}

// KnownBookmarks reports which of bookmarkIDs have a task in tenant, whatever its status.
func (s *Store) KnownBookmarks(ctx context.Context, tenant string, bookmarkIDs []string) (map[string]bool, error) {
	known := make(map[string]bool, len(bookmarkIDs))
	for chunk := range slices.Chunk(bookmarkIDs, models.MaxPageSize) {
		var found []struct {
			BookmarkID string `bson:"bookmark_id"`
		}
		opts := options.Find().SetProjection(bson.D{{Key: "bookmark_id", Value: 1}})
		if err := s.findAll(ctx, Aggregate, allOf([]bson.D{fieldEq("tenant_id", tenant), fieldIn("bookmark_id", chunk)}), opts, &found); err != nil {
			return nil, err
		}
		for _, f := range found {
			known[f.BookmarkID] = true
		}
	}
	return known, nil
}

// Tenants lists every tenant that has had a task, in order.
func (s *Store) Tenants(ctx context.Context) ([]string, error) {
	var rows []struct {
		ID string `bson:"_id"`
	}
	if err := s.findAll(ctx, tenantCollection, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}), &rows); err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out, nil
}

// recordTenant files tenant in user_task_tenants before its first task is written (once per
// process: a tenant already known here is skipped, one already stored is a duplicate key).
// Before, not after: a crash in between leaves a tenant without tasks, which the workers visit
// and find empty, never a task whose tenant they do not visit.
func (s *Store) recordTenant(ctx context.Context, tenant string, now time.Time) error {
	if _, ok := s.tenants.Load(tenant); ok {
		return nil
	}
	_, err := s.db.Collection(tenantCollection).InsertOne(ctx, bson.D{{Key: "_id", Value: tenant}, {Key: "updated_at", Value: utc(now)}})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return translate(err)
	}
	s.tenants.Store(tenant, true)
	return nil
}

// AcceptedOperation returns the task's accepted complete, timeout or cancel operation, with its
// protected payload: what a resumption stimulus is built from. An accepted operation stays in
// the aggregate until it finishes, so the aggregate alone answers. ErrNotFound when there is none.
func (s *Store) AcceptedOperation(ctx context.Context, tenant, taskID string) (*models.Operation, error) {
	d, err := s.load(ctx, taskFilter(tenant, taskID))
	if err != nil {
		return nil, err
	}
	var latest *operationDoc
	for i := range d.Operations {
		o := &d.Operations[i]
		if o.State != string(models.OperationAccepted) || !slices.Contains(transitionKinds, o.Kind) {
			continue
		}
		if latest == nil || o.CreatedAt.After(latest.CreatedAt) || (o.CreatedAt.Equal(latest.CreatedAt) && o.ID > latest.ID) {
			latest = o
		}
	}
	if latest == nil {
		return nil, models.ErrNotFound
	}
	op, err := s.operationOf(latest)
	if err != nil {
		return nil, err
	}
	return &op, nil
}

// RequeueResumption makes the resumption entry of a transitional task's operation due again
// when it was delivered (or abandoned) without the runtime ever removing the bookmark, under a
// claimed write. It reports whether it requeued; an entry still pending (in its collection, or
// still in the aggregate waiting for the relay) keeps its own schedule, and a task no longer
// transitional is not requeued. No entry at all is ErrNotFound. A finalization landing right
// after the check leaves a pending entry of a terminal task; the dispatcher settles such an
// entry when it claims it (SettleResumption), as on SQL when a finalization follows a requeue.
func (s *Store) RequeueResumption(ctx context.Context, tenant, taskID, operationID string) (bool, error) {
	var requeued bool
	err := retryClaimed(ctx, func() error {
		requeued = false
		d, err := s.load(ctx, taskFilter(tenant, taskID))
		if errors.Is(err, models.ErrNotFound) {
			d = &taskDoc{}
		} else if err != nil {
			return err
		}
		var row resumptionRow
		err = s.db.Collection(resumptionCollection).FindOne(ctx, bson.D{{Key: "tenant_id", Value: tenant},
			{Key: "task_id", Value: taskID}, {Key: "operation_id", Value: operationID}}).Decode(&row)
		if errors.Is(err, mongo.ErrNoDocuments) {
			if slices.ContainsFunc(d.PendingResumptions, func(r resumptionDoc) bool { return r.OperationID == operationID }) {
				return nil // not relayed yet: pending
			}
			return models.ErrNotFound
		}
		if err != nil {
			return translate(err)
		}
		if st := row.Doc.State; st != string(models.DeliveryDelivered) && st != string(models.DeliveryAbandoned) {
			return nil
		}
		if !slices.Contains(transitionalStatuses, d.Status) {
			return nil
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		set := append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliveryPending)},
			bson.E{Key: "available_at", Value: now}, bson.E{Key: "delivered_at", Value: nil}, bson.E{Key: "updated_at", Value: now})
		if err := s.claimedSet(ctx, resumptionRef(&row), row.Version, set, now); err != nil {
			return err
		}
		requeued = true
		return nil
	})
	return requeued, err
}

// ReleaseResumption gives a claimed entry back without counting an attempt (a node shutting
// down mid-batch). A stale lease fails with models.ErrLeaseLost.
func (s *Store) ReleaseResumption(ctx context.Context, r models.Resumption) error {
	return s.fencedWrite(ctx, resumptionOutbox, r.ID, r.Lease, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "updated_at", Value: now})
	})
}

// SettleResumption closes a claimed entry whose task is already terminal, so it is never
// claimed again. A stale lease fails with models.ErrLeaseLost.
func (s *Store) SettleResumption(ctx context.Context, r models.Resumption) error {
	return s.fencedWrite(ctx, resumptionOutbox, r.ID, r.Lease, func(now time.Time) bson.D {
		return append(leaseFields(nil), bson.E{Key: "state", Value: string(models.DeliverySettled)}, bson.E{Key: "updated_at", Value: now})
	})
}

// safeTasks decodes list items (safe fields only).
func (s *Store) safeTasks(docs []taskDoc) ([]models.Task, error) {
	out := make([]models.Task, 0, len(docs))
	for i := range docs {
		t, err := s.fromDoc(&docs[i], 0)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
