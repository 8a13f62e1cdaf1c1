package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"usertasks/invitations"
)

// invitationConfig is how invitations reach guests (SPEC 6): the dispatcher new invitations
// name, and the settings of each dispatcher that is configured.
type invitationConfig struct {
	// Dispatcher names the dispatcher of new invitations (USERTASKS_INVITATION_DISPATCHER).
	// Unset, it is the one dispatcher configured (SMTP or the webhook), else the dev mailbox
	// in dev mode; empty outside dev mode means invitations cannot be issued.
	Dispatcher    string
	WebhookURL    string // USERTASKS_INVITATION_WEBHOOK_URL
	WebhookSecret string // USERTASKS_INVITATION_WEBHOOK_SECRET
	SMTP          invitations.SMTPConfig
	// baseURLSet: USERTASKS_BASE_URL was given (not the listen-address fallback).
	baseURLSet bool
}

// invitationSettings are the table entries of invitationConfig, bound to c.
func (c *config) invitationSettings() []setting {
	i, m := &c.Invitations, &c.Invitations.SMTP
	return []setting{
		{name: "USERTASKS_INVITATION_DISPATCHER", set: oneOf(&i.Dispatcher,
			invitations.DispatcherSMTP, invitations.DispatcherWebhook, invitations.DispatcherDevMailbox)},
		{name: "USERTASKS_INVITATION_WEBHOOK_URL", set: text(&i.WebhookURL)},
		{name: "USERTASKS_INVITATION_WEBHOOK_SECRET", file: true, set: text(&i.WebhookSecret)},
		{name: "USERTASKS_SMTP_HOST", set: text(&m.Host)},
		{name: "USERTASKS_SMTP_PORT", set: port(&m.Port)},
		{name: "USERTASKS_SMTP_USERNAME", set: text(&m.Username)},
		{name: "USERTASKS_SMTP_PASSWORD", file: true, set: text(&m.Password)},
		{name: "USERTASKS_SMTP_FROM", set: text(&m.From)},
		{name: "USERTASKS_SMTP_TLS", set: oneOf(&m.TLS, invitations.SMTPStartTLS, invitations.SMTPTLS, invitations.SMTPNoTLS)},
	}
}

// oneOf stores a value that is one of allowed.
func oneOf(dst *string, allowed ...string) func(name, v string) error {
	return func(name, v string) error {
		for _, a := range allowed {
			if v == a {
				*dst = v
				return nil
			}
		}
		return fmt.Errorf("%s must be one of %v, not %s", name, allowed, quoteShort(v))
	}
}

// port stores a TCP port number.
func port(dst *int) func(name, v string) error {
	return func(name, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%s must be a port number (1-65535), not %s", name, quoteShort(v))
		}
		*dst = n
		return nil
	}
}

// checkInvitations picks the dispatcher of new invitations when none is named and refuses what
// cannot deliver: a dispatcher without its settings, the dev mailbox or plain-text SMTP outside
// dev mode, and a base URL that is missing or no absolute URL (guest links start with it).
func (c *config) checkInvitations() error {
	i := &c.Invitations
	if i.Dispatcher == "" {
		if err := c.impliedDispatcher(); err != nil {
			return err
		}
	}
	if !c.Dev {
		switch {
		case i.Dispatcher == invitations.DispatcherDevMailbox:
			return fmt.Errorf("USERTASKS_INVITATION_DISPATCHER=dev-mailbox is for dev mode only: it shows every invitation link on a page")
		case i.SMTP.TLS == invitations.SMTPNoTLS:
			return fmt.Errorf("USERTASKS_SMTP_TLS=none is for dev mode only: use starttls or tls")
		case i.Dispatcher != "" && !i.baseURLSet:
			return fmt.Errorf("USERTASKS_BASE_URL is required to send invitations (dispatcher %s): invitation links start with it", i.Dispatcher)
		}
	}
	if i.Dispatcher != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return fmt.Errorf("USERTASKS_BASE_URL must be an absolute http(s) URL without query, fragment or credentials (a path is allowed)")
		}
		if u.Scheme != "https" && !c.Dev {
			return fmt.Errorf("USERTASKS_BASE_URL must use https outside dev mode: invitation links carry their token")
		}
	}
	switch {
	case i.Dispatcher == invitations.DispatcherSMTP && i.SMTP.Host == "":
		return fmt.Errorf("USERTASKS_SMTP_HOST and USERTASKS_SMTP_FROM are required for the smtp dispatcher")
	case i.Dispatcher == invitations.DispatcherWebhook && i.WebhookURL == "":
		return fmt.Errorf("USERTASKS_INVITATION_WEBHOOK_URL is required for the webhook dispatcher")
	}
	_, err := c.invitationDispatchers(nil)
	return err
}

// impliedDispatcher sets the dispatcher of new invitations when USERTASKS_INVITATION_DISPATCHER
// is unset: the one dispatcher whose settings are given; in dev mode with none, the dev mailbox.
// Settings of several without a choice stop the start: sending by whichever came first would
// surprise, and refusing every invitation (invitations-unavailable) with a dispatcher configured
// is what the variable's absence used to do.
func (c *config) impliedDispatcher() error {
	var configured []string
	if c.Invitations.SMTP.Host != "" || c.Invitations.SMTP.From != "" {
		configured = append(configured, invitations.DispatcherSMTP)
	}
	if c.Invitations.WebhookURL != "" || c.Invitations.WebhookSecret != "" {
		configured = append(configured, invitations.DispatcherWebhook)
	}
	switch {
	case len(configured) > 1:
		return fmt.Errorf("SMTP (USERTASKS_SMTP_HOST) and the webhook (USERTASKS_INVITATION_WEBHOOK_URL) are both configured: set USERTASKS_INVITATION_DISPATCHER to %s to say which sends new invitations",
			strings.Join(configured, " or "))
	case len(configured) == 1:
		c.Invitations.Dispatcher = configured[0]
	case c.Dev:
		c.Invitations.Dispatcher = invitations.DispatcherDevMailbox
	}
	return nil
}

// invitationDispatchers builds every configured dispatcher by name: SMTP when a host is set,
// the webhook when a URL is set, and mailbox (the dev mailbox) in dev mode. Rows name their
// dispatcher, so one issued under an earlier setting still goes out.
func (c *config) invitationDispatchers(mailbox *invitations.DevMailbox) (map[string]invitations.Dispatcher, error) {
	i := c.Invitations
	out := map[string]invitations.Dispatcher{}
	if i.SMTP.Host != "" || i.SMTP.From != "" {
		d, err := invitations.NewSMTP(i.SMTP)
		if err != nil {
			return nil, fmt.Errorf("USERTASKS_SMTP_*: %w", err)
		}
		out[invitations.DispatcherSMTP] = d
	}
	if i.WebhookURL != "" || i.WebhookSecret != "" {
		d, err := invitations.NewWebhook(i.WebhookURL, i.WebhookSecret, invitations.WebhookOptions{})
		if err != nil {
			return nil, fmt.Errorf("USERTASKS_INVITATION_WEBHOOK_URL / _SECRET: %w", err)
		}
		out[invitations.DispatcherWebhook] = d
	}
	if c.Dev && mailbox != nil {
		out[invitations.DispatcherDevMailbox] = mailbox
	}
	return out, nil
}

// devMailbox is the in-memory dev mailbox in dev mode, else nil (no page, no dispatcher).
func devMailbox(cfg config) *invitations.DevMailbox {
	if !cfg.Dev {
		return nil
	}
	return invitations.NewDevMailbox(0)
}
