package main

import (
	"fmt"
	"log/slog"

	"usertasks/mailrelay"
	"usertasks/notify"
	"usertasks/store"
)

// notifyEmail sets up notification email (SPEC 10.3) from the settings the invitations use:
// the unsubscribe link's service always (a mail sent before SMTP was turned off keeps a
// working link), and with SMTP configured the mailer the delivery worker sends through and
// the digest worker (a.digest, run by serve). Without SMTP the mailer is nil: the email
// channel is off.
func (a *app) notifyEmail(cfg config, st store.Store, log *slog.Logger) (notify.Mailer, *notify.Unsubscriber, error) {
	tokens, err := notify.NewUnsubscribeTokens(cfg.Keys)
	if err != nil {
		return nil, nil, err
	}
	unsubscribe := notify.NewUnsubscriber(tokens, st)
	smtp := cfg.Invitations.SMTP
	if smtp.Host == "" && smtp.From == "" {
		return nil, unsubscribe, nil
	}
	relay, err := mailrelay.New(smtp)
	if err != nil {
		return nil, nil, fmt.Errorf("USERTASKS_SMTP_*: %w", err)
	}
	mail, err := notify.NewMail(relay, tokens, cfg.BaseURL)
	if err != nil {
		return nil, nil, fmt.Errorf("notification email: USERTASKS_BASE_URL: %w", err)
	}
	if a.digest, err = notify.NewDigester(st, notify.DigestOptions{Mailer: mail, Timeout: relay.Timeout(), Logger: log}); err != nil {
		return nil, nil, err
	}
	return mail, unsubscribe, nil
}
