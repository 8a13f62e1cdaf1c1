package invitations

import (
	"context"
	"errors"
	"net"
	"time"
)

// The dispatchers a delivery row may name (its Dispatcher column).
const (
	DispatcherSMTP       = "smtp"
	DispatcherWebhook    = "webhook"
	DispatcherDevMailbox = "dev-mailbox"
)

// Message is what a dispatcher sends to a guest: the link carries the raw token and Code is
// the `code` verifier's one-time code (empty for bearer invitations). A Message lives for one
// dispatch attempt; dispatchers never log it.
type Message struct {
	Tenant       string
	TaskID       string
	InvitationID string
	Recipient    string
	Link         string
	Code         string
	ExpiresAt    time.Time
}

// Dispatcher hands one invitation to its guest. Dispatch is called once per delivery attempt
// and either succeeds or fails with an error whose ErrorCode is safe to store and log.
type Dispatcher interface {
	Dispatch(ctx context.Context, m Message) error
}

// DispatchError is a failed dispatch reduced to a safe code: never an address, a link, a code
// or a server's own words (which may echo any of them).
type DispatchError struct{ Code string }

func (e *DispatchError) Error() string { return "invitations: delivery failed: " + e.Code }

// failed is a DispatchError with code.
func failed(code string) error { return &DispatchError{Code: code} }

// Safe codes shared by the dispatchers.
const (
	CodeTimeout          = "dispatch-timeout"
	CodeFailed           = "dispatch-failed"
	CodeUnknownRecipient = "no-recipient"
)

// ErrorCode is err's safe code: a DispatchError's own, dispatch-timeout for a deadline, else
// dispatch-failed. Nothing of err's text is kept.
func ErrorCode(err error) string {
	var de *DispatchError
	var ne net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &de):
		return de.Code
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return CodeTimeout
	}
	return CodeFailed
}

// MessageOf builds the Message of a delivery: the payload opened for this attempt, and the
// row's names. baseURL is USERTASKS_BASE_URL.
func MessageOf(baseURL, tenant, taskID, invitationID string, expiresAt time.Time, p Payload) Message {
	return Message{Tenant: tenant, TaskID: taskID, InvitationID: invitationID, Recipient: p.Recipient,
		Link: Link(baseURL, p.Token), Code: p.Code, ExpiresAt: expiresAt.UTC()}
}
