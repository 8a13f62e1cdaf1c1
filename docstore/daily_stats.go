package docstore

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// The daily rollup behind the dashboard's charts (docs/document-store.md, "The daily rollup").
// The SQL store raises a shared counter row inside the transaction of the change it counts.
// A shared counter document cannot be raised safely on FerretDB (its update is a read and a
// write, so concurrent $inc lose counts), and the relay may apply an effect more than once. So
// each counted change is its own document in DailyCountCollection, _id "<task>/<revision>/
// <metric>": the write that commits the change queues a count-daily effect in the aggregate,
// and the relay inserts the document (a duplicate key is an earlier pass's insert of the same
// change). A change that is not written (a failed decision, a replay, a lost claim decided
// again) queues nothing, so it counts nothing. DailyRollup sums the documents.

// DailyCountCollection holds one document per change the daily rollup counts. It is the
// document store's own collection (the logical user_task_daily_stats has one row per counter,
// which only a transaction can raise exactly).
const DailyCountCollection = "user_task_daily_counts"

// dailyCountIndex serves DailyRollup: a tenant's counts from a day on.
var dailyCountIndex = Index{Name: "ix_daily_counts_read", Keys: []string{"tenant_id", "stat_day"}}

// effectCountDaily counts one change in the daily rollup (effectDoc.Count).
const effectCountDaily = "count-daily"

// dailyCountDoc is one counted change, _id naming it; the rollup's counters are sums of
// EventCount (always 1).
type dailyCountDoc struct {
	ID                    string `bson:"_id"`
	storekit.DailyStatRow `bson:",inline"`
}

// countDaily is the effect that counts task t's change at revision in metric and bucket. An
// escalation is keyed by its event's sequence instead: a firing that changed no state shares
// its revision with the change before it, and with other such firings.
func countDaily(t *models.Task, metric string, bucket int, now time.Time) effectDoc {
	change := strconv.Itoa(t.Revision)
	if metric == models.MetricEscalated {
		change = "e" + strconv.Itoa(t.LastEventSeq)
	}
	return effectDoc{ID: models.NewID(), Kind: effectCountDaily, CreatedAt: utc(now), Count: &dailyCountDoc{
		ID:           t.ID + "/" + change + "/" + metric,
		DailyStatRow: storekit.DailyCount(t, metric, bucket, now),
	}}
}

// applyCountDaily inserts the counted change; its _id names the task's change, so a duplicate
// key is this change counted by an earlier pass.
func (s *Store) applyCountDaily(ctx context.Context, d *taskDoc, c *dailyCountDoc) error {
	if c == nil || c.TenantID != d.TenantID {
		return &models.CorruptError{TaskID: d.ID, Reason: "a daily count effect without its count"}
	}
	_, err := s.db.Collection(DailyCountCollection).InsertOne(ctx, c)
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return translate(err)
}

// DailyRollup sums the tenant's counted changes from the UTC day fromDay (YYYY-MM-DD) on, per
// day and metric and per workflow, metric and bucket, as repository.Store.DailyRollup: two
// $group stages over the tenant's range of ix_daily_counts_read. A workflow renamed within the
// range shows one of its names.
func (s *Store) DailyRollup(ctx context.Context, tenant, fromDay string) (models.Rollup, error) {
	match := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "stat_day", Value: bson.D{{Key: "$gte", Value: fromDay}}}}
	var days []struct {
		Key struct {
			Day    string `bson:"day"`
			Metric string `bson:"metric"`
		} `bson:"_id"`
		N int64 `bson:"n"`
	}
	err := s.group(ctx, DailyCountCollection, match, bson.D{{Key: "day", Value: "$stat_day"}, {Key: "metric", Value: "$metric"}}, "$event_count", &days)
	if err != nil {
		return models.Rollup{}, err
	}
	var flows []struct {
		Key struct {
			Workflow string `bson:"workflow"`
			Metric   string `bson:"metric"`
			Bucket   int    `bson:"bucket"`
		} `bson:"_id"`
		N int64 `bson:"n"`
	}
	err = s.group(ctx, DailyCountCollection, match, bson.D{{Key: "workflow", Value: "$workflow_definition_id"},
		{Key: "metric", Value: "$metric"}, {Key: "bucket", Value: "$bucket"}}, "$event_count", &flows)
	if err != nil {
		return models.Rollup{}, err
	}
	var out models.Rollup
	for _, d := range days {
		out.ByDay = append(out.ByDay, models.DailyStat{Day: d.Key.Day, Metric: d.Key.Metric, Count: d.N})
	}
	sort.Slice(out.ByDay, func(i, j int) bool {
		a, b := out.ByDay[i], out.ByDay[j]
		return a.Day < b.Day || a.Day == b.Day && a.Metric < b.Metric
	})
	names := map[string]string{}
	for _, f := range flows {
		name, ok := names[f.Key.Workflow]
		if !ok {
			if name, err = s.workflowName(ctx, match, f.Key.Workflow); err != nil {
				return models.Rollup{}, err
			}
			names[f.Key.Workflow] = name
		}
		out.ByWorkflow = append(out.ByWorkflow, models.DailyStat{WorkflowDefinitionID: f.Key.Workflow,
			WorkflowDefinitionName: name, Metric: f.Key.Metric, Bucket: f.Key.Bucket, Count: f.N})
	}
	sort.Slice(out.ByWorkflow, func(i, j int) bool {
		a, b := out.ByWorkflow[i], out.ByWorkflow[j]
		if a.WorkflowDefinitionID != b.WorkflowDefinitionID {
			return a.WorkflowDefinitionID < b.WorkflowDefinitionID
		}
		return a.Metric < b.Metric || a.Metric == b.Metric && a.Bucket < b.Bucket
	})
	return out, nil
}

// workflowName reads one name the workflow has in the rollup's range ("" when none).
func (s *Store) workflowName(ctx context.Context, match bson.D, workflow string) (string, error) {
	filter := append(append(bson.D{}, match...), bson.E{Key: "workflow_definition_id", Value: workflow},
		bson.E{Key: "workflow_definition_name", Value: bson.D{{Key: "$ne", Value: nil}}})
	var c dailyCountDoc
	err := s.db.Collection(DailyCountCollection).FindOne(ctx, filter,
		options.FindOne().SetProjection(bson.D{{Key: "workflow_definition_name", Value: 1}})).Decode(&c)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return "", nil
	}
	if err != nil {
		return "", translate(err)
	}
	return storekit.Str(c.WorkflowDefinitionName), nil
}

// group runs {$match: match} {$group: {_id: key, n: {$sum: sum}}} on collection into out.
func (s *Store) group(ctx context.Context, collection string, match, key bson.D, sum any, out any) error {
	cur, err := s.db.Collection(collection).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$match", Value: match}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: key}, {Key: "n", Value: bson.D{{Key: "$sum", Value: sum}}}}}},
	})
	if err != nil {
		return translate(err)
	}
	return translate(cur.All(ctx, out))
}

// FoldDailyStats folds nothing: the document store keeps one document per counted change, never
// the SQL store's stripes of a shared counter, so a closed day has no stripes to fold.
func (s *Store) FoldDailyStats(ctx context.Context) (int, error) { return 0, nil }
