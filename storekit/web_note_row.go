package storekit

import (
	"time"

	"usertasks/models"
)

// WebNoteRow is a web note as stored (user_task_web_notes): written once, never updated.
type WebNoteRow struct {
	ID          string    `gorm:"column:id;primaryKey" bson:"_id"`
	SessionHash string    `gorm:"column:session_hash" bson:"session_hash"`
	Body        string    `gorm:"column:body" bson:"body"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	ExpiresAt   time.Time `gorm:"column:expires_at" bson:"expires_at"`
}

// NewWebNote is a note of the session with that id hash under a new id, kept for lifetime from
// now (the database's).
func NewWebNote(sessionHash string, body []byte, now time.Time, lifetime time.Duration) WebNoteRow {
	return WebNoteRow{ID: models.NewID(), SessionHash: sessionHash, Body: string(body), CreatedAt: now, ExpiresAt: now.Add(lifetime)}
}
