package repository_test

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/storekit"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// TestNotificationKeyTakenInsideAChange: a change whose notification key a worker wrote
// first commits with the worker's row kept, on every SQL dialect. On PostgreSQL a failed
// INSERT would abort the change's whole transaction; the store's insert skips the key instead.
func TestNotificationKeyTakenInsideAChange(t *testing.T) {
	for _, p := range testfactory.SQLProviders {
		t.Run(p.Name(), func(t *testing.T) {
			s := testfactory.OpenStore(t, p, nil)
			ctx := context.Background()
			bob := storetest.User("t1", "bob/?# ü")
			task := storetest.CreateTask(t, s, storetest.TaskOpts{Assignee: &bob})
			if _, err := s.ClaimNotifications(ctx, "drain", 100, time.Hour); err != nil { // the creation's rows, out of the way
				t.Fatal(err)
			}
			now, err := s.Now(ctx)
			if err != nil {
				t.Fatal(err)
			}
			first := storekit.NewNotification(&task, models.TriggerOverdue, int64(task.Revision+1), bob, nil, now)
			if n, err := s.AddNotifications(ctx, []models.Notification{first}); err != nil || n != 1 {
				t.Fatalf("add: %d, %v", n, err)
			}
			flag := func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
				c, err := storetest.Bump("", "")(now, cur, prior)
				c.Task.IsOverdue = true
				return c, err
			}
			c, err := s.Mutate(ctx, "t1", task.ID, "", flag)
			if err != nil {
				t.Fatalf("the change failed on its taken notification key: %v", err)
			}
			if c.Task.Revision != task.Revision+1 {
				t.Fatalf("revision %d, want %d", c.Task.Revision, task.Revision+1)
			}
			rows, err := s.ClaimNotifications(ctx, "check", 100, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 1 || rows[0].ID != first.ID || rows[0].Recipient.ID != bob.ID {
				t.Fatalf("rows %+v, want the worker's overdue row only", rows)
			}
		})
	}
}
