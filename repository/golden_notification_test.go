package repository

import (
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// goldenNotification is a pending row for recipient u1 about t, leased when lease is set.
func goldenNotification(t models.Task, trigger models.NotificationTrigger, lease *models.Lease) models.Notification {
	n := storekit.NewNotification(&t, trigger, int64(t.Revision), goldenUser("u1"), goldenPtr(goldenUser("u2")), goldenNow.Add(-time.Minute))
	n.Lease = lease
	return n
}

func goldenNotificationRecord(n models.Notification) *notificationRecord {
	rec := notificationRecord{sqlCodec.NotificationRow(&n, n.OccurredAt)}
	if n.Lease != nil {
		rec.LeaseOwner, rec.LeaseToken, rec.LeaseGeneration, rec.LeaseExpiresAt = &n.Lease.Owner, &n.Lease.Token, n.Lease.Generation, &n.Lease.ExpiresAt
	}
	if n.Email != "" {
		rec.EmailState = storekit.Opt(string(n.Email))
	}
	return &rec
}

// notificationScenarios are the statements of notifications and people (notification_*.go,
// people.go): on SQL Server and Oracle a notification is inserted a row at a time, a taken key
// skipped.
func notificationScenarios() []goldenScenario {
	lease := &models.Lease{Owner: "node-1", Token: models.NewID(), Generation: 2, ExpiresAt: goldenNow.Add(time.Minute)}
	ann := goldenUser("u1")
	return []goldenScenario{
		{"add-notifications-key-taken", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			a := goldenNotification(task, models.TriggerDueSoon, nil)
			b := storekit.NewNotification(&task, models.TriggerDueSoon, 99, goldenUser("u3"), nil, goldenNow)
			g.answer(fakeScript{Fail: failOnceOn(goldenDuplicateKey(g.s.dialect), "INSERT", "user_task_notifications")})
			n, err := g.s.AddNotifications(g.ctx, []models.Notification{a, a, b}) // a twice: written once
			goldenOK(t, err)
			if n != 1 {
				t.Fatalf("wrote %d, want 1 (the first key was taken)", n)
			}
		}},
		{"claim-notifications", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			n := goldenNotification(task, models.TriggerTaskAssigned, lease)
			g.answer(fakeScript{Rows: goldenRows{"user_task_notifications": {{goldenNotificationRecord(n)}}}.rows})
			got, err := g.s.ClaimNotifications(g.ctx, "node-1", 50, time.Minute)
			goldenOK(t, err)
			if len(got) != 1 || got[0].Lease == nil {
				t.Fatalf("claimed %+v", got)
			}
		}},
		{"settle-notification-retry", func(t *testing.T, g *goldenEnv) {
			n := goldenNotification(g.task(goldenTaskOpts{}), models.TriggerTaskAssigned, lease)
			err := g.s.SettleNotification(g.ctx, n, models.NotificationOutcome{State: models.NotificationPending, Visible: true,
				Email: models.ChannelSent, RetryAfter: time.Minute, ErrorCode: "webhook-status"})
			goldenOK(t, err)
		}},
		{"settle-notification-lease-lost", func(t *testing.T, g *goldenEnv) {
			n := goldenNotification(g.task(goldenTaskOpts{}), models.TriggerTaskAssigned, lease)
			g.answer(fakeScript{Affected: goldenAffected{"UPDATE user_task_notifications": {0}}.rows})
			err := g.s.SettleNotification(g.ctx, n, models.NotificationOutcome{State: models.NotificationDone, Email: models.ChannelOff, Webhook: models.ChannelOff})
			goldenIs(t, err, models.ErrLeaseLost)
		}},
		{"expand-notification", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateGroups: []string{"g1"}})
			group := storekit.NewNotification(&task, models.TriggerTaskAvailable, 3, goldenGroup("g1"), nil, goldenNow)
			group.Lease = lease
			members := []models.Notification{
				storekit.NewNotification(&task, models.TriggerTaskAvailable, 3, goldenUser("u1"), nil, goldenNow),
				storekit.NewNotification(&task, models.TriggerTaskAvailable, 3, goldenUser("u2"), nil, goldenNow),
			}
			n, err := g.s.ExpandNotification(g.ctx, group, members)
			goldenOK(t, err)
			if n != 2 {
				t.Fatalf("wrote %d", n)
			}
		}},
		{"notifications-page", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			n := goldenNotification(task, models.TriggerTaskAssigned, nil)
			g.answer(fakeScript{Rows: goldenRows{"user_task_notifications": {{goldenNotificationRecord(n)}}}.rows,
				Count: goldenCounts{"user_task_notifications": {1}}.count})
			page, err := g.s.Notifications(g.ctx, models.NotificationQuery{Tenant: "t1", Recipient: ann, UnreadOnly: true,
				After: &models.NotificationCursor{OccurredAt: goldenNow, ID: models.NewID()}, Limit: 20})
			goldenOK(t, err)
			if len(page.Items) != 1 || page.Unread != 1 || page.Next != nil {
				t.Fatalf("page %+v", page)
			}
		}},
		{"unread-notifications", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Count: goldenCounts{"user_task_notifications": {150}}.count})
			n, err := g.s.UnreadNotifications(g.ctx, "t1", ann, 100)
			goldenOK(t, err)
			if n != 100 {
				t.Fatalf("unread %d, want the cap", n)
			}
		}},
		{"mark-notifications-read", func(t *testing.T, g *goldenEnv) {
			n, err := g.s.MarkNotificationsRead(g.ctx, "t1", ann, []string{models.NewID(), models.NewID()}, false)
			goldenOK(t, err)
			if n != 1 {
				t.Fatalf("changed %d", n)
			}
		}},
		{"mark-notifications-read-all", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.MarkNotificationsRead(g.ctx, "t1", ann, nil, true)
			goldenOK(t, err)
		}},
		{"digests-waiting", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.DigestsWaiting(g.ctx, 20)
			goldenOK(t, err)
		}},
		{"claim-digest", func(t *testing.T, g *goldenEnv) {
			n := goldenNotification(g.task(goldenTaskOpts{}), models.TriggerTaskAssigned, lease)
			n.Email = models.ChannelDigest
			g.answer(fakeScript{Rows: goldenRows{"user_task_notifications": {{goldenNotificationRecord(n)}}}.rows})
			got, err := g.s.ClaimDigest(g.ctx, "node-1", store.DigestWaiting{Tenant: "t1", Recipient: ann, Oldest: goldenNow}, goldenNow, 100, time.Minute)
			goldenOK(t, err)
			if len(got) != 1 {
				t.Fatalf("claimed %d", len(got))
			}
		}},
		{"settle-digest", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			err := g.s.SettleDigest(g.ctx, []models.Notification{goldenNotification(task, models.TriggerTaskAssigned, lease),
				goldenNotification(task, models.TriggerDueSoon, lease)})
			goldenOK(t, err)
		}},
		{"due-soon-tasks", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			due := goldenNow.Add(time.Hour)
			task.DueAt = &due
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {nil, {g.record(task)}, nil}}.rows})
			got, err := g.s.DueSoonTasks(g.ctx, goldenNow, goldenNow.Add(24*time.Hour), &task, 100)
			goldenOK(t, err)
			if len(got) != 1 {
				t.Fatalf("got %d tasks", len(got))
			}
		}},
		{"record-person-first", func(t *testing.T, g *goldenEnv) {
			wrote, err := g.s.RecordPerson(g.ctx, models.Person{Tenant: "t1", User: ann, Email: "u1@example.com", Language: "de",
				TimeZone: "Europe/Berlin"}, time.Minute)
			goldenOK(t, err)
			if !wrote {
				t.Fatal("not written")
			}
		}},
		{"record-person-again", func(t *testing.T, g *goldenEnv) {
			old := personRecord{sqlCodec.PersonRow(&models.Person{Tenant: "t1", User: ann}, goldenNow.Add(-time.Hour))}
			g.answer(fakeScript{Rows: goldenRows{"user_task_people": {{&old}}}.rows})
			wrote, err := g.s.RecordPerson(g.ctx, models.Person{Tenant: "t1", User: ann, Manager: true}, time.Minute)
			goldenOK(t, err)
			if !wrote {
				t.Fatal("not written")
			}
		}},
		{"set-notification-preferences", func(t *testing.T, g *goldenEnv) {
			old := personRecord{sqlCodec.PersonRow(&models.Person{Tenant: "t1", User: ann}, goldenNow)}
			g.answer(fakeScript{Rows: goldenRows{"user_task_people": {{&old}}}.rows})
			p, err := g.s.SetNotificationPreferences(g.ctx, "t1", ann, models.NotificationPreferences{
				Email: map[models.NotificationTrigger]bool{models.TriggerDueSoon: true}, Digest: models.DigestDaily})
			goldenOK(t, err)
			if p.Preferences.Digest != models.DigestDaily {
				t.Fatalf("person %+v", p)
			}
		}},
		{"managers", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.Managers(g.ctx, "t1", 100)
			goldenOK(t, err)
		}},
		{"purge-notifications-page", func(t *testing.T, g *goldenEnv) {
			n := goldenNotification(g.task(goldenTaskOpts{}), models.TriggerTaskAssigned, nil)
			g.answer(fakeScript{Rows: goldenRows{"user_task_notifications": {{goldenNotificationRecord(n)}}}.rows})
			got, err := g.s.Purge(g.ctx, "t1", models.RetentionPolicy{NotificationAge: 30 * 24 * time.Hour, PageSize: 2}, nil)
			goldenOK(t, err)
			if got.Notifications != 1 {
				t.Fatalf("purged %+v", got)
			}
		}},
	}
}
