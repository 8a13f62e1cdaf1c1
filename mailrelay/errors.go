package mailrelay

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/textproto"
	"strconv"
	"strings"

	gomail "github.com/wneessen/go-mail"
)

// Error is a failed send reduced to a safe code: the SMTP status number and the step that
// failed (smtp-rcpt-550, smtp-auth-535, smtp-tls, …), never the server's text, an address or
// a credential. Permanent marks what retrying cannot fix: the relay refused the recipient or
// the message itself (a 5xx answer to RCPT or DATA), or the address does not parse.
type Error struct {
	Code      string
	Permanent bool
}

func (e *Error) Error() string { return "mailrelay: send failed: " + e.Code }

// Safe codes the relay gives besides the SMTP ones.
const (
	CodeConfig       = "smtp-config"        // the client could not be set up
	CodeBadRecipient = "smtp-bad-recipient" // the address does not parse
	CodeTimeout      = "smtp-timeout"       // the attempt ran out of time
	CodeUnreachable  = "smtp-unreachable"
	CodeTLS          = "smtp-tls"
	CodeFailed       = "smtp-failed"
)

func fail(code string) error {
	return &Error{Code: code, Permanent: code == CodeBadRecipient}
}

// Code is err's safe code: an *Error's own, else CodeFailed ("" for nil).
func Code(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return CodeFailed
}

// Permanent reports whether err is a failure retrying cannot fix.
func Permanent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Permanent
}

// classify reduces a go-mail error to an *Error.
func classify(err error) *Error {
	var se *gomail.SendError
	if errors.As(err, &se) {
		step := "send"
		switch se.Reason {
		case gomail.ErrSMTPRcptTo, gomail.ErrGetRcpts:
			step = "rcpt"
		case gomail.ErrSMTPMailFrom, gomail.ErrGetSender:
			step = "sender"
		case gomail.ErrSMTPData, gomail.ErrSMTPDataClose:
			step = "data"
		}
		c := se.ErrorCode()
		if c <= 0 {
			return &Error{Code: "smtp-" + step}
		}
		// 5xx on a recipient or on the message is the relay's final word about this mail.
		permanent := c >= 500 && c < 600 && (step == "rcpt" || step == "data")
		return &Error{Code: "smtp-" + step + "-" + strconv.Itoa(c), Permanent: permanent}
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		if te.Code == 535 || te.Code == 534 || te.Code == 530 || te.Code == 454 {
			return &Error{Code: "smtp-auth-" + strconv.Itoa(te.Code)}
		}
		return &Error{Code: "smtp-" + strconv.Itoa(te.Code)}
	}
	var ue x509.UnknownAuthorityError
	var he x509.HostnameError
	var ce *tls.CertificateVerificationError
	var re tls.RecordHeaderError
	var ae tls.AlertError
	if errors.As(err, &ue) || errors.As(err, &he) || errors.As(err, &ce) || errors.As(err, &re) || errors.As(err, &ae) ||
		strings.Contains(err.Error(), "STARTTLS") {
		return &Error{Code: CodeTLS}
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return &Error{Code: CodeTimeout}
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return &Error{Code: CodeUnreachable}
	}
	if strings.Contains(err.Error(), "AUTH") {
		return &Error{Code: "smtp-auth"}
	}
	return &Error{Code: CodeFailed}
}
