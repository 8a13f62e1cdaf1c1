package storekit

import (
	"encoding/base64"
	"testing"
	"time"

	"usertasks/models"
)

// TestNotificationCursor: the in-app list's cursor reads back what it was made of, only for
// the same unread filter, never as a task list cursor nor a task list cursor as it, and never
// with an id that is not an identifier.
func TestNotificationCursor(t *testing.T) {
	at := time.Date(2030, 6, 12, 10, 11, 12, 123456789, time.FixedZone("CEST", 2*3600))
	pos := models.NotificationCursor{OccurredAt: at, ID: "0190a000-0000-7000-8000-000000000001"}
	malformed := func(t *testing.T, err error) {
		t.Helper()
		if got := models.ErrorCode(err); got != models.CodeMalformedRequest {
			t.Fatalf("error %v has code %q, want %q", err, got, models.CodeMalformedRequest)
		}
	}

	t.Run("RoundTrip", func(t *testing.T) {
		for _, unread := range []bool{false, true} {
			got, err := DecodeNotificationCursor(EncodeNotificationCursor(pos, unread), unread)
			if err != nil || !got.OccurredAt.Equal(at) || got.OccurredAt.Location() != time.UTC || got.ID != pos.ID {
				t.Fatalf("unread=%v: %+v (%v), want %+v in UTC", unread, got, err, pos)
			}
		}
	})
	t.Run("OtherFilter", func(t *testing.T) {
		_, err := DecodeNotificationCursor(EncodeNotificationCursor(pos, false), true)
		malformed(t, err)
	})
	t.Run("NotATaskCursor", func(t *testing.T) {
		raw := EncodeNotificationCursor(pos, false)
		_, _, err := DecodeCursor(raw, models.SortCreated, true, "all")
		malformed(t, err)
		task, err := EncodeCursor(models.SortCreated, true, "all", SortValue{Time: at}, pos.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeNotificationCursor(task, false)
		malformed(t, err)
	})
	t.Run("HostileIDs", func(t *testing.T) {
		for _, id := range []string{"", "a\x00b", "a\u202eb", "tab\there", "0190a000-0000-7000-8000-0000000000010"} {
			raw, err := NotificationKeyset.Encode("all", SortValue{Time: at}, id)
			if err != nil {
				t.Fatal(err)
			}
			_, err = DecodeNotificationCursor(raw, false)
			malformed(t, err)
		}
	})
	t.Run("OldFormat", func(t *testing.T) {
		// The handlers' own cursor before it was folded into this one: refused, not misread.
		old := base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"at":"2030-06-12T08:11:12Z","id":"0190a000-0000-7000-8000-000000000001"}`))
		_, err := DecodeNotificationCursor(old, false)
		malformed(t, err)
	})
	t.Run("Golden", func(t *testing.T) {
		const want = "eyJ2IjoyLCJzb3J0Ijoib2NjdXJyZWQiLCJkZXNjIjp0cnVlLCJmIjoidW5yZWFkIiwidmFsdWUiOiIyMDMwLTA2LTEyVDA4OjExOjEyLjEyMzQ1Njc4OVoiLCJpZCI6IjAxOTBhMDAwLTAwMDAtNzAwMC04MDAwLTAwMDAwMDAwMDAwMSJ9"
		if got := EncodeNotificationCursor(pos, true); got != want {
			t.Fatalf("cursor %q, want %q", got, want)
		}
	})
}
