package storekit

import (
	"time"

	"usertasks/models"
)

// WebSessionRow is a browser session as stored (user_task_web_sessions), keyed by the hash of
// its id (the raw id never reaches a store); its OIDC tokens sealed with the id hash and their
// field as associated data.
type WebSessionRow struct {
	IDHash             string    `gorm:"column:id_hash;primaryKey" bson:"_id"`
	TenantID           string    `gorm:"column:tenant_id" bson:"tenant_id"`
	SubjectProvider    string    `gorm:"column:subject_provider" bson:"subject_provider"`
	SubjectID          string    `gorm:"column:subject_id" bson:"subject_id"`
	DisplayName        *string   `gorm:"column:display_name" bson:"display_name"`
	GroupsJSON         string    `gorm:"column:groups_json" bson:"groups_json"`
	PermissionsJSON    string    `gorm:"column:permissions_json" bson:"permissions_json"`
	IsManager          bool      `gorm:"column:is_manager" bson:"is_manager"`
	Via                string    `gorm:"column:via" bson:"via"`
	RefreshTokenEnc    *string   `gorm:"column:refresh_token_enc" bson:"refresh_token_enc"`
	TimeZone           *string   `gorm:"column:time_zone" bson:"time_zone"`
	IdleTimeoutSeconds int       `gorm:"column:idle_timeout_seconds" bson:"idle_timeout_seconds"`
	CreatedAt          time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	LastSeenAt         time.Time `gorm:"column:last_seen_at" bson:"last_seen_at"`
	RefreshedAt        time.Time `gorm:"column:refreshed_at" bson:"refreshed_at"`
	ExpiresAt          time.Time `gorm:"column:expires_at" bson:"expires_at"`
	IdleExpiresAt      time.Time `gorm:"column:idle_expires_at" bson:"idle_expires_at"`
	IDTokenEnc         *string   `gorm:"column:id_token_enc" bson:"id_token_enc"`
}

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
