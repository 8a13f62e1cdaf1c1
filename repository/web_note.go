package repository

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"usertasks/models"
)

// Web notes: what a page keeps on the server for the GET that follows its POST, bound to one
// browser session, until it expires by the database clock. Their bodies are the pages'
// business (JSON of safe fields); the store only keeps them.

// MaxWebNoteBytes bounds one note's body.
const MaxWebNoteBytes = 1 << 20

type webNoteRecord struct {
	ID          string    `gorm:"column:id;primaryKey"`
	SessionHash string    `gorm:"column:session_hash"`
	Body        string    `gorm:"column:body"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false"`
	ExpiresAt   time.Time `gorm:"column:expires_at"`
}

func (webNoteRecord) TableName() string { return "user_task_web_notes" }

// SaveWebNote keeps body for the session with that id hash, for lifetime from now, and returns
// the note's id.
func (s *Store) SaveWebNote(ctx context.Context, sessionHash string, body []byte, lifetime time.Duration) (string, error) {
	switch {
	case !isSessionHash(sessionHash):
		return "", fmt.Errorf("repository: a web session id hash is 64 hex digits")
	case lifetime <= 0:
		return "", fmt.Errorf("repository: a web note needs a lifetime")
	case len(body) > MaxWebNoteBytes:
		return "", models.Invalid(models.CodePayloadTooLarge, models.FieldError{Field: "body", Message: fmt.Sprintf("must be at most %d bytes", MaxWebNoteBytes)})
	case !utf8.Valid(body):
		return "", models.InvalidField("body", "must be valid UTF-8")
	}
	rec := webNoteRecord{ID: models.NewID(), SessionHash: sessionHash, Body: string(body)}
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		rec.CreatedAt, rec.ExpiresAt = now, now.Add(lifetime)
		return translate(tx.Create(&rec).Error)
	})
	if err != nil {
		return "", err
	}
	return rec.ID, nil
}

// WebNote returns the body of note id of the session with that id hash. A note of another
// session, an expired one or an unknown id is models.ErrNotFound.
func (s *Store) WebNote(ctx context.Context, sessionHash, id string) ([]byte, error) {
	if !isSessionHash(sessionHash) || !isMintedID(id) {
		return nil, errNoRows
	}
	var rec webNoteRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		now, err := s.dbNow(tx)
		if err != nil {
			return err
		}
		return translate(tx.Where("id = ? AND session_hash = ? AND expires_at > ?", id, sessionHash, now).Take(&rec).Error)
	})
	if err != nil {
		return nil, err
	}
	return []byte(rec.Body), nil
}

// PurgeWebNotes deletes the expired notes and reports how many went. Expired notes are never
// found anyway; this only keeps the table small.
func (s *Store) PurgeWebNotes(ctx context.Context) (int64, error) {
	var n int64
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := tx.Where("expires_at <= ?", now).Delete(&webNoteRecord{})
		n = res.RowsAffected
		return translate(res.Error)
	})
	return n, err
}

// isSessionHash reports whether h is a session's id hash: 64 hex digits.
func isSessionHash(h string) bool {
	b, err := hex.DecodeString(h)
	return err == nil && len(b) == 32
}

// isMintedID reports whether id has the shape of a minted id (a UUID in its 36-character text
// form), so no other text reaches the query.
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
