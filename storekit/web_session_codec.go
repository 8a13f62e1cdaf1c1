package storekit

import (
	"time"

	"usertasks/models"
)

// WebDisplayName is a session's display name as stored: cut to models.MaxDisplayNameLength
// characters, NULL when empty.
func WebDisplayName(name string) *string {
	return Opt(TruncateRunes(name, models.MaxDisplayNameLength))
}

// WebSessionRow encodes ws, its tokens sealed; an identity the fields cannot hold is refused
// (IdentityJSON).
func (c Codec) WebSessionRow(ws *models.WebSession) (WebSessionRow, error) {
	groups, perms, err := IdentityJSON(ws.WebIdentity)
	if err != nil {
		return WebSessionRow{}, err
	}
	r := WebSessionRow{
		IDHash: ws.IDHash, TenantID: ws.Tenant, SubjectProvider: ws.Provider, SubjectID: ws.Subject,
		DisplayName: WebDisplayName(ws.DisplayName), GroupsJSON: groups, PermissionsJSON: perms,
		IsManager: ws.Manager, Via: ws.Via, TimeZone: Opt(ws.TimeZone), IdleTimeoutSeconds: int(ws.IdleTimeout / time.Second),
		CreatedAt: c.Time(ws.CreatedAt), LastSeenAt: c.Time(ws.LastSeenAt), RefreshedAt: c.Time(ws.RefreshedAt),
		ExpiresAt: c.Time(ws.ExpiresAt), IdleExpiresAt: c.Time(ws.IdleExpiresAt),
	}
	if r.RefreshTokenEnc, err = c.Sealer.Seal(ws.IDHash, ColRefreshToken, []byte(ws.RefreshToken)); err != nil {
		return WebSessionRow{}, err
	}
	r.IDTokenEnc, err = c.Sealer.Seal(ws.IDHash, ColIDToken, []byte(ws.IDToken))
	return r, err
}

// WebSession decodes r, its tokens opened; an identity or a token that does not decode is
// models.ErrCorrupt.
func (c Codec) WebSession(r *WebSessionRow) (models.WebSession, error) {
	ws := models.WebSession{
		IDHash: r.IDHash,
		WebIdentity: models.WebIdentity{Tenant: r.TenantID, Provider: r.SubjectProvider, Subject: r.SubjectID,
			DisplayName: Str(r.DisplayName), Manager: r.IsManager},
		Via: r.Via, TimeZone: Str(r.TimeZone), IdleTimeout: time.Duration(r.IdleTimeoutSeconds) * time.Second,
		CreatedAt: c.Time(r.CreatedAt), LastSeenAt: c.Time(r.LastSeenAt), RefreshedAt: c.Time(r.RefreshedAt),
		ExpiresAt: c.Time(r.ExpiresAt), IdleExpiresAt: c.Time(r.IdleExpiresAt),
	}
	if err := DecodeIdentityJSON(r.GroupsJSON, r.PermissionsJSON, &ws.WebIdentity); err != nil {
		return models.WebSession{}, err
	}
	var err error
	if ws.RefreshToken, err = c.Sealer.OpenWebSessionToken(r.IDHash, ColRefreshToken, r.RefreshTokenEnc); err != nil {
		return models.WebSession{}, err
	}
	if ws.IDToken, err = c.Sealer.OpenWebSessionToken(r.IDHash, ColIDToken, r.IDTokenEnc); err != nil {
		return models.WebSession{}, err
	}
	return ws, nil
}

// EndedWebSession decodes a session as it ends, for the sign-out at its identity provider: one
// whose identity or tokens do not decode ends all the same, without them.
func (c Codec) EndedWebSession(r *WebSessionRow) models.WebSession {
	ws, err := c.WebSession(r)
	if err != nil {
		return models.WebSession{IDHash: r.IDHash, Via: r.Via}
	}
	return ws
}

// Field is one stored field a write sets: its column, which is also its BSON name, and value.
type Field struct {
	Name  string
	Value any
}

// WebIdentityUpdate checks a re-read identity (CheckWebIdentity, IdentityJSON) and returns the
// fields it sets on the session with that id hash: display name, groups, permissions, manager
// flag, and each token given, sealed (a token not given stays as stored: providers may rotate
// the refresh token, a refresh may bring a new ID token). The store adds refreshed_at.
func (c Codec) WebIdentityUpdate(idHash string, id models.WebIdentity, tokens models.WebTokens) ([]Field, error) {
	if err := CheckWebIdentity(id); err != nil {
		return nil, err
	}
	groups, perms, err := IdentityJSON(id)
	if err != nil {
		return nil, err
	}
	set := []Field{{"display_name", WebDisplayName(id.DisplayName)}, {"groups_json", groups}, {"permissions_json", perms},
		{"is_manager", id.Manager}}
	for _, t := range []struct{ column, value string }{{ColRefreshToken, tokens.Refresh}, {ColIDToken, tokens.ID}} {
		if t.value == "" {
			continue
		}
		sealed, err := c.Sealer.Seal(idHash, t.column, []byte(t.value))
		if err != nil {
			return nil, err
		}
		set = append(set, Field{t.column, sealed})
	}
	return set, nil
}
