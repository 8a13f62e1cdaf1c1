package notify

import (
	"context"
	"errors"
	"log/slog"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/tasks"
)

// deliverToUser delivers a user row: the recipient must still be able to see the task (else
// the row is dropped, nothing shown or sent); then it is shown in their in-app list and each
// channel not yet settled is decided and, where wanted, sent.
func (d *Deliverer) deliverToUser(ctx, book context.Context, log *slog.Logger, n models.Notification, t models.Task) Counts {
	r := n.Recipient
	r.Tenant = t.Tenant
	if r.Type != models.UserParticipant || !storekit.Notifiable(&t, r) {
		return d.drop(book, log, n, CodeNotRecipient)
	}
	person, err := d.store.Person(ctx, n.Tenant, r)
	switch {
	case errors.Is(err, models.ErrNotFound): // never signed in: defaults, no recorded address
		person = models.Person{Tenant: n.Tenant, User: r, Preferences: models.DefaultNotificationPreferences()}
	case err != nil && ctx.Err() != nil:
		return Counts{}
	case err != nil:
		return d.retry(book, log, n, n.Email, n.Webhook, CodeStore, n.VisibleAt != nil)
	}
	if person.User.DisplayName == "" {
		person.User.DisplayName = r.DisplayName
	}
	var dir directory.Directory
	if d.dir != nil {
		dir = d.dir
	}
	sees, err := tasks.RecipientSees(ctx, t, r, person.Manager, dir, func(ctx context.Context) (bool, error) {
		return d.store.HasActed(ctx, t.Tenant, t.ID, r)
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return Counts{}
	case err != nil:
		return d.retry(book, log, n, n.Email, n.Webhook, CodeDirectoryDown, n.VisibleAt != nil)
	case !sees:
		return d.drop(book, log, n, CodeNotVisible)
	}

	c := Counts{}
	email, emailCode := d.sendEmail(ctx, n, t, person, r)
	webhook, hookCode := d.sendWebhook(ctx, n)
	firstShown := n.VisibleAt == nil

	code := emailCode
	if code == "" {
		code = hookCode
	}
	var out models.NotificationOutcome
	var final bool
	switch {
	case !email.Settled() || !webhook.Settled():
		if ctx.Err() != nil && email == n.Email && webhook == n.Webhook {
			return Counts{} // shutdown cut the sends short and nothing new went out: the lease ends
		}
		out, final = d.failure(n, email, webhook, code, true)
	case email == models.ChannelFailed || webhook == models.ChannelFailed:
		out = models.NotificationOutcome{State: models.NotificationFailed, Email: email, Webhook: webhook, Visible: true, ErrorCode: code}
		final = true
	default:
		out = models.NotificationOutcome{State: models.NotificationDone, Email: email, Webhook: webhook, Visible: true}
	}
	c.addChannel(d, "email", n.Email, out.Email)
	c.addChannel(d, "webhook", n.Webhook, out.Webhook)
	if err := d.store.SettleNotification(book, n, out); err != nil {
		if !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("settle notification", "code", errorCode(err))
		} else {
			log.Warn("notification handled, but its lease was gone when it was recorded")
		}
		return c
	}
	if firstShown {
		c.Shown = 1
		d.observe("in-app", "shown")
		if d.o.Shown != nil {
			d.o.Shown(n.Tenant, r)
		}
	}
	seen := t.Health // the finding as read; none once this delivery cleared it
	if d.clearFailing(book, log, t, reached(n, out)) {
		seen = models.Health{}
	}
	switch {
	case out.State == models.NotificationPending:
		c.Retried = 1
		log.Warn("notification delivery failed", "attempt", n.Attempts+1, "code", code, "retryIn", out.RetryAfter.String())
	case final:
		c.Failed = 1
		log.Warn("notification delivery failed for good", "attempt", n.Attempts+1, "code", code)
		d.flagFailing(book, log, n, failingChannel(n, out), seen)
	}
	return c
}

// sendEmail decides the email channel of a visible row and sends the mail when it is wanted:
// a channel already settled stays as it is (a sent mail is never sent again); off without a
// mailer, without the person's wish for this trigger, or without an address (the directory's,
// else the one their last sign-in recorded); digest when they collect mail in a digest. An
// undecided answer with a code is a failed attempt, retried; failed is a refusal for good.
func (d *Deliverer) sendEmail(ctx context.Context, n models.Notification, t models.Task, p models.Person, r models.ParticipantRef) (models.ChannelState, string) {
	if n.Email.Settled() {
		return n.Email, ""
	}
	if d.o.Mailer == nil || !p.Preferences.EmailOn(n.Trigger) {
		return models.ChannelOff, ""
	}
	address := ""
	if d.dir != nil {
		var err error
		if address, err = d.dir.Contact(ctx, t.Tenant, r); err != nil {
			return models.ChannelUndecided, CodeDirectoryDown
		}
	}
	if address == "" {
		address = p.Email
	}
	if address == "" {
		return models.ChannelOff, ""
	}
	if p.Preferences.Digest == models.DigestHourly || p.Preferences.Digest == models.DigestDaily {
		return models.ChannelDigest, ""
	}
	send, cancel := context.WithTimeout(ctx, d.o.Timeout)
	err := d.o.Mailer.Send(send, Recipient{Person: p, Address: address}, n, TaskOf(t, d.link(t.ID)))
	cancel()
	switch {
	case err == nil:
		return models.ChannelSent, ""
	case errors.Is(err, ErrPermanent):
		return models.ChannelFailed, CodeEmailRefused
	case errors.Is(err, context.DeadlineExceeded):
		return models.ChannelUndecided, CodeEmailTimeout
	}
	return models.ChannelUndecided, CodeEmailFailed
}

// sendWebhook decides the webhook channel of a visible row: settled stays, off without a
// webhook, else one signed call keyed by the row id.
func (d *Deliverer) sendWebhook(ctx context.Context, n models.Notification) (models.ChannelState, string) {
	if n.Webhook.Settled() {
		return n.Webhook, ""
	}
	if d.o.Webhook == nil {
		return models.ChannelOff, ""
	}
	send, cancel := context.WithTimeout(ctx, d.o.Timeout)
	err := d.o.Webhook.Send(send, bodyOf(n, d.link(n.TaskID)))
	cancel()
	if err == nil {
		return models.ChannelSent, ""
	}
	var se *SendError
	if errors.As(err, &se) {
		return models.ChannelUndecided, se.Code
	}
	return models.ChannelUndecided, "webhook-failed"
}

// TaskOf is what a notification may say about t: safe fields only.
func TaskOf(t models.Task, link string) Task {
	workflowName := t.Workflow.DefinitionName
	if workflowName == "" {
		workflowName = t.Workflow.DefinitionID
	}
	return Task{ID: t.ID, Title: t.Title, Reference: t.Reference, Workflow: workflowName, DueAt: t.DueAt, Priority: t.Priority, Link: link}
}
