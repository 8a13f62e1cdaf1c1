package notify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	gomail "github.com/wneessen/go-mail"

	"usertasks/mailrelay"
	"usertasks/models"
)

// Mail is the Mailer on the SMTP relay the invitations use: each mail plain text and HTML in
// the recipient's language (English or German) and time zone, with the task's safe fields
// only, and a signed one-click unsubscribe (RFC 8058) from its trigger's email, or a digest's
// from the digest.
//
// Email is at least once: SMTP cannot tell a repeated message from a new one, so a relay that
// accepted a mail whose acceptance never reached the worker (a timeout after DATA, a lost
// lease) gets it again on the retry. The Message-ID is derived from the notification (a
// digest's: from its rows), so the repeat carries the same id and mail stores that drop
// duplicate ids show it once.
type Mail struct {
	relay  *mailrelay.Relay
	tokens *UnsubscribeTokens
	base   string
}

// NewMail builds the mailer. baseURL is USERTASKS_BASE_URL: task links, the unsubscribe link
// and the settings page start with it.
func NewMail(relay *mailrelay.Relay, tokens *UnsubscribeTokens, baseURL string) (*Mail, error) {
	u, err := url.Parse(baseURL)
	switch {
	case relay == nil || tokens == nil:
		return nil, errors.New("notify: the mailer needs the relay and the unsubscribe tokens")
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return nil, errors.New("notify: the base URL must be an absolute http(s) URL without query, fragment or credentials")
	}
	return &Mail{relay: relay, tokens: tokens, base: strings.TrimRight(baseURL, "/")}, nil
}

// MailError is a failed mail reduced to a safe code (the relay's: smtp-rcpt-550, smtp-tls, …,
// or no-address, not-a-user, mail-render). It matches ErrPermanent when retrying cannot help
// and context.DeadlineExceeded when the attempt timed out.
type MailError struct {
	Code      string
	permanent bool
}

func (e *MailError) Error() string { return "notify: mail failed: " + e.Code }

// Is lets errors.Is see a permanent failure as ErrPermanent and a timeout as
// context.DeadlineExceeded.
func (e *MailError) Is(target error) bool {
	return (target == ErrPermanent && e.permanent) || (target == context.DeadlineExceeded && e.Code == mailrelay.CodeTimeout)
}

// MailErrorCode is err's safe code: a MailError's own, else "email-failed".
func MailErrorCode(err error) string {
	var me *MailError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &me):
		return me.Code
	}
	return "email-failed"
}

// Safe codes of the mails refused before the relay.
const (
	MailNoAddress = "no-address"  // the recipient has no address
	MailNotAUser  = "not-a-user"  // a group or a guest: never mailed
	MailRender    = "mail-render" // the mail could not be made
)

func mailFailed(err error) error {
	if err == nil {
		return nil
	}
	return &MailError{Code: mailrelay.Code(err), permanent: mailrelay.Permanent(err)}
}

// Send mails one notification to its recipient.
func (m *Mail) Send(ctx context.Context, to Recipient, n models.Notification, t Task) error {
	if err := mailable(to, n.Recipient); err != nil {
		return err
	}
	w, loc := mailTextFor(to.Person.Language), location(to.Person.TimeZone)
	if t.Link == "" {
		t.Link = m.taskLink(n.TaskID)
	}
	v := w.single(n, t, loc)
	return m.send(ctx, to.Address, v, Unsubscription{Tenant: n.Tenant, User: n.Recipient, Trigger: n.Trigger},
		mailID("n", n.Tenant, n.ID), mailID("t", n.Tenant, n.TaskID))
}

// SendDigest mails one digest of items (all of one recipient) for period; no items, no mail.
func (m *Mail) SendDigest(ctx context.Context, to Recipient, period models.DigestPeriod, items []Item) error {
	if len(items) == 0 {
		return nil
	}
	first := items[0].Notification
	if err := mailable(to, first.Recipient); err != nil {
		return err
	}
	for i := range items {
		if items[i].Task.Link == "" {
			items[i].Task.Link = m.taskLink(items[i].Notification.TaskID)
		}
	}
	w, loc := mailTextFor(to.Person.Language), location(to.Person.TimeZone)
	v := w.digest(period, items, loc)
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.Notification.ID
	}
	slices.Sort(ids)
	return m.send(ctx, to.Address, v, Unsubscription{Tenant: first.Tenant, User: first.Recipient},
		mailID("d", append([]string{first.Tenant}, ids...)...), "")
}

// mailable refuses what is never mailed: no address, a group, a guest.
func mailable(to Recipient, r models.ParticipantRef) error {
	switch {
	case r.Type != models.UserParticipant || r.Provider == models.GuestProvider:
		return &MailError{Code: MailNotAUser, permanent: true}
	case strings.TrimSpace(to.Address) == "":
		return &MailError{Code: MailNoAddress, permanent: true}
	}
	return nil
}

// send renders v and hands it to the relay with the unsubscribe headers of u.
func (m *Mail) send(ctx context.Context, address string, v mailView, u Unsubscription, messageID, thread string) error {
	token, err := m.tokens.Token(u)
	if err != nil {
		return &MailError{Code: MailNotAUser, permanent: true}
	}
	v.UnsubscribeURL = m.base + "/notifications/unsubscribe?t=" + url.QueryEscape(token)
	v.SettingsURL = m.base + "/settings/notifications"
	text, html, err := v.render()
	if err != nil {
		return &MailError{Code: MailRender}
	}
	msg, err := m.relay.NewMsg(address)
	if err != nil {
		return mailFailed(err)
	}
	msg.Subject(v.Subject)
	msg.SetMessageIDWithValue(messageID + "@" + m.relay.Domain())
	if thread != "" {
		// Mail about one task threads together in clients that follow References.
		msg.SetGenHeader(gomail.HeaderReferences, "<"+thread+"@"+m.relay.Domain()+">")
	}
	msg.SetGenHeader("List-Unsubscribe", "<"+v.UnsubscribeURL+">")
	msg.SetGenHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	msg.SetGenHeader(gomail.HeaderXAutoResponseSuppress, "All")
	msg.SetBodyString(gomail.TypeTextPlain, text)
	msg.AddAlternativeString(gomail.TypeTextHTML, html)
	return mailFailed(m.relay.Send(ctx, msg))
}

// taskLink is the task's page: base/tasks/{id}, the id escaped as one path segment.
func (m *Mail) taskLink(id string) string { return m.base + "/tasks/" + url.PathEscape(id) }

// mailID is a Message-ID's left side made from parts: the same parts, the same id (a retried
// mail repeats its id), and nothing of the parts readable.
func mailID(kind string, parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return kind + "." + hex.EncodeToString(h.Sum(nil)[:20])
}
