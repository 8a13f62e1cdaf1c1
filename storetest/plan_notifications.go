package storetest

import (
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// testNotificationPlans pins the indexes of the notification reads on the SQL stores: the
// in-app list (a first page and one after its cursor) and its unread count walk
// ix_notifications_inbox, and the delivery worker's claim walks ix_notifications_due, once
// the table holds thousands of rows of many recipients, almost all settled, and is analyzed.
func testNotificationPlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder) {
	users := []string{"me", "ann", "bob", "cy", "dan", "eve", "fay", "gus", "hal", "ivy"}
	// 2 tenants × 10 tasks × 10 recipients × 12 revisions: 2,400 rows, 120 of them me's in p1.
	var tasks []models.Task
	var ns []models.Notification
	for _, tenant := range []string{"p1", "p2"} {
		for range 10 {
			task := CreateTask(t, s, TaskOpts{Tenant: tenant})
			tasks = append(tasks, task)
			for _, id := range users {
				for rev := range 12 {
					ns = append(ns, storekit.NewNotification(&task, models.TriggerDueSoon, int64(rev), User(tenant, id), nil, time.Time{}))
				}
			}
		}
	}
	if _, err := s.AddNotifications(ctx(t), ns); err != nil {
		t.Fatalf("add notifications: %v", err)
	}
	planSettleAll(t, s)
	// A few stay pending: what the claim's walk finds among the settled rows.
	var pending []models.Notification
	for i := range 30 {
		pending = append(pending, storekit.NewNotification(&tasks[i%10], models.TriggerOverdue, int64(i), User("p1", "me"), nil, time.Time{}))
	}
	if _, err := s.AddNotifications(ctx(t), pending); err != nil {
		t.Fatalf("add notifications: %v", err)
	}
	h.SQL.Analyze(t, s)

	me := User("p1", "me")
	reads := []struct {
		name, index string
		read        func(t *testing.T)
	}{
		{"InAppListUsesTheInboxIndex", "ix_notifications_inbox", func(t *testing.T) {
			q := models.NotificationQuery{Tenant: "p1", Recipient: me, Limit: 20}
			for page := 0; page < 2; page++ {
				got, err := s.Notifications(ctx(t), q)
				if err != nil {
					t.Fatal(err)
				}
				if got.Next == nil || got.Unread < 120 {
					t.Fatalf("page %d: next %v, unread %d: want a next page and at least 120 unread", page+1, got.Next, got.Unread)
				}
				q.After = got.Next
			}
		}},
		{"UnreadCountUsesTheInboxIndex", "ix_notifications_inbox", func(t *testing.T) {
			if _, err := s.UnreadNotifications(ctx(t), "p1", me, 99); err != nil {
				t.Fatal(err)
			}
		}},
		{"ClaimUsesTheDueIndex", "ix_notifications_due", func(t *testing.T) {
			if _, err := s.ClaimNotifications(ctx(t), "plan", 10, time.Minute); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range reads {
		t.Run(c.name, func(t *testing.T) {
			rec.reset()
			c.read(t)
			// The reads of the table: its SELECTs (the claim's UPDATE finds its rows by id).
			var stmts []string
			for _, stmt := range rec.statements() {
				up := strings.ToUpper(strings.TrimSpace(stmt))
				if strings.HasPrefix(up, "SELECT") && strings.Contains(up, "USER_TASK_NOTIFICATIONS") && !strings.Contains(up, "LEASE_TOKEN =") {
					stmts = append(stmts, stmt)
				}
			}
			if len(stmts) == 0 {
				t.Fatal("no SELECT of user_task_notifications was recorded")
			}
			for _, stmt := range stmts {
				plan := h.SQL.Explain(t, s, stmt)
				if !strings.Contains(plan, c.index) {
					t.Errorf("%s: the plan does not read %s\nstatement:\n%s\nplan:\n%s", h.Name, c.index, stmt, plan)
				}
				if scan := planTableScan(h.SQL.Dialect, plan, "user_task_notifications"); scan != "" {
					t.Errorf("%s: the plan scans all of user_task_notifications (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
				}
			}
		})
	}
}

// planSettleAll claims every pending row and settles it shown, eight workers at a time: the
// rows the seed's projections caused too.
func planSettleAll(t *testing.T, s store.Store) {
	t.Helper()
	shown := models.NotificationOutcome{State: models.NotificationDone, Visible: true, Email: models.ChannelOff, Webhook: models.ChannelOff}
	for {
		ns, err := s.ClaimNotifications(ctx(t), "plan-seed", 400, time.Hour)
		if err != nil {
			t.Fatalf("claim: %v", err)
		}
		if len(ns) == 0 {
			return
		}
		work := make(chan models.Notification)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var failure error
		for range 8 {
			wg.Go(func() {
				for n := range work {
					if err := s.SettleNotification(ctx(t), n, shown); err != nil {
						mu.Lock()
						failure = err
						mu.Unlock()
					}
				}
			})
		}
		for _, n := range ns {
			work <- n
		}
		close(work)
		wg.Wait()
		if failure != nil {
			t.Fatalf("settle: %v", failure)
		}
	}
}
