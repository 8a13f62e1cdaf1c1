package handlers

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"time"

	"usertasks/models"
)

// The in-app list's cursor: the last row's time and id, bound to the unread filter, as
// base64url JSON. It is opaque to clients; anything but what encodeNotificationCursor made
// for the same filter is 400 malformed-request, as the task list refuses its cursors.

const notificationCursorVersion = 1

type notificationCursor struct {
	Version int    `json:"v"`
	At      string `json:"at"`
	ID      string `json:"id"`
	Unread  bool   `json:"u,omitempty"`
}

func encodeNotificationCursor(c models.NotificationCursor, unread bool) string {
	b, _ := json.Marshal(notificationCursor{Version: notificationCursorVersion, At: c.OccurredAt.UTC().Format(time.RFC3339Nano), ID: c.ID, Unread: unread})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeNotificationCursor(raw string, unread bool) (*models.NotificationCursor, error) {
	bad := func(msg string) (*models.NotificationCursor, error) {
		return nil, models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "cursor", Message: msg})
	}
	if len(raw) > 512 {
		return bad("the cursor is too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return bad("the cursor is unreadable")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c notificationCursor
	if err := dec.Decode(&c); err != nil || dec.More() {
		return bad("the cursor is unreadable")
	}
	if c.Version != notificationCursorVersion {
		return bad("the cursor is of an unknown version")
	}
	if c.Unread != unread {
		return bad("the cursor belongs to other filters")
	}
	at, err := time.Parse(time.RFC3339Nano, c.At)
	if err != nil || c.ID == "" || len(c.ID) > 64 || models.TextProblem(c.ID, models.Identifier) != "" {
		return bad("the cursor names no row")
	}
	return &models.NotificationCursor{OccurredAt: at.UTC(), ID: c.ID}, nil
}
