package websession_test

import (
	"context"
	"errors"
	"testing"

	"usertasks/models"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

// TestNotesAreBoundToTheSession: a kept note reads back for its session only.
func TestNotesAreBoundToTheSession(t *testing.T) {
	m := websessiontest.NewManager(t, websession.Config{})
	ctx := context.Background()
	mine, err := m.Read(signIn(t, m, ann, models.WebViaDev))
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := m.Read(signIn(t, m, ann, models.WebViaDev)) // the same person, another browser
	if err != nil {
		t.Fatal(err)
	}
	type note struct{ Title string }
	id, err := m.Keep(ctx, mine, note{Title: "Approve <invoice> & pay"})
	if err != nil {
		t.Fatal(err)
	}
	var got note
	if err := m.Kept(ctx, mine, id, &got); err != nil || got.Title != "Approve <invoice> & pay" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if err := m.Kept(ctx, theirs, id, &got); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("another session read the note: %v", err)
	}
	var wrong []int
	if err := m.Kept(ctx, mine, id, &wrong); !errors.Is(err, models.ErrCorrupt) {
		t.Fatalf("a note that does not decode: %v, want corrupt", err)
	}
}
