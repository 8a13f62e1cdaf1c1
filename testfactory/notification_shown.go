package testfactory

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// NotificationWriter is the store side ShowNotification needs; store.Store satisfies it.
type NotificationWriter interface {
	AddNotifications(ctx context.Context, ns []models.Notification) (int, error)
	ClaimNotifications(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Notification, error)
	SettleNotification(ctx context.Context, n models.Notification, out models.NotificationOutcome) error
}

// ShowNotification writes a notification of trigger about task for user (of the task's
// tenant, the default provider) and settles it as the delivery worker does for a recipient
// who may see the task: shown in-app, email and webhook off. Other pending rows it happens to
// lease (those the task's creation wrote) are put back pending, due at once. It returns the
// row as written.
func ShowNotification(ctx context.Context, t testing.TB, s NotificationWriter, task models.Task, trigger models.NotificationTrigger, user string, actor *models.ParticipantRef) models.Notification {
	t.Helper()
	n := storekit.NewNotification(&task, trigger, int64(task.Revision), User(task.Tenant, user), actor, time.Now().UTC())
	if _, err := s.AddNotifications(ctx, []models.Notification{n}); err != nil {
		t.Fatalf("add notification: %v", err)
	}
	for {
		claimed, err := s.ClaimNotifications(ctx, "testfactory", 500, time.Minute)
		if err != nil {
			t.Fatalf("claim notifications: %v", err)
		}
		if len(claimed) == 0 {
			t.Fatalf("notification %s was not claimable", n.Key())
		}
		found := false
		for _, c := range claimed {
			out := models.NotificationOutcome{State: models.NotificationPending}
			if c.Key() == n.Key() {
				out = models.NotificationOutcome{State: models.NotificationDone, Email: models.ChannelOff, Webhook: models.ChannelOff, Visible: true}
				n, found = c, true
			}
			if err := s.SettleNotification(ctx, c, out); err != nil {
				t.Fatalf("settle notification: %v", err)
			}
		}
		if found {
			return n
		}
	}
}
