package docstore

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// deadlineDoc is one deadline (a user_task_deadlines row) inside the task aggregate: a
// firing settles it in the same claimed write as the task's change, which is what makes it
// fire once on any number of nodes.
type deadlineDoc struct {
	storekit.DeadlineRow `bson:",inline"`
}

// deadlineDocs encodes a created task's deadlines.
func deadlineDocs(ds []models.Deadline, now time.Time) ([]deadlineDoc, error) {
	var out []deadlineDoc
	for i := range ds {
		row, err := docCodec.DeadlineRow(&ds[i], now)
		if err != nil {
			return nil, err
		}
		out = append(out, deadlineDoc{row})
	}
	return out, nil
}

// deadlinesOf decodes the aggregate's deadlines, by index.
func deadlinesOf(d *taskDoc) ([]models.Deadline, error) {
	out := make([]models.Deadline, 0, len(d.Deadlines))
	for i := range d.Deadlines {
		dl, err := docCodec.Deadline(&d.Deadlines[i].DeadlineRow)
		if err != nil {
			return nil, err
		}
		out = append(out, dl)
	}
	slices.SortFunc(out, func(a, b models.Deadline) int { return cmp.Compare(a.Index, b.Index) })
	return out, nil
}

// TaskDeadlines lists the task's deadlines by index.
func (s *Store) TaskDeadlines(ctx context.Context, tenant, taskID string) ([]models.Deadline, error) {
	d, err := s.load(ctx, taskFilter(tenant, taskID))
	if errors.Is(err, models.ErrNotFound) {
		return []models.Deadline{}, nil // as on SQL: no task of the tenant, no deadlines
	}
	if err != nil {
		return nil, err
	}
	return deadlinesOf(d)
}

// DueDeadlines pages the pending deadlines due by the database clock, as the SQL store does, by
// due time, task id and index after the cursor. The aggregates holding a due, pending deadline
// are found through ix_deadlines_due, a multikey index over the embedded entries; a sort by an
// array entry is not something the index gives, so the page is ordered here from the due
// deadlines those aggregates hold. Every page reads them all: few in a sweep that keeps up,
// as many as the backlog when it does not (docs/document-store.md).
func (s *Store) DueDeadlines(ctx context.Context, limit int, after *models.DeadlineKey) ([]models.Deadline, error) {
	limit = storekit.WorkerPageLimit(limit)
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	// FerretDB 1.x has no $elemMatch over fields: the two conditions may match different
	// entries of one aggregate, a superset the loop below narrows to the due, pending ones.
	filter := bson.D{{Key: "deadlines.state", Value: string(models.DeadlinePending)}, {Key: "deadlines.due_at", Value: bson.D{{Key: "$lte", Value: now}}}}
	opts := options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: "tenant_id", Value: 1}, {Key: "deadlines", Value: 1}})
	var docs []taskDoc
	if err := s.findAll(ctx, Aggregate, filter, opts, &docs); err != nil {
		return nil, err
	}
	var out []models.Deadline
	for i := range docs {
		ds, err := deadlinesOf(&docs[i])
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if d.State == models.DeadlinePending && !d.DueAt.After(now) && (after == nil || keyAfter(d.Key(), *after)) {
				out = append(out, d)
			}
		}
	}
	slices.SortFunc(out, func(a, b models.Deadline) int { return compareKeys(a.Key(), b.Key()) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// compareKeys orders deadline keys by due time, task id, index.
func compareKeys(a, b models.DeadlineKey) int {
	if c := a.DueAt.Compare(b.DueAt); c != 0 {
		return c
	}
	if c := cmp.Compare(a.TaskID, b.TaskID); c != 0 {
		return c
	}
	return cmp.Compare(a.Index, b.Index)
}

func keyAfter(k, after models.DeadlineKey) bool {
	after.DueAt = utc(after.DueAt)
	return compareKeys(k, after) > 0
}

// FireDeadline settles one deadline (store.Deadlines): the deadline, the task's change, its
// event and the escalated notifications are one claimed write of the aggregate. Two sweeps
// firing the same deadline claim the same version; the loser reads the winner's aggregate,
// finds the deadline settled and fails with Conflict(CodeDeadlineSettled), writing nothing.
func (s *Store) FireDeadline(ctx context.Context, tenant, taskID string, index int, managers []models.ParticipantRef) (models.DeadlineFiring, error) {
	var firing models.DeadlineFiring
	err := s.write(ctx, tenant, taskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		firing = models.DeadlineFiring{} // a lost claim builds again
		at := slices.IndexFunc(cur.Deadlines, func(d deadlineDoc) bool { return d.Idx == index })
		if at < 0 {
			return nil, models.ErrNotFound
		}
		d, err := docCodec.Deadline(&cur.Deadlines[at].DeadlineRow)
		if err != nil {
			return nil, err
		}
		before, err := s.fromDoc(cur, models.ReadsForTransition)
		if err != nil {
			return nil, err
		}
		if firing, err = models.FireDeadline(before, d, managers, now); err != nil {
			return nil, err
		}
		var next *taskDoc
		switch ch := firing.Change; {
		case ch == nil:
			next = cur.clone()
		case firing.StateChanged:
			if next, err = s.applyChange(cur, &before, ch, now); err != nil {
				return nil, err
			}
		default:
			next = cur.clone()
			next.LastEventSeq = ch.Event.Seq
			if err := s.queue(next, &models.Change{Event: ch.Event}); err != nil {
				return nil, err
			}
			// The escalation counts in the rollup as a state-changing firing does in applyChange.
			// ch.Task is the task with the event's sequence, which keys the count.
			if metric, bucket, ok := storekit.Rollup(&before, &ch.Task, ch.Event, now); ok {
				next.PendingEffects = append(next.PendingEffects, countDaily(&ch.Task, metric, bucket, now))
			}
		}
		next.Deadlines = slices.Clone(cur.Deadlines)
		settled := &next.Deadlines[at]
		settled.State, settled.FiredAt = string(firing.Deadline.State), docCodec.TimePtr(firing.Deadline.FiredAt)
		for _, n := range storekit.EscalatedNotifications(&firing, now) {
			next.PendingNotifications = append(next.PendingNotifications, notificationDoc{NotificationRow: docCodec.NotificationRow(&n, now)})
		}
		return next, nil
	})
	if err != nil {
		return models.DeadlineFiring{}, err
	}
	if firing.StateChanged {
		s.changed(tenant, taskID, firing.Change.Task.Revision)
	}
	return firing, nil
}
