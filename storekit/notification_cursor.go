package storekit

import "usertasks/models"

// NotificationKeyset is the in-app notification list's order: newest first by the time the
// notification occurred, then by id. Its cursors are the task list's (Keyset), with the sort
// "occurred", which no task sort has, so neither list reads the other's cursor.
var NotificationKeyset = Keyset{Sort: "occurred", Desc: true, Kind: KindTime}

// notificationFilters is the digest of the in-app list's one filter, the unread switch.
func notificationFilters(unread bool) string {
	if unread {
		return "unread"
	}
	return "all"
}

// EncodeNotificationCursor renders the position after c in the in-app list, with or without
// the unread filter.
func EncodeNotificationCursor(c models.NotificationCursor, unread bool) string {
	// A time value and an id always encode: the error of Encode is for an unknown sort kind.
	raw, _ := NotificationKeyset.Encode(notificationFilters(unread), SortValue{Time: c.OccurredAt}, c.ID)
	return raw
}

// DecodeNotificationCursor reads a cursor EncodeNotificationCursor made for the same unread
// filter; anything else is a malformed request, as the task list refuses its cursors. The id
// must be an identifier (no control or format characters), like the ids the store writes.
func DecodeNotificationCursor(raw string, unread bool) (*models.NotificationCursor, error) {
	v, id, err := NotificationKeyset.Decode(raw, notificationFilters(unread))
	if err != nil {
		return nil, err
	}
	if models.TextProblem(id, models.Identifier) != "" {
		return nil, models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "cursor", Message: "the cursor names no row"})
	}
	return &models.NotificationCursor{OccurredAt: v.Time, ID: id}, nil
}
