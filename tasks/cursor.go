package tasks

import (
	"encoding/base64"
	"strconv"
	"strings"

	"usertasks/models"
)

// The service's own cursors hold one number behind a prefix that names what it counts.
const (
	eventCursor       = "ev1:" // the last event sequence listed
	participantCursor = "pp1:" // an offset into the directory's answer, below its size
)

// encodeCursor mints the cursor holding n.
func encodeCursor(prefix string, n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(prefix + strconv.Itoa(n)))
}

// decodeCursor reads a cursor encodeCursor minted with prefix: "" is 0; one that does not
// read, or whose number valid refuses, is malformed-request.
func decodeCursor(prefix, c string, valid func(int) bool) (int, error) {
	if c == "" {
		return 0, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	bad := models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "cursor", Message: "unreadable cursor"})
	if err != nil || !strings.HasPrefix(string(raw), prefix) {
		return 0, bad
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(raw), prefix))
	if err != nil || !valid(n) {
		return 0, bad
	}
	return n, nil
}
