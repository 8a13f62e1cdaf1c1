package storekit

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// maxCountsJSON is the length of a worker run's counts as stored (the counts_json column).
const maxCountsJSON = 1000

// WorkerRunCounts checks a finished worker run against what a store keeps of it (names and
// error code within their columns, at most models.MaxWorkerRunCounts counts, 1,000 bytes of
// JSON) and returns its counts as stored: a JSON object, "{}" when there are none.
func WorkerRunCounts(r models.WorkerRun) (string, error) {
	if r.Worker == "" || r.Tenant == "" || len(r.Worker) > 32 || len(r.Tenant) > 64 || len(r.ErrorCode) > 64 || r.Elapsed < 0 {
		return "", fmt.Errorf("storekit: worker run %q of tenant %q is malformed", r.Worker, r.Tenant)
	}
	if len(r.Counts) > models.MaxWorkerRunCounts {
		return "", fmt.Errorf("storekit: worker run %q has %d counts, at most %d", r.Worker, len(r.Counts), models.MaxWorkerRunCounts)
	}
	counts := r.Counts
	if counts == nil {
		counts = map[string]int{}
	}
	raw, err := json.Marshal(counts) // map keys come out sorted
	if err != nil {
		return "", err
	}
	if len(raw) > maxCountsJSON {
		return "", fmt.Errorf("storekit: worker run %q counts exceed %d bytes", r.Worker, maxCountsJSON)
	}
	return string(raw), nil
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
