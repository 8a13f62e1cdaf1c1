package docstore

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
)

// Web notes: what a page keeps for the GET after its POST, bound to one browser session, until
// it expires by the database clock (user_task_web_notes, _id the note's id). Notes are written
// once and never updated, so they need no claims.

const webNoteCollection = "user_task_web_notes"

// MaxWebNoteBytes bounds one note's body, as on SQL (storekit.MaxWebNoteBytes).
const MaxWebNoteBytes = storekit.MaxWebNoteBytes

// SaveWebNote keeps body for the session with that id hash, for lifetime from now, and returns
// the note's id.
func (s *Store) SaveWebNote(ctx context.Context, sessionHash string, body []byte, lifetime time.Duration) (string, error) {
	if err := storekit.CheckWebNote(sessionHash, body, lifetime); err != nil {
		return "", err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return "", err
	}
	d := storekit.NewWebNote(sessionHash, body, now, lifetime)
	if _, err := s.db.Collection(webNoteCollection).InsertOne(ctx, d); err != nil {
		return "", translate(err)
	}
	return d.ID, nil
}

// WebNote returns the body of note id of the session with that id hash. A note of another
// session, an expired one or an unknown id is models.ErrNotFound.
func (s *Store) WebNote(ctx context.Context, sessionHash, id string) ([]byte, error) {
	if !storekit.IsWebNoteKey(sessionHash, id) {
		return nil, models.ErrNotFound
	}
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	var d storekit.WebNoteRow
	err = s.db.Collection(webNoteCollection).FindOne(ctx, bson.D{{Key: "_id", Value: id},
		{Key: "session_hash", Value: sessionHash}, {Key: "expires_at", Value: bson.D{{Key: "$gt", Value: now}}}}).Decode(&d)
	if err != nil {
		return nil, translate(err)
	}
	return []byte(d.Body), nil
}

// PurgeWebNotes deletes the expired notes (index ix_web_notes_expiry) and reports how many went.
func (s *Store) PurgeWebNotes(ctx context.Context) (int64, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	res, err := s.db.Collection(webNoteCollection).DeleteMany(ctx, bson.D{{Key: "expires_at", Value: bson.D{{Key: "$lte", Value: now}}}})
	if err != nil {
		return 0, translate(err)
	}
	return res.DeletedCount, nil
}
