package invitations

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"
)

// SMTP transport security modes (USERTASKS_SMTP_TLS).
const (
	SMTPStartTLS = "starttls" // STARTTLS required (the default)
	SMTPTLS      = "tls"      // implicit TLS from the first byte (port 465)
	SMTPNoTLS    = "none"     // plain text; dev mode only
)

// SMTPConfig is how the SMTP dispatcher reaches its relay.
type SMTPConfig struct {
	Host     string
	Port     int // default 587, or 465 with SMTPTLS
	Username string
	Password string // with Username: AUTH PLAIN (over TLS only)
	From     string
	TLS      string // SMTPStartTLS (default), SMTPTLS or SMTPNoTLS
	// TLSConfig overrides the TLS client configuration (tests trust their own CA with it).
	TLSConfig *tls.Config
	// Timeout bounds one attempt. Default 30 s.
	Timeout time.Duration
}

// SMTP mails invitations through a relay with go-mail: plain text and HTML, English.
type SMTP struct {
	cfg SMTPConfig
}

// NewSMTP checks cfg. The sender address must parse; the password needs a user name.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	if cfg.TLS == "" {
		cfg.TLS = SMTPStartTLS
	}
	switch {
	case cfg.Host == "":
		return nil, fmt.Errorf("the SMTP host is required")
	case cfg.TLS != SMTPStartTLS && cfg.TLS != SMTPTLS && cfg.TLS != SMTPNoTLS:
		return nil, fmt.Errorf("the SMTP TLS mode must be starttls, tls or none")
	case cfg.Password != "" && cfg.Username == "":
		return nil, fmt.Errorf("an SMTP password needs a user name")
	}
	if cfg.Port == 0 {
		cfg.Port = 587
		if cfg.TLS == SMTPTLS {
			cfg.Port = 465
		}
	}
	if cfg.Port < 1 || cfg.Port > 65535 {
		return nil, fmt.Errorf("the SMTP port must be between 1 and 65535")
	}
	if err := mail.NewMsg().From(cfg.From); err != nil || cfg.From == "" {
		return nil, fmt.Errorf("the SMTP sender address does not parse")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &SMTP{cfg: cfg}, nil
}

// Dispatch sends one attempt. Failures carry a safe code (smtp-auth, smtp-tls,
// smtp-rcpt-<status>, …), never the server's reply, which may repeat the address.
func (s *SMTP) Dispatch(ctx context.Context, m Message) error {
	if m.Recipient == "" {
		return failed(CodeUnknownRecipient)
	}
	msg, err := s.message(m)
	if err != nil {
		return err
	}
	opts := []mail.Option{mail.WithPort(s.cfg.Port), mail.WithTimeout(s.cfg.Timeout)}
	switch s.cfg.TLS {
	case SMTPTLS:
		opts = append(opts, mail.WithSSL())
	case SMTPNoTLS:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	tc := s.cfg.TLSConfig
	if tc == nil {
		tc = &tls.Config{ServerName: s.cfg.Host, MinVersion: tls.VersionTLS12}
	}
	opts = append(opts, mail.WithTLSConfig(tc))
	if s.cfg.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(s.cfg.Username), mail.WithPassword(s.cfg.Password))
	}
	client, err := mail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return failed("smtp-config")
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return failed(smtpCode(err))
	}
	return nil
}

// message builds the mail of m.
func (s *SMTP) message(m Message) (*mail.Msg, error) {
	msg := mail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return nil, failed("smtp-config")
	}
	if err := msg.To(m.Recipient); err != nil {
		return nil, failed("smtp-bad-recipient")
	}
	msg.Subject(mailSubject)
	msg.SetMessageID()
	msg.SetDate()
	text, html, err := mailBodies(m)
	if err != nil {
		return nil, failed(CodeFailed)
	}
	msg.SetBodyString(mail.TypeTextPlain, text)
	msg.AddAlternativeString(mail.TypeTextHTML, html)
	return msg, nil
}

const mailSubject = "You are invited to complete a task"

var mailHTML = template.Must(template.New("mail").Parse(`<!DOCTYPE html>
<html lang="en"><body>
<p>You have been invited to complete a task.</p>
<p><a href="{{.Link}}">Open the task</a></p>
{{if .Code}}<p>You will be asked for this code: <strong>{{.Code}}</strong></p>{{end}}
<p>The link works once, until {{.Until}}. If you did not expect this message, ignore it.</p>
</body></html>
`))

// mailBodies are the plain-text and HTML bodies of m.
func mailBodies(m Message) (string, string, error) {
	until := m.ExpiresAt.UTC().Format("2 January 2006, 15:04 UTC")
	var b strings.Builder
	b.WriteString("You have been invited to complete a task.\n\nOpen it here:\n" + m.Link + "\n\n")
	if m.Code != "" {
		b.WriteString("You will be asked for this code: " + m.Code + "\n\n")
	}
	b.WriteString("The link works once, until " + until + ". If you did not expect this message, ignore it.\n")
	var h strings.Builder
	err := mailHTML.Execute(&h, struct{ Link, Code, Until string }{m.Link, m.Code, until})
	return b.String(), h.String(), err
}

// smtpCode reduces a go-mail error to a safe code: the SMTP status number and the step that
// failed, never the server's text.
func smtpCode(err error) string {
	var se *mail.SendError
	if errors.As(err, &se) {
		step := "send"
		switch se.Reason {
		case mail.ErrSMTPRcptTo, mail.ErrGetRcpts:
			step = "rcpt"
		case mail.ErrSMTPMailFrom, mail.ErrGetSender:
			step = "sender"
		case mail.ErrSMTPData, mail.ErrSMTPDataClose:
			step = "data"
		}
		if c := se.ErrorCode(); c > 0 {
			return "smtp-" + step + "-" + strconv.Itoa(c)
		}
		return "smtp-" + step
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		if te.Code == 535 || te.Code == 534 || te.Code == 530 || te.Code == 454 {
			return "smtp-auth-" + strconv.Itoa(te.Code)
		}
		return "smtp-" + strconv.Itoa(te.Code)
	}
	var ue x509.UnknownAuthorityError
	var he x509.HostnameError
	var ce *tls.CertificateVerificationError
	var re tls.RecordHeaderError
	var ae tls.AlertError
	if errors.As(err, &ue) || errors.As(err, &he) || errors.As(err, &ce) || errors.As(err, &re) || errors.As(err, &ae) ||
		strings.Contains(err.Error(), "STARTTLS") {
		return "smtp-tls"
	}
	if ErrorCode(err) == CodeTimeout {
		return CodeTimeout
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return "smtp-unreachable"
	}
	if strings.Contains(err.Error(), "AUTH") {
		return "smtp-auth"
	}
	return "smtp-failed"
}
