package store

import (
	"context"

	"usertasks/models"
)

// Activity answers what the list rows tell of the tasks' comments and files (issue 29 item 4),
// read for the rows of one page when they are shown: nothing is counted on the write path.
type Activity interface {
	// ActivityCounts counts, per task of tenant among taskIDs, its comments that are not
	// deleted and its finished attachments (an unfinished upload is not counted); a task
	// holding neither, unknown, or of another tenant is absent from the map. Ids may repeat;
	// no ids read nothing. More than models.MaxActivityCountTasks ids (one list page) is a
	// validation error naming taskIds, before anything is read. The counts come from one
	// read per kind over the tasks named, not one per task; who may see the tasks is the
	// caller's business (the list that showed them).
	ActivityCounts(ctx context.Context, tenant string, taskIDs []string) (map[string]models.ActivityCount, error)
}
