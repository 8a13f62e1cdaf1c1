package invitations

import (
	"context"
	"html/template"
	"strings"

	"github.com/wneessen/go-mail"

	"usertasks/mailrelay"
)

// SMTP transport security modes (USERTASKS_SMTP_TLS): the relay's, which notification email
// shares (package mailrelay).
const (
	SMTPStartTLS = mailrelay.StartTLS // STARTTLS required (the default)
	SMTPTLS      = mailrelay.TLS      // implicit TLS from the first byte (port 465)
	SMTPNoTLS    = mailrelay.NoTLS    // plain text; dev mode only
)

// SMTPConfig is how the SMTP dispatcher reaches its relay.
type SMTPConfig = mailrelay.Config

// SMTP mails invitations through a relay with go-mail: plain text and HTML, English.
type SMTP struct {
	relay *mailrelay.Relay
}

// NewSMTP checks cfg. The sender address must parse; the password needs a user name.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	r, err := mailrelay.New(cfg)
	if err != nil {
		return nil, err
	}
	return &SMTP{relay: r}, nil
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
	if err := s.relay.Send(ctx, msg); err != nil {
		return failed(smtpCode(err))
	}
	return nil
}

// message builds the mail of m.
func (s *SMTP) message(m Message) (*mail.Msg, error) {
	msg, err := s.relay.NewMsg(m.Recipient)
	if err != nil {
		return nil, failed(smtpCode(err))
	}
	msg.Subject(mailSubject)
	msg.SetMessageID()
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

// smtpCode is the relay's safe code of err, with a timeout named as every dispatcher names it.
func smtpCode(err error) string {
	if c := mailrelay.Code(err); c != mailrelay.CodeTimeout {
		return c
	}
	return CodeTimeout
}
