package main

import (
	"context"
	"fmt"
	"log/slog"

	"usertasks/directory"
	"usertasks/mailrelay"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/tasks"
)

// notifyEmail sets up notification email (SPEC 10.3) from the settings the invitations use:
// the unsubscribe link's service always (a mail sent before SMTP was turned off keeps a
// working link), and with SMTP configured the mailer the delivery worker sends through and
// the digest worker (a.digest, run by serve). Without SMTP the mailer is nil: the email
// channel is off.
func (a *app) notifyEmail(cfg config, st store.Store, dir directory.Directory, log *slog.Logger) (*notify.Unsubscriber, error) {
	tokens, err := notify.NewUnsubscribeTokens(cfg.Keys)
	if err != nil {
		return nil, err
	}
	unsubscribe := notify.NewUnsubscriber(tokens, st)
	smtp := cfg.Invitations.SMTP
	if smtp.Host == "" && smtp.From == "" {
		return unsubscribe, nil
	}
	relay, err := mailrelay.New(smtp)
	if err != nil {
		return nil, fmt.Errorf("USERTASKS_SMTP_*: %w", err)
	}
	mail, err := notify.NewMail(relay, tokens, cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("notification email: USERTASKS_BASE_URL: %w", err)
	}
	digest := notify.DigestOptions{Mailer: mail, Timeout: relay.Timeout(), Logger: log,
		Address: func(ctx context.Context, p models.Person) (string, error) { return notifyAddress(ctx, dir, p) },
		Visible: func(ctx context.Context, t models.Task, p models.Person) (bool, error) {
			return tasks.RecipientSees(ctx, t, p.User, p.Manager, dir, func(ctx context.Context) (bool, error) {
				return st.HasActed(ctx, t.Tenant, t.ID, p.User)
			})
		}}
	if a.digest, err = notify.NewDigester(st, digest); err != nil {
		return nil, err
	}
	a.mailer = mail
	return unsubscribe, nil
}

// notifyAddress is where a person's digest goes: the directory's address for them when it
// knows one (directory.Contacts), else the one their last sign-in recorded; the delivery
// worker picks a single mail's address the same way.
func notifyAddress(ctx context.Context, dir directory.Directory, p models.Person) (string, error) {
	if c, ok := dir.(directory.Contacts); ok {
		address, err := c.Contact(ctx, p.Tenant, p.User)
		if err != nil || address != "" {
			return address, err
		}
	}
	return p.Email, nil
}
