package storekit

import "usertasks/models"

// WorkerPageLimit clamps the page size of a worker's read to 1..models.MaxPageSize; zero or
// less reads a full page.
func WorkerPageLimit(limit int) int {
	if limit <= 0 || limit > models.MaxPageSize {
		return models.MaxPageSize
	}
	return limit
}
