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
	// The email channel: nil keeps it off. The SMTP notification mailer (notify/mail.go) is
	// connected here once it exists; with SMTP unconfigured it stays nil.
	var mailer notify.Mailer
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
		// Shown tells the live bell of the recipient's open pages; connected to the broker's
		// notification kind (package live) once it exists.
		Shown: nil,
	})
	o.DueSoon = notify.NewDueSoon(st, notify.DueSoonOptions{Window: cfg.Notify.DueSoon, Logger: log})
	return nil
}
