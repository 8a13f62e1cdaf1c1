package repository

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// Worker runs (migration 00003): every node records the runs of its background workers here,
// so a manager's page shows the last ones whichever node served it. The table stays bounded:
// recording a run deletes what lies beyond the latest KeepWorkerRuns of its tenant and worker.

// KeepWorkerRuns is how many runs are kept per tenant and worker.
const KeepWorkerRuns = 20

type workerRunRecord struct {
	ID         string    `gorm:"column:id;primaryKey"`
	Worker     string    `gorm:"column:worker"`
	TenantID   string    `gorm:"column:tenant_id"`
	StartedAt  time.Time `gorm:"column:started_at;autoCreateTime:false"`
	FinishedAt time.Time `gorm:"column:finished_at"`
	CountsJSON string    `gorm:"column:counts_json"`
	ErrorCode  *string   `gorm:"column:error_code"`
}

func (workerRunRecord) TableName() string { return "user_task_worker_runs" }

// RecordWorkerRuns stores finished runs in one transaction: each finishes at the database's
// now and started its Elapsed before. Counts are bounded (at most models.MaxWorkerRunCounts
// names, 1,000 bytes of JSON); a run over the bounds is refused, nothing is stored.
func (s *Store) RecordWorkerRuns(ctx context.Context, runs []models.WorkerRun) error {
	recs := make([]workerRunRecord, 0, len(runs))
	elapsed := make([]time.Duration, 0, len(runs))
	for _, r := range runs {
		counts, err := storekit.WorkerRunCounts(r)
		if err != nil {
			return err
		}
		recs = append(recs, workerRunRecord{ID: models.NewID(), Worker: string(r.Worker), TenantID: r.Tenant,
			CountsJSON: counts, ErrorCode: opt(r.ErrorCode)})
		elapsed = append(elapsed, r.Elapsed)
	}
	if len(recs) == 0 {
		return nil
	}
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		for i := range recs {
			recs[i].FinishedAt = utc(now)
			recs[i].StartedAt = utc(now.Add(-elapsed[i]))
			if err := tx.Create(&recs[i]).Error; err != nil {
				return translate(err)
			}
			if err := s.pruneWorkerRuns(tx, recs[i].TenantID, recs[i].Worker); err != nil {
				return err
			}
		}
		return nil
	})
}

// pruneWorkerRuns deletes the runs of tenant and worker beyond the latest KeepWorkerRuns
// (ties in time broken by the time-ordered id). Recording prunes every time, so at most a
// handful lie beyond.
func (s *Store) pruneWorkerRuns(tx *gorm.DB, tenant, worker string) error {
	var ids []string
	err := tx.Model(&workerRunRecord{}).Where("tenant_id = ? AND worker = ?", tenant, worker).
		Order("started_at DESC").Order("id DESC").Offset(KeepWorkerRuns).Limit(maxInList).Pluck("id", &ids).Error
	if err != nil || len(ids) == 0 {
		return translate(err)
	}
	return translate(tx.Where("id IN ?", ids).Delete(&workerRunRecord{}).Error)
}

// WorkerRuns returns the latest runs (at most limit, newest first) of worker for tenant.
func (s *Store) WorkerRuns(ctx context.Context, tenant string, worker models.Worker, limit int) ([]models.WorkerRun, error) {
	limit = min(max(limit, 1), KeepWorkerRuns)
	var recs []workerRunRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Where("tenant_id = ? AND worker = ?", tenant, string(worker)).
			Order("started_at DESC").Order("id DESC").Limit(limit).Find(&recs).Error)
	})
	if err != nil {
		return nil, err
	}
	out := make([]models.WorkerRun, 0, len(recs))
	for _, r := range recs {
		run := models.WorkerRun{Worker: models.Worker(r.Worker), Tenant: r.TenantID, StartedAt: r.StartedAt.UTC(),
			FinishedAt: r.FinishedAt.UTC(), ErrorCode: str(r.ErrorCode)}
		if err := json.Unmarshal([]byte(r.CountsJSON), &run.Counts); err != nil {
			return nil, fmt.Errorf("repository: worker run %s: counts do not decode: %w", r.ID, err)
		}
		out = append(out, run)
	}
	return out, nil
}
