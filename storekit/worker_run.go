package storekit

import (
	"encoding/json"
	"fmt"

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
