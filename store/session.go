package store

import (
	"context"
	"time"

	"usertasks/models"
)

// WebSessions are browser sessions, keyed by the hash of their id, and their short-lived notes.
type WebSessions interface {
	CreateWebSession(ctx context.Context, ws models.WebSession, lifetime time.Duration) (models.WebSession, error)
	WebSession(ctx context.Context, idHash string) (models.WebSession, error)
	UpdateWebSessionIdentity(ctx context.Context, idHash string, id models.WebIdentity, tokens models.WebTokens) error
	SetWebSessionTimeZone(ctx context.Context, idHash, zone string) error
	DeleteWebSession(ctx context.Context, idHash string) error
	EndWebSession(ctx context.Context, idHash string) (models.WebSession, error)
	EndSubjectWebSessions(ctx context.Context, tenant, provider, subject string) ([]models.WebSession, error)
	PurgeWebSessions(ctx context.Context) (int64, error)
	SaveWebNote(ctx context.Context, sessionHash string, body []byte, lifetime time.Duration) (string, error)
	WebNote(ctx context.Context, sessionHash, id string) ([]byte, error)
	PurgeWebNotes(ctx context.Context) (int64, error)
}

// SavedViews are a person's saved inbox views.
type SavedViews interface {
	CreateSavedView(ctx context.Context, v models.SavedView) (models.SavedView, error)
	SavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
	SavedViews(ctx context.Context, a models.Actor) ([]models.SavedView, error)
	RenameSavedView(ctx context.Context, a models.Actor, id, name string) (models.SavedView, error)
	DeleteSavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error)
}
