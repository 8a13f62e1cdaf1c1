// Package mailrelay sends mail through the configured SMTP relay (USERTASKS_SMTP_*) with
// go-mail: the transport that guest invitations and notification email share. It checks the
// configuration once, opens one connection per message with the TLS the configuration demands,
// and reduces every failure to a safe code, never the server's words (which may repeat the
// address).
package mailrelay

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Transport security modes (USERTASKS_SMTP_TLS).
const (
	StartTLS = "starttls" // STARTTLS required (the default)
	TLS      = "tls"      // implicit TLS from the first byte (port 465)
	NoTLS    = "none"     // plain text; dev mode only
)

// Config is how mail reaches the relay.
type Config struct {
	Host     string
	Port     int // default 587, or 465 with TLS
	Username string
	Password string // with Username: AUTH PLAIN (over TLS only)
	From     string
	TLS      string // StartTLS (default), TLS or NoTLS
	// TLSConfig overrides the TLS client configuration (tests trust their own CA with it).
	TLSConfig *tls.Config
	// Timeout bounds one attempt. Default 30 s.
	Timeout time.Duration
}

// Relay sends messages through one relay. It is safe for concurrent use.
type Relay struct {
	cfg    Config
	domain string // the sender address's domain, for Message-IDs
}

// New checks cfg. The sender address must parse; the password needs a user name.
func New(cfg Config) (*Relay, error) {
	if cfg.TLS == "" {
		cfg.TLS = StartTLS
	}
	switch {
	case cfg.Host == "":
		return nil, fmt.Errorf("the SMTP host is required")
	case cfg.TLS != StartTLS && cfg.TLS != TLS && cfg.TLS != NoTLS:
		return nil, fmt.Errorf("the SMTP TLS mode must be starttls, tls or none")
	case cfg.Password != "" && cfg.Username == "":
		return nil, fmt.Errorf("an SMTP password needs a user name")
	}
	if cfg.Port == 0 {
		cfg.Port = 587
		if cfg.TLS == TLS {
			cfg.Port = 465
		}
	}
	if cfg.Port < 1 || cfg.Port > 65535 {
		return nil, fmt.Errorf("the SMTP port must be between 1 and 65535")
	}
	if err := gomail.NewMsg().From(cfg.From); err != nil || cfg.From == "" {
		return nil, fmt.Errorf("the SMTP sender address does not parse")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	r := &Relay{cfg: cfg, domain: "localhost"}
	if a, err := mail.ParseAddress(cfg.From); err == nil {
		if _, d, ok := strings.Cut(a.Address, "@"); ok && d != "" {
			r.domain = d
		}
	}
	return r, nil
}

// Domain is the sender address's domain: the right-hand side of the Message-IDs a caller
// makes itself.
func (r *Relay) Domain() string { return r.domain }

// Timeout is how long one attempt may take.
func (r *Relay) Timeout() time.Duration { return r.cfg.Timeout }

// NewMsg starts a message from the configured sender to one address, dated now. An address
// that does not parse (a header injected into it included) fails with CodeBadRecipient.
func (r *Relay) NewMsg(to string) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	if err := msg.From(r.cfg.From); err != nil {
		return nil, fail(CodeConfig)
	}
	if to == "" || strings.ContainsAny(to, "\r\n") {
		return nil, fail(CodeBadRecipient)
	}
	if err := msg.To(to); err != nil {
		return nil, fail(CodeBadRecipient)
	}
	msg.SetDate()
	return msg, nil
}

// Send delivers msg in one attempt on a connection of its own. A failure is an *Error with a
// safe code.
func (r *Relay) Send(ctx context.Context, msg *gomail.Msg) error {
	opts := []gomail.Option{gomail.WithPort(r.cfg.Port), gomail.WithTimeout(r.cfg.Timeout)}
	switch r.cfg.TLS {
	case TLS:
		opts = append(opts, gomail.WithSSL())
	case NoTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	tc := r.cfg.TLSConfig
	if tc == nil {
		tc = &tls.Config{ServerName: r.cfg.Host, MinVersion: tls.VersionTLS12}
	}
	opts = append(opts, gomail.WithTLSConfig(tc))
	if r.cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(r.cfg.Username), gomail.WithPassword(r.cfg.Password))
	}
	client, err := gomail.NewClient(r.cfg.Host, opts...)
	if err != nil {
		return fail(CodeConfig)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return classify(err)
	}
	return nil
}
