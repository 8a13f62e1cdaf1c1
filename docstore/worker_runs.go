package docstore

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Worker runs as documents of user_task_worker_runs: every node records its background
// workers' runs, and recording a run deletes what lies beyond the latest KeepWorkerRuns of its
// tenant and worker (index ix_worker_runs_latest), as on SQL. Runs are inserted, never updated;
// two nodes pruning at once delete the same documents, which is harmless.

const workerRunCollection = "user_task_worker_runs"

// KeepWorkerRuns is how many runs are kept per tenant and worker, as on SQL.
const KeepWorkerRuns = 20

// RecordWorkerRuns stores finished runs: each finishes at the database's now and started its
// Elapsed before. A run over the bounds is refused before anything is stored. Without a
// transaction, a failure of the database half-way leaves the runs before it stored (each
// is a finished run of its own; nothing depends on them being stored together).
func (s *Store) RecordWorkerRuns(ctx context.Context, runs []models.WorkerRun) error {
	docs, err := storekit.WorkerRunRows(runs)
	if err != nil || len(docs) == 0 {
		return err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return err
	}
	s.codec().DateWorkerRuns(docs, runs, now)
	for i := range docs {
		if _, err := s.db.Collection(workerRunCollection).InsertOne(ctx, docs[i]); err != nil {
			return translate(err)
		}
		if err := s.pruneWorkerRuns(ctx, docs[i].TenantID, docs[i].Worker); err != nil {
			return err
		}
	}
	return nil
}

// latestRuns sorts a tenant's runs of one worker newest first (ties in time broken by the
// time-ordered id), as ix_worker_runs_latest serves them.
var latestRuns = bson.D{{Key: "started_at", Value: -1}, {Key: "_id", Value: -1}}

// pruneWorkerRuns deletes the runs of tenant and worker beyond the latest KeepWorkerRuns.
func (s *Store) pruneWorkerRuns(ctx context.Context, tenant, worker string) error {
	var old []struct {
		ID string `bson:"_id"`
	}
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "worker", Value: worker}}
	opts := options.Find().SetSort(latestRuns).SetSkip(KeepWorkerRuns).SetLimit(500).SetProjection(bson.D{{Key: "_id", Value: 1}})
	if err := s.findAll(ctx, workerRunCollection, filter, opts, &old); err != nil || len(old) == 0 {
		return err
	}
	ids := make(bson.A, 0, len(old))
	for _, o := range old {
		ids = append(ids, o.ID)
	}
	_, err := s.db.Collection(workerRunCollection).DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	return translate(err)
}

// WorkerRuns returns the latest runs (at most limit, newest first) of worker for tenant.
func (s *Store) WorkerRuns(ctx context.Context, tenant string, worker models.Worker, limit int) ([]models.WorkerRun, error) {
	limit = min(max(limit, 1), KeepWorkerRuns)
	var docs []storekit.WorkerRunRow
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "worker", Value: string(worker)}}
	if err := s.findAll(ctx, workerRunCollection, filter, options.Find().SetSort(latestRuns).SetLimit(int64(limit)), &docs); err != nil {
		return nil, err
	}
	out := make([]models.WorkerRun, 0, len(docs))
	for i := range docs {
		run, err := s.codec().WorkerRun(&docs[i])
		if err != nil {
			return nil, err
		}
		out = append(out, run)
	}
	return out, nil
}
