package storekit

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// WorkerRunRow is a finished worker run as stored (user_task_worker_runs).
type WorkerRunRow struct {
	ID         string    `gorm:"column:id;primaryKey" bson:"_id"`
	Worker     string    `gorm:"column:worker" bson:"worker"`
	TenantID   string    `gorm:"column:tenant_id" bson:"tenant_id"`
	StartedAt  time.Time `gorm:"column:started_at;autoCreateTime:false" bson:"started_at"`
	FinishedAt time.Time `gorm:"column:finished_at" bson:"finished_at"`
	CountsJSON string    `gorm:"column:counts_json" bson:"counts_json"`
	ErrorCode  *string   `gorm:"column:error_code" bson:"error_code"`
}

// WorkerRunRows checks finished runs against what a store keeps of them (WorkerRunCounts) and
// encodes each under a new id, row i for runs[i]; one run over the bounds refuses them all.
// They are dated once the store has its time (DateWorkerRuns).
func WorkerRunRows(runs []models.WorkerRun) ([]WorkerRunRow, error) {
	rows := make([]WorkerRunRow, 0, len(runs))
	for _, r := range runs {
		counts, err := WorkerRunCounts(r)
		if err != nil {
			return nil, err
		}
		rows = append(rows, WorkerRunRow{ID: models.NewID(), Worker: string(r.Worker), TenantID: r.Tenant,
			CountsJSON: counts, ErrorCode: Opt(r.ErrorCode)})
	}
	return rows, nil
}

// DateWorkerRuns dates the rows of runs recorded at now: each finished then and started its
// Elapsed before.
func (c Codec) DateWorkerRuns(rows []WorkerRunRow, runs []models.WorkerRun, now time.Time) {
	for i := range rows {
		rows[i].FinishedAt = c.Time(now)
		rows[i].StartedAt = c.Time(now.Add(-runs[i].Elapsed))
	}
}

// WorkerRun decodes r; counts that do not decode are models.ErrCorrupt.
func (c Codec) WorkerRun(r *WorkerRunRow) (models.WorkerRun, error) {
	run := models.WorkerRun{Worker: models.Worker(r.Worker), Tenant: r.TenantID, StartedAt: c.Time(r.StartedAt),
		FinishedAt: c.Time(r.FinishedAt), ErrorCode: Str(r.ErrorCode)}
	if err := json.Unmarshal([]byte(r.CountsJSON), &run.Counts); err != nil {
		return models.WorkerRun{}, fmt.Errorf("%w: worker run %s: counts do not decode", models.ErrCorrupt, r.ID)
	}
	return run, nil
}
