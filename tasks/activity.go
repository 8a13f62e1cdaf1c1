package tasks

import (
	"context"

	"usertasks/models"
)

// ActivityCounts counts the comments and files of the tasks of a list page a was shown (the
// inbox row's icons, issue 29 item 4): one store read for the page, never one per row. The
// items must come from a list of a's (List), which authorized every row: whoever a list shows
// a task may read its summary, and so its comments and files (SPEC 10.1). A task without
// either is absent from the map; guests, who read neither, are refused.
func (s *Service) ActivityCounts(ctx context.Context, a models.Actor, items []TaskView) (map[string]models.ActivityCount, error) {
	if a.System {
		return nil, models.ErrForbidden
	}
	if err := requirePermission(a, models.PermView); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(items))
	for _, v := range items {
		if v.Task.Tenant == a.Tenant {
			ids = append(ids, v.Task.ID)
		}
	}
	return s.store.ActivityCounts(ctx, a.Tenant, ids)
}
