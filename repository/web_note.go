package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/storekit"
)

// Web notes: what a page keeps on the server for the GET that follows its POST, bound to one
// browser session, until it expires by the database clock. Their bodies are the pages'
// business (JSON of safe fields); the store only keeps them.

// MaxWebNoteBytes bounds one note's body (storekit.MaxWebNoteBytes).
const MaxWebNoteBytes = storekit.MaxWebNoteBytes

type webNoteRecord struct {
	storekit.WebNoteRow `gorm:"embedded"`
}

func (webNoteRecord) TableName() string { return "user_task_web_notes" }

// SaveWebNote keeps body for the session with that id hash, for lifetime from now, and returns
// the note's id.
func (s *Store) SaveWebNote(ctx context.Context, sessionHash string, body []byte, lifetime time.Duration) (string, error) {
	if err := storekit.CheckWebNote(sessionHash, body, lifetime); err != nil {
		return "", err
	}
	var rec webNoteRecord
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		rec = webNoteRecord{WebNoteRow: storekit.NewWebNote(sessionHash, body, now, lifetime)}
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
	if !storekit.IsWebNoteKey(sessionHash, id) {
		return nil, errNoRows
	}
	var rec webNoteRecord
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
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
