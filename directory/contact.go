package directory

import (
	"context"
	"fmt"
	"net/mail"
	"strings"

	"usertasks/models"
)

// Contacts is what a directory may also know of a user: the address notifications are mailed
// to (SPEC 10.3). It is optional: a consumer asks for it with a type assertion, and without it
// uses the address the person's last sign-in recorded.
type Contacts interface {
	// Contact is user's email address, "" when the directory knows the user but no address;
	// an unknown user is an error wrapping models.ErrNotFound.
	Contact(ctx context.Context, tenant string, user models.ParticipantRef) (string, error)
}

// maxEmailLength is the longest address accepted (RFC 5321's path limit).
const maxEmailLength = 320

// checkEmail accepts "" or one plain address (no display name, no CR or LF, which would let
// an address write mail headers).
func checkEmail(email string) error {
	if email == "" {
		return nil
	}
	if len(email) > maxEmailLength || strings.ContainsAny(email, "\r\n<>") {
		return fmt.Errorf("the email is not one plain address")
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || a.Name != "" {
		return fmt.Errorf("the email is not one plain address")
	}
	return nil
}
