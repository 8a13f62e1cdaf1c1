package notify

import (
	"context"
	"errors"

	"usertasks/models"
)

// items are the rows still worth mailing with their tasks: the trigger's email still on, the
// task still there and (with Visible) still the person's to see. ok is false when a read
// failed.
func (d *Digester) items(ctx context.Context, p models.Person, prefs models.NotificationPreferences, rows []models.Notification) ([]Item, bool) {
	type seen struct {
		task Task
		keep bool
	}
	tasks := map[string]seen{}
	var items []Item
	for _, n := range rows {
		if !prefs.EmailOn(n.Trigger) {
			continue
		}
		s, ok := tasks[n.TaskID]
		if !ok {
			t, err := d.store.Get(ctx, n.Tenant, n.TaskID)
			switch {
			case errors.Is(err, models.ErrNotFound):
			case err != nil:
				return nil, false
			default:
				s.keep = true
				if d.o.Visible != nil {
					if s.keep, err = d.o.Visible(ctx, t, p); err != nil {
						return nil, false
					}
				}
				s.task = TaskOf(t, "") // the mail adds the link
			}
			tasks[n.TaskID] = s
		}
		if s.keep {
			items = append(items, Item{Notification: n, Task: s.task})
		}
	}
	return items, true
}
