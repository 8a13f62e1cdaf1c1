package websession

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// NoteLifetime is how long a kept note can be read back.
const NoteLifetime = time.Hour

// Keep stores v, as JSON, on the server for a later page of session s — the GET after a POST
// whose answer is too large for a flash cookie — and returns the note's id. Only s can read it
// back (Kept), until NoteLifetime has passed. v must hold safe fields only.
func (m *Manager) Keep(ctx context.Context, s Session, v any) (string, error) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false) // pages escape what they show; here it would only grow the note
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("websession: encode note: %w", err)
	}
	return m.store.SaveWebNote(ctx, s.idHash, bytes.TrimSpace(body.Bytes()), NoteLifetime)
}

// Kept reads note id of session s into dst. A note of another session, an expired or unknown
// one is models.ErrNotFound; one that no longer decodes into dst is models.ErrCorrupt.
func (m *Manager) Kept(ctx context.Context, s Session, id string, dst any) error {
	body, err := m.store.WebNote(ctx, s.idHash, id)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("websession: note %s: %w", id, models.ErrCorrupt)
	}
	return nil
}
