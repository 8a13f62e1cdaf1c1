package repository

import (
	"context"
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
	storekit.WorkerRunRow `gorm:"embedded"`
}

func (workerRunRecord) TableName() string { return "user_task_worker_runs" }

// RecordWorkerRuns stores finished runs in one transaction: each finishes at the database's
// now and started its Elapsed before. Counts are bounded (at most models.MaxWorkerRunCounts
// names, 1,000 bytes of JSON); a run over the bounds is refused, nothing is stored.
func (s *Store) RecordWorkerRuns(ctx context.Context, runs []models.WorkerRun) error {
	rows, err := storekit.WorkerRunRows(runs)
	if err != nil || len(rows) == 0 {
		return err
	}
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		s.codec().DateWorkerRuns(rows, runs, now)
		for i := range rows {
			if err := tx.Create(&workerRunRecord{WorkerRunRow: rows[i]}).Error; err != nil {
				return translate(err)
			}
			if err := s.pruneWorkerRuns(tx, rows[i].TenantID, rows[i].Worker); err != nil {
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
	return decodeAll(recs, func(r *workerRunRecord) (models.WorkerRun, error) { return s.codec().WorkerRun(&r.WorkerRunRow) })
}
