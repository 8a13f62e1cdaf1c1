package storekit

import (
	"testing"
	"time"

	"usertasks/models"
)

// TestCommentCursor: a comment list's cursor reads back what it was made of, only for the same
// task, never as a task list's or the notification list's cursor nor those as it, and never
// with an id that is not an identifier.
func TestCommentCursor(t *testing.T) {
	at := time.Date(2030, 6, 12, 10, 11, 12, 123456789, time.FixedZone("CEST", 2*3600))
	pos := models.CommentCursor{CreatedAt: at, ID: "0190a000-0000-7000-8000-000000000001"}
	const task = "task/ü?#1"
	malformed := func(t *testing.T, err error) {
		t.Helper()
		if got := models.ErrorCode(err); got != models.CodeMalformedRequest {
			t.Fatalf("error %v has code %q, want %q", err, got, models.CodeMalformedRequest)
		}
	}
	got, err := DecodeCommentCursor(EncodeCommentCursor(pos, task), task)
	if err != nil || !got.CreatedAt.Equal(at) || got.CreatedAt.Location() != time.UTC || got.ID != pos.ID {
		t.Fatalf("round trip: %+v (%v), want %+v in UTC", got, err, pos)
	}
	_, err = DecodeCommentCursor(EncodeCommentCursor(pos, task), "task/ü?#2")
	malformed(t, err)
	_, err = DecodeNotificationCursor(EncodeCommentCursor(pos, task), false)
	malformed(t, err)
	_, _, err = DecodeCursor(EncodeCommentCursor(pos, task), models.SortCreated, false, commentFilters(task))
	malformed(t, err)
	_, err = DecodeCommentCursor(EncodeNotificationCursor(models.NotificationCursor{OccurredAt: at, ID: pos.ID}, false), task)
	malformed(t, err)
	for _, id := range []string{"", "a\x00b", "a\u202eb", "tab\there", string(make([]byte, 65))} {
		raw, err := CommentKeyset.Encode(commentFilters(task), SortValue{Time: at}, id)
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeCommentCursor(raw, task)
		malformed(t, err)
	}
}
