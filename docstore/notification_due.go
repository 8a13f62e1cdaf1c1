package docstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// dueSoonFields is what the due-soon worker reads of a task: the safe fields and the
// candidates and exclusions it finds the recipients in (storekit.DeadlineRecipients).
var dueSoonFields = append(slices.Clip(summaryFields), bson.E{Key: "candidates", Value: 1}, bson.E{Key: "exclusions", Value: 1})

// DueSoonTasks pages the open tasks, of every tenant, with a due time in (from, to], by due
// time then id, after the given task (nil for the first page). Each open status is one walk of
// ix_tasks_due_sweep (status, due_at, _id) from the cursor that stops after limit tasks; the
// walks are merged and the first limit kept, so the page is the same as one ordered scan.
func (s *Store) DueSoonTasks(ctx context.Context, from, to time.Time, after *models.Task, limit int) ([]models.Task, error) {
	limit = storekit.WorkerPageLimit(limit)
	if after != nil && after.DueAt == nil {
		return nil, fmt.Errorf("due-soon scan: the page cursor %q has no due date", after.ID)
	}
	var docs []taskDoc
	for _, status := range openStatuses {
		conds := []bson.D{fieldEq("status", status), fieldOp("due_at", "$gt", utc(from)), fieldOp("due_at", "$lte", utc(to)),
			{{Key: "purging", Value: bson.D{{Key: "$exists", Value: false}}}}}
		if after != nil {
			due := utc(*after.DueAt)
			conds = append(conds, anyOf(fieldOp("due_at", "$gt", due),
				bson.D{{Key: "due_at", Value: due}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: after.ID}}}}))
		}
		opts := options.Find().SetProjection(dueSoonFields).SetSort(bson.D{{Key: "due_at", Value: 1}, {Key: "_id", Value: 1}}).
			SetLimit(int64(limit))
		var page []taskDoc
		if err := s.findAll(ctx, Aggregate, allOf(conds), opts, &page); err != nil {
			return nil, err
		}
		docs = append(docs, page...)
	}
	slices.SortFunc(docs, func(a, b taskDoc) int {
		return cmp.Or(a.DueAt.Compare(*b.DueAt), cmp.Compare(a.ID, b.ID))
	})
	if len(docs) > limit {
		docs = docs[:limit]
	}
	return s.safeTasks(docs)
}
