package docstore

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// activityAggregate is what ActivityCounts reads of a task aggregate: the comments and erase
// effects the relay has not moved or applied yet.
type activityAggregate struct {
	ID              string       `bson:"_id"`
	PendingComments []commentDoc `bson:"pending_comments"`
	PendingEffects  []effectDoc  `bson:"pending_effects"`
}

// ActivityCounts counts the comments (not deleted) and finished attachments of the tasks named
// (store.Activity). The aggregates are read first (one find: the tenant's tasks among the ids,
// none being purged, with what still waits for the relay), then one $group per collection over
// those tasks (ix_comments_list, ix_attachments_task). A comment pending in its aggregate is
// counted from there and left out of the collection's count by id, as is one an erase effect
// still waits to clear: a comment the relay moves between the two reads is counted once.
func (s *Store) ActivityCounts(ctx context.Context, tenant string, taskIDs []string) (map[string]models.ActivityCount, error) {
	ids, err := storekit.ActivityTaskIDs(taskIDs)
	if err != nil {
		return nil, err
	}
	out := map[string]models.ActivityCount{}
	if len(ids) == 0 {
		return out, nil
	}
	var aggs []activityAggregate
	err = s.findAll(ctx, Aggregate, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}, {Key: "tenant_id", Value: tenant},
		{Key: "purging", Value: bson.D{{Key: "$exists", Value: false}}}},
		options.Find().SetProjection(bson.D{{Key: "pending_comments", Value: 1}, {Key: "pending_effects", Value: 1}}), &aggs)
	if err != nil || len(aggs) == 0 {
		return out, err
	}
	live := make([]string, 0, len(aggs))
	exclude := bson.A{}
	for _, a := range aggs {
		live = append(live, a.ID)
		erased := map[string]bool{}
		for _, e := range a.PendingEffects {
			if e.Kind == effectEraseComment {
				erased[e.Comment] = true
				exclude = append(exclude, e.Comment)
			}
		}
		n := 0
		for _, c := range a.PendingComments {
			exclude = append(exclude, c.ID)
			if c.TaskID == a.ID && c.DeletedAt == nil && !erased[c.ID] {
				n++
			}
		}
		storekit.AddActivity(out, a.ID, n, false)
	}
	comments := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: bson.D{{Key: "$in", Value: live}}}, {Key: "deleted_at", Value: nil}}
	if len(exclude) > 0 {
		comments = append(comments, bson.E{Key: "_id", Value: bson.D{{Key: "$nin", Value: exclude}}})
	}
	if err := s.countByTask(ctx, commentCollection, comments, out, false); err != nil {
		return nil, err
	}
	files := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: bson.D{{Key: "$in", Value: live}}},
		{Key: "created_at", Value: bson.D{{Key: "$ne", Value: nil}}}}
	if err := s.countByTask(ctx, storekit.AttachmentTable, files, out, true); err != nil {
		return nil, err
	}
	return out, nil
}

// countByTask adds the number of collection's documents matching match, per task_id, to out.
func (s *Store) countByTask(ctx context.Context, collection string, match bson.D, out map[string]models.ActivityCount, attachments bool) error {
	cur, err := s.db.Collection(collection).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$match", Value: match}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$task_id"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
	})
	if err != nil {
		return translate(err)
	}
	var rows []struct {
		TaskID string `bson:"_id"`
		N      int    `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return translate(err)
	}
	for _, r := range rows {
		storekit.AddActivity(out, r.TaskID, r.N, attachments)
	}
	return nil
}
