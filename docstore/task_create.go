package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Create inserts a projected task idempotently, as repository.Store.Create does: when a task
// with the same materialization key or bookmark id already exists in tenant, it is returned with
// created false and nothing is written. The aggregate (the task, its candidates, exclusions and
// tags, the first event, the operation and outbox entry of the creation) is one insertOne, so a
// concurrent duplicate delivery loses on the unique indexes ux_tasks_materialization and
// ux_tasks_bookmark (E11000) and reads the winner's task. The relay then moves the pending
// entries to their collections. Before the insert, an open task takes a place in the tenant's
// open-task counter (reservePlace: refused with models.CapacityError when the tenant is at its
// cap) and a resumption reserves its id; a creation that fails after that gives its place back.
// A crash between the place and the insert leaves a place without a task, which
// AuditTenantCounters reports (docs/document-store.md, "Capacity counters without transactions").
func (s *Store) Create(ctx context.Context, tenant, materializationKey, bookmarkID string, build models.BuildFunc) (models.Task, bool, error) {
	for attempt := 0; ; attempt++ {
		existing, err := s.findExisting(ctx, tenant, materializationKey, bookmarkID)
		if err != nil {
			return models.Task{}, false, err
		}
		if existing != "" {
			t, err := s.Get(ctx, tenant, existing)
			return t, false, err
		}
		now, err := s.Now(ctx)
		if err != nil {
			return models.Task{}, false, err
		}
		change, err := build(now)
		if err != nil {
			return models.Task{}, false, err
		}
		t := &change.Task
		if t.Tenant != tenant || t.MaterializationKey != materializationKey || t.Workflow.BookmarkID != bookmarkID {
			return models.Task{}, false, fmt.Errorf("docstore: projection keys differ from the task built for them")
		}
		// A projection's direct assignee who is absent: the substitute gets the task.
		if err := storekit.ApplySubstitution(nil, &change, now, s.absencesFor(ctx)); err != nil {
			return models.Task{}, false, err
		}
		// A projection without deadlines of its own: its definition's default policy, if any.
		if err := storekit.ApplyDeadlinePolicy(&change, s.policyFor(ctx)); err != nil {
			return models.Task{}, false, err
		}
		d, err := s.newDoc(t, now)
		if err != nil {
			return models.Task{}, false, err
		}
		if d.Deadlines, err = deadlineDocs(change.Deadlines, now); err != nil {
			return models.Task{}, false, err
		}
		// The daily rollup counts the creation once the relay applies this effect.
		d.PendingEffects = append(d.PendingEffects, countDaily(t, models.MetricCreated, 0, now))
		// The notifications the creation causes travel in the same insert.
		d.PendingNotifications = notificationDocs(nil, &change, now)
		if err := s.queue(d, &change); err != nil {
			return models.Task{}, false, err
		}
		d.Version = 1
		if err := s.recordTenant(ctx, tenant, now); err != nil {
			return models.Task{}, false, err
		}
		if err := s.reserveResumptionID(ctx, change.Resumption, now); err != nil {
			return models.Task{}, false, err
		}
		// From the place on the creation is finished even if the caller gives up: a place
		// left without its task would hold a place of the tenant's cap until the next sweep.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		err = s.placeAndInsert(wctx, d, now)
		cancel()
		if mongo.IsDuplicateKeyError(err) && attempt < 3 {
			continue // a concurrent delivery won the unique key: read its task on the next pass
		}
		if err != nil {
			return models.Task{}, false, translate(err)
		}
		s.relayAfterWrite(ctx, tenant, t.ID)
		s.changed(tenant, t.ID, t.Revision)
		return *t, true, nil
	}
}

// placeAndInsert takes the open task's place and inserts its aggregate; when the insert
// fails, the place is given back unless the task was written all the same (an error the
// driver reports after the server applied the insert).
func (s *Store) placeAndInsert(ctx context.Context, d *taskDoc, now time.Time) error {
	open := models.Status(d.Status).CountsAsOpen()
	if open {
		if err := s.reservePlace(ctx, d.TenantID, d.ID, now); err != nil {
			return err
		}
	}
	if s.crash != nil {
		if err := s.crash(afterPlace); err != nil {
			return err
		}
	}
	_, err := s.tasks().InsertOne(ctx, d)
	if err == nil || !open {
		return err
	}
	if !mongo.IsDuplicateKeyError(err) {
		if n, cerr := s.tasks().CountDocuments(ctx, taskFilter(d.TenantID, d.ID)); cerr == nil && n == 1 {
			return nil
		}
	}
	if rerr := s.releasePlace(ctx, d.TenantID, d.ID); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// findExisting returns the id of tenant's task with the materialization key or the bookmark, or "".
func (s *Store) findExisting(ctx context.Context, tenant, materializationKey, bookmarkID string) (string, error) {
	var found struct {
		ID string `bson:"_id"`
	}
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "$or", Value: bson.A{
		bson.D{{Key: "materialization_key", Value: materializationKey}},
		bson.D{{Key: "bookmark_id", Value: bookmarkID}},
	}}}
	err := s.tasks().FindOne(ctx, filter, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Decode(&found)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return "", nil
	}
	return found.ID, translate(err)
}

// queue adds a change's event, operation and resumption to the aggregate's pending entries, as
// the SQL store's writeRows inserts their rows.
func (s *Store) queue(d *taskDoc, c *models.Change) error {
	if c.Event != nil {
		if len(c.Event.Metadata) > models.MaxEventMetadataBytes {
			return models.Invalid(models.CodePayloadTooLarge, models.FieldError{Field: "metadata", Message: "event metadata is too large"})
		}
		d.PendingEvents = append(d.PendingEvents, eventDocOf(c.Event))
	}
	if c.Operation != nil {
		op, err := s.operationDocOf(c.Operation)
		if err != nil {
			return err
		}
		d.Operations = append(d.Operations, op)
	}
	if c.Resumption != nil {
		d.PendingResumptions = append(d.PendingResumptions, resumptionDocOf(c.Resumption))
	}
	d.RelayDue = d.relayDue()
	return nil
}

// Get loads the whole aggregate (protected content decrypted, candidates and exclusions) of a
// task in tenant. A task of another tenant is not found.
func (s *Store) Get(ctx context.Context, tenant, id string) (models.Task, error) {
	return s.getBy(ctx, taskFilter(tenant, id))
}

// FindByMaterializationKey loads the task projected for key in tenant.
func (s *Store) FindByMaterializationKey(ctx context.Context, tenant, key string) (models.Task, error) {
	return s.getBy(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "materialization_key", Value: key}})
}

// FindByBookmarkID loads the task projected from bookmarkID in tenant.
func (s *Store) FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error) {
	return s.getBy(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "bookmark_id", Value: bookmarkID}})
}

func (s *Store) getBy(ctx context.Context, filter bson.D) (models.Task, error) {
	d, err := s.load(ctx, filter)
	if err != nil {
		return models.Task{}, err
	}
	return s.fromDoc(d, models.ReadsAllProtected)
}

// relayAfterWrite moves what a committed write queued right away, so normally the entries are
// in their collections when the request ends. A failure leaves them queued (relay_due) for the
// next write's relay or RelayPass, and is not the write's failure.
func (s *Store) relayAfterWrite(ctx context.Context, tenant, id string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	_ = s.relayTask(rctx, tenant, id)
}
