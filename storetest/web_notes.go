package storetest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
)

func testWebNotes(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})
	mine := CreateWebSession(t, s, nil).IDHash
	theirs := CreateWebSession(t, s, &WebSessionOpts{Subject: "ben"}).IDHash

	t.Run("RoundTrip", func(t *testing.T) {
		body := []byte(`{"items":[{"title":"Straße ✓ 请求 <b>&amp;"}]}` + strings.Repeat(" ", 200_000))
		id, err := s.SaveWebNote(ctx(t), mine, body, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.WebNote(ctx(t), mine, id)
		if err != nil || !slices.Equal(got, body) {
			t.Fatalf("read back %d bytes, %v; want %d bytes", len(got), err, len(body))
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		id, err := s.SaveWebNote(ctx(t), mine, []byte(`{}`), time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.WebNote(ctx(t), theirs, id); !errorsIsNotFound(err) {
			t.Fatalf("another session's note: %v", err)
		}
		for _, bad := range []string{"", "unknown", models.NewID(), strings.ToUpper(id), "' OR '1'='1", "a\x00b", "\xff\xfe", strings.Repeat("a", 5000)} {
			if _, err := s.WebNote(ctx(t), mine, bad); !errorsIsNotFound(err) {
				t.Fatalf("note %q: %v, want not found", bad, err)
			}
		}
		if _, err := s.WebNote(ctx(t), "not-a-hash", id); !errorsIsNotFound(err) {
			t.Fatalf("malformed session hash: %v", err)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		if _, err := s.SaveWebNote(ctx(t), "not-a-hash", []byte(`{}`), time.Hour); err == nil {
			t.Fatal("a note of a malformed session hash was kept")
		}
		big := make([]byte, repository.MaxWebNoteBytes+1)
		wantCode(t, func() error { _, err := s.SaveWebNote(ctx(t), mine, big, time.Hour); return err }(), models.CodePayloadTooLarge)
		wantCode(t, func() error { _, err := s.SaveWebNote(ctx(t), mine, []byte("\xff"), time.Hour); return err }(), models.CodeValidationFailed)
	})
	t.Run("ExpiryAndPurge", func(t *testing.T) {
		s := h.open(t, Options{Clock: clock.Now}) // an empty table
		session := CreateWebSession(t, s, nil).IDHash
		short, err := s.SaveWebNote(ctx(t), session, []byte(`"short"`), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		long, err := s.SaveWebNote(ctx(t), session, []byte(`"long"`), time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.PurgeWebNotes(ctx(t)); err != nil || n != 0 {
			t.Fatalf("purge before anything expired: %d, %v", n, err)
		}
		clock.Advance(2 * time.Minute)
		if _, err := s.WebNote(ctx(t), session, short); !errorsIsNotFound(err) {
			t.Fatalf("expired note: %v", err)
		}
		if n, err := s.PurgeWebNotes(ctx(t)); err != nil || n != 1 {
			t.Fatalf("purged %d, %v; want 1", n, err)
		}
		if got, err := s.WebNote(ctx(t), session, long); err != nil || string(got) != `"long"` {
			t.Fatalf("live note: %q, %v", got, err)
		}
	})
}
