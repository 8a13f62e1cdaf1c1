package docstore

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
)

// Web notes: what a page keeps for the GET after its POST, bound to one browser session, until
// it expires by the database clock (user_task_web_notes, _id the note's id). Notes are written
// once and never updated, so they need no claims.

const webNoteCollection = "user_task_web_notes"

// MaxWebNoteBytes bounds one note's body, as on SQL (repository.MaxWebNoteBytes).
const MaxWebNoteBytes = 1 << 20

type webNoteDoc struct {
	ID          string    `bson:"_id"`
	SessionHash string    `bson:"session_hash"`
	Body        string    `bson:"body"`
	CreatedAt   time.Time `bson:"created_at"`
	ExpiresAt   time.Time `bson:"expires_at"`
}

// SaveWebNote keeps body for the session with that id hash, for lifetime from now, and returns
// the note's id.
func (s *Store) SaveWebNote(ctx context.Context, sessionHash string, body []byte, lifetime time.Duration) (string, error) {
	switch {
	case !isSessionHash(sessionHash):
		return "", fmt.Errorf("docstore: a web session id hash is 64 hex digits")
	case lifetime <= 0:
		return "", fmt.Errorf("docstore: a web note needs a lifetime")
	case len(body) > MaxWebNoteBytes:
		return "", models.Invalid(models.CodePayloadTooLarge, models.FieldError{Field: "body", Message: fmt.Sprintf("must be at most %d bytes", MaxWebNoteBytes)})
	case !utf8.Valid(body):
		return "", models.InvalidField("body", "must be valid UTF-8")
	}
	now, err := s.Now(ctx)
	if err != nil {
		return "", err
	}
	d := webNoteDoc{ID: models.NewID(), SessionHash: sessionHash, Body: string(body), CreatedAt: now, ExpiresAt: now.Add(lifetime)}
	if _, err := s.db.Collection(webNoteCollection).InsertOne(ctx, d); err != nil {
		return "", translate(err)
	}
	return d.ID, nil
}

// WebNote returns the body of note id of the session with that id hash. A note of another
// session, an expired one or an unknown id is models.ErrNotFound.
func (s *Store) WebNote(ctx context.Context, sessionHash, id string) ([]byte, error) {
	if !isSessionHash(sessionHash) || !isMintedID(id) {
		return nil, models.ErrNotFound
	}
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	var d webNoteDoc
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

// isMintedID reports whether id has the shape of a minted id (a UUID in its 36-character text
// form, lower-case), so no other text reaches the query.
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
