package main

import (
	"fmt"
	"time"

	"usertasks/notify"
)

// notifyConfig is how notifications are delivered (SPEC 10.3; docs/notifications.md).
type notifyConfig struct {
	Interval      time.Duration // USERTASKS_NOTIFY_INTERVAL: the delivery worker's poll
	WebhookURL    string        // USERTASKS_NOTIFY_WEBHOOK_URL: the tenant-wide webhook
	WebhookSecret string        // USERTASKS_NOTIFY_WEBHOOK_SECRET: signs its calls
	DueSoon       time.Duration // USERTASKS_DUE_SOON: how long before its due time a task is due soon
}

// Bounds of the notification settings: a poll faster than the other workers' floor would spin,
// and a due-soon window beyond a year tells people about nothing they can act on yet.
const (
	defaultNotifyInterval = 5 * time.Second
	minDueSoon            = time.Minute
	maxDueSoon            = 365 * 24 * time.Hour
)

func defaultNotify() notifyConfig {
	return notifyConfig{Interval: defaultNotifyInterval, DueSoon: notify.DefaultDueSoon}
}

// notifySettings are the table entries of notifyConfig, bound to c.
func (c *config) notifySettings() []setting {
	n := &c.Notify
	return []setting{
		{name: "USERTASKS_NOTIFY_INTERVAL", set: duration(&n.Interval, minCadence, "5s, 30s")},
		{name: "USERTASKS_NOTIFY_WEBHOOK_URL", set: text(&n.WebhookURL)},
		{name: "USERTASKS_NOTIFY_WEBHOOK_SECRET", file: true, set: text(&n.WebhookSecret)},
		{name: "USERTASKS_DUE_SOON", set: duration(&n.DueSoon, minDueSoon, "24h, 4h")},
		{name: "USERTASKS_RETENTION_NOTIFICATION_AGE", tools: true, set: duration(&c.Retention.NotificationAge, minRetentionAge, "720h, 168h")},
	}
}

// checkNotify refuses a webhook that could not deliver: a URL without a secret (or the other
// way round), one that is not an absolute http(s) URL, a short secret, and, outside dev mode,
// no USERTASKS_BASE_URL (every notification links to a task page under it).
func (c *config) checkNotify() error {
	n := c.Notify
	if n.DueSoon > maxDueSoon {
		return fmt.Errorf("USERTASKS_DUE_SOON must be at most %s", maxDueSoon)
	}
	switch {
	case n.WebhookURL == "" && n.WebhookSecret == "":
		return nil
	case n.WebhookURL == "":
		return fmt.Errorf("USERTASKS_NOTIFY_WEBHOOK_URL is required with USERTASKS_NOTIFY_WEBHOOK_SECRET")
	case n.WebhookSecret == "":
		return fmt.Errorf("USERTASKS_NOTIFY_WEBHOOK_SECRET is required with USERTASKS_NOTIFY_WEBHOOK_URL: the receiver checks each call's signature")
	case !c.Dev && !c.Invitations.baseURLSet:
		return fmt.Errorf("USERTASKS_BASE_URL is required with USERTASKS_NOTIFY_WEBHOOK_URL: every notification links to its task under it")
	}
	if _, err := c.notifyWebhook(); err != nil {
		return err
	}
	return nil
}

// notifyWebhook builds the configured notification webhook (call it when a URL is set).
func (c *config) notifyWebhook() (*notify.Webhook, error) {
	w, err := notify.NewWebhook(c.Notify.WebhookURL, c.Notify.WebhookSecret, notify.WebhookOptions{})
	if err != nil {
		return nil, fmt.Errorf("USERTASKS_NOTIFY_WEBHOOK_URL / _SECRET: %w", err)
	}
	return w, nil
}
