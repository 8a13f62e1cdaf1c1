package notify

import (
	"context"
	"errors"
	"log/slog"
	"slices"

	"usertasks/models"
)

// Channels a notification-delivery-failing finding is about: the one that failed for good.
const (
	channelInApp   = "in-app" // the row itself: the store or the directory did not answer
	channelEmail   = "email"
	channelWebhook = "webhook"
)

// failingMessages are the finding's safe messages, one per channel. A task's health has no
// field for the channel, so the message names it: a later delivery clears only the finding of
// the channel it just reached (an email sent says nothing about a failing webhook).
var failingMessages = map[string]string{
	channelInApp:   "A notification of this task failed for good: the directory or the store did not answer through every retry.",
	channelEmail:   "A notification of this task could not be emailed, even after every retry (the mail server or the directory failed, or the address was refused).",
	channelWebhook: "A notification of this task could not be sent to the notification webhook, even after every retry.",
}

// known reports whether message is one of failingMessages (a finding with another message, of
// an older version, is cleared by a delivery on any channel).
func known(message string) bool {
	for _, m := range failingMessages {
		if m == message {
			return true
		}
	}
	return false
}

// failingChannel is the channel whose failure made the final outcome out of a shown row n
// failed: the first channel this outcome failed. (A row that fails for good before its
// channels were tried, because the store or the directory did not answer, is channelInApp.)
func failingChannel(n models.Notification, out models.NotificationOutcome) string {
	if out.Email == models.ChannelFailed && n.Email != models.ChannelFailed {
		return channelEmail
	}
	return channelWebhook
}

// reached lists the channels on which n's outcome out delivered something now: in-app when
// the row was shown for the first time, email and webhook when they were sent by this attempt.
func reached(n models.Notification, out models.NotificationOutcome) []string {
	var chs []string
	if out.Visible && n.VisibleAt == nil {
		chs = append(chs, channelInApp)
	}
	if out.Email == models.ChannelSent && n.Email != models.ChannelSent {
		chs = append(chs, channelEmail)
	}
	if out.Webhook == models.ChannelSent && n.Webhook != models.ChannelSent {
		chs = append(chs, channelWebhook)
	}
	return chs
}

// flagFailing gives n's task the advisory health notification-delivery-failing about channel,
// as the invitation delivery does: never in place of an existing finding (seen is the task's
// finding as this delivery read it; the task is read again to narrow the race), and SetHealth
// leaves closed tasks and blocking findings alone.
func (d *Deliverer) flagFailing(book context.Context, log *slog.Logger, n models.Notification, channel string, seen models.Health) {
	if seen.Severity != models.SeverityNone {
		return
	}
	t, err := d.store.Get(book, n.Tenant, n.TaskID)
	if err != nil {
		if !errors.Is(err, models.ErrNotFound) {
			log.Warn("read task for health", "code", errorCode(err))
		}
		return
	}
	if t.Health.Severity != models.SeverityNone {
		return
	}
	h := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthNotificationDeliveryFailing, Message: failingMessages[channel]}
	if err := d.store.SetHealth(book, n.Tenant, n.TaskID, h); err != nil {
		log.Warn("set health", "code", errorCode(err))
		return
	}
	log.Info("task flagged notification-delivery-failing", "channel", channel)
}

// clearFailing removes t's notification-delivery-failing finding when this delivery reached
// the channel it is about. t is the task as this delivery read it: most deliveries see no
// such finding and cost no further read or write. It reports whether it cleared it.
func (d *Deliverer) clearFailing(book context.Context, log *slog.Logger, t models.Task, channels []string) bool {
	if t.Health.Code != models.HealthNotificationDeliveryFailing || len(channels) == 0 {
		return false
	}
	if known(t.Health.Message) && !slices.ContainsFunc(channels, func(ch string) bool { return failingMessages[ch] == t.Health.Message }) {
		return false
	}
	if err := d.store.ClearHealth(book, t.Tenant, t.ID, models.HealthNotificationDeliveryFailing); err != nil {
		log.Warn("clear health", "code", errorCode(err))
		return false
	}
	log.Info("notification-delivery-failing cleared")
	return true
}
