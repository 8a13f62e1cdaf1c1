package storekit

import (
	"fmt"

	"usertasks/models"
)

// ActivityTaskIDs is the set of task ids an ActivityCounts read names (store.Activity): more
// than models.MaxActivityCountTasks is the validation error naming taskIds; repeats and
// empty ids are dropped, first appearance kept.
func ActivityTaskIDs(ids []string) ([]string, error) {
	if len(ids) > models.MaxActivityCountTasks {
		return nil, models.InvalidField("taskIds", fmt.Sprintf("at most %d tasks", models.MaxActivityCountTasks))
	}
	out := make([]string, 0, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// AddActivity puts n of one kind on task id's count in m, leaving tasks counted 0 out.
func AddActivity(m map[string]models.ActivityCount, id string, n int, attachments bool) {
	if n <= 0 {
		return
	}
	c := m[id]
	if attachments {
		c.Attachments += n
	} else {
		c.Comments += n
	}
	m[id] = c
}
