package main

import (
	"log/slog"

	"usertasks/directory"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/workers"
)

// notifyWorkers sets up the notification workers of `web serve` (SPEC 10.3): the delivery
// worker (in-app, email, webhook) and the due-soon worker, on the workers' loops beside the
// outboxes. Both run on every node; leases and unique keys keep them exact.
func (a *app) notifyWorkers(cfg config, st store.Store, dir directory.Directory, o *workers.Options, log *slog.Logger) error {
	// The email channel: a.mailer (notifyEmail) is nil without SMTP, which keeps it off.
	mailer := a.mailer
	var hook *notify.Webhook
	if cfg.Notify.WebhookURL != "" {
		var err error
		if hook, err = cfg.notifyWebhook(); err != nil {
			return err
		}
	}
	o.NotifyEvery = cfg.Notify.Interval
	o.Notify = notify.NewDeliverer(st, notify.Options{
		Owner: o.Owner, BaseURL: cfg.BaseURL, Directory: dir, Mailer: mailer, Webhook: hook,
		Observer: a.metrics, Logger: log,
		// Shown tells the live bell of the recipient's open pages (live's notification kind).
		Shown: a.broker.Notify,
	})
	o.DueSoon = notify.NewDueSoon(st, notify.DueSoonOptions{Window: cfg.Notify.DueSoon, Logger: log})
	return nil
}
