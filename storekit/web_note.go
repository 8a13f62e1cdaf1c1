package storekit

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"usertasks/models"
)

// MaxWebNoteBytes bounds one web note's body.
const MaxWebNoteBytes = 1 << 20

// CheckWebNote refuses a note a store does not keep: a malformed session id hash or no lifetime
// (programming errors), a body over MaxWebNoteBytes or not UTF-8 (validation errors).
func CheckWebNote(sessionHash string, body []byte, lifetime time.Duration) error {
	switch {
	case !IsSessionHash(sessionHash):
		return errors.New("storekit: a web session id hash is 64 hex digits")
	case lifetime <= 0:
		return errors.New("storekit: a web note needs a lifetime")
	case len(body) > MaxWebNoteBytes:
		return models.Invalid(models.CodePayloadTooLarge, models.FieldError{Field: "body", Message: fmt.Sprintf("must be at most %d bytes", MaxWebNoteBytes)})
	case !utf8.Valid(body):
		return models.InvalidField("body", "must be valid UTF-8")
	}
	return nil
}

// IsWebNoteKey reports whether sessionHash and id can name a note at all (a session's id hash,
// and a minted id: a UUID in its 36-character lower-case text form), so no other text reaches
// a query.
func IsWebNoteKey(sessionHash, id string) bool {
	return IsSessionHash(sessionHash) && isMintedID(id)
}

func isMintedID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c < '0' || c > '9') && (c < 'a' || c > 'f'):
			return false
		}
	}
	return true
}

// NewWebNote is a note of the session with that id hash under a new id, kept for lifetime from
// now (the database's).
func NewWebNote(sessionHash string, body []byte, now time.Time, lifetime time.Duration) WebNoteRow {
	return WebNoteRow{ID: models.NewID(), SessionHash: sessionHash, Body: string(body), CreatedAt: now, ExpiresAt: now.Add(lifetime)}
}
