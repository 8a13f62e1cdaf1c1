package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// Browser sessions (SPEC 5.4). Every expiry decision is made with the database clock, in SQL:
// a row past its absolute or idle expiry is not found, whatever the hosts' clocks say.

type webSessionRecord struct {
	storekit.WebSessionRow `gorm:"embedded"`
}

func (webSessionRecord) TableName() string { return "user_task_web_sessions" }

// CreateWebSession stores a new session for ws.IDHash. Its clock starts now (the database's):
// it ends lifetime from now, or ws.IdleTimeout after the last request, whichever is first.
// The stored session is returned.
func (s *Store) CreateWebSession(ctx context.Context, ws models.WebSession, lifetime time.Duration) (models.WebSession, error) {
	if err := storekit.CheckWebSession(ws, lifetime); err != nil {
		return models.WebSession{}, err
	}
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		ws.CreatedAt, ws.LastSeenAt, ws.RefreshedAt, ws.Now = now, now, now, now
		ws.ExpiresAt = now.Add(lifetime)
		ws.IdleExpiresAt = storekit.IdleExpiry(now, ws.IdleTimeout, ws.ExpiresAt)
		row, err := s.codec().WebSessionRow(&ws)
		if err != nil {
			return err
		}
		return translate(tx.Create(&webSessionRecord{WebSessionRow: row}).Error)
	})
	if err != nil {
		return models.WebSession{}, err
	}
	return ws, nil
}

// WebSession returns the live session with that id hash; an unknown, expired or idle one is
// models.ErrNotFound. A read more than a minute after the last one moves last_seen_at and the
// idle expiry forward.
func (s *Store) WebSession(ctx context.Context, idHash string) (models.WebSession, error) {
	var rec webSessionRecord
	var now time.Time
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		if now, err = s.dbNow(tx); err != nil {
			return err
		}
		return translate(liveWebSession(tx, idHash, now).Take(&rec).Error)
	})
	if err != nil {
		return models.WebSession{}, err
	}
	ws, err := s.codec().WebSession(&rec.WebSessionRow)
	if err != nil {
		return models.WebSession{}, err
	}
	ws.Now = now
	if now.Sub(ws.LastSeenAt) < storekit.WebSessionTouchEvery {
		return ws, nil
	}
	err = s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		idle := storekit.IdleExpiry(now, ws.IdleTimeout, ws.ExpiresAt)
		// Concurrent requests race here harmlessly: the guard lets one of them write.
		res := liveWebSession(tx.Model(&webSessionRecord{}), idHash, now).
			Where("last_seen_at <= ?", now.Add(-storekit.WebSessionTouchEvery)).
			Updates(map[string]any{"last_seen_at": now, "idle_expires_at": idle})
		if res.Error != nil {
			return translate(res.Error)
		}
		if res.RowsAffected == 1 {
			ws.LastSeenAt, ws.IdleExpiresAt, ws.Now = now, idle, now
		}
		return nil
	})
	return ws, err
}

// DeleteWebSession ends one session (logout). Ending one that is already gone is no error.
func (s *Store) DeleteWebSession(ctx context.Context, idHash string) error {
	return s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		return translate(tx.Where("id_hash = ?", idHash).Delete(&webSessionRecord{}).Error)
	})
}

// EndWebSession ends one session (logout) and returns it as it was, tokens included, for the
// sign-out at the identity provider: a row past its expiry too, whose refresh token may still
// be good at the provider. No row is models.ErrNotFound. A token that no longer opens is left
// empty: the row goes all the same.
func (s *Store) EndWebSession(ctx context.Context, idHash string) (models.WebSession, error) {
	var ended []models.WebSession
	err := s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		var err error
		ended, err = s.endWebSessions(tx, func(q *gorm.DB) *gorm.DB { return q.Where("id_hash = ?", idHash) })
		return err
	})
	if err != nil {
		return models.WebSession{}, err
	}
	if len(ended) == 0 {
		return models.WebSession{}, errNoRows
	}
	return ended[0], nil
}

// EndSubjectWebSessions ends every session of one person in one tenant ("sign out everywhere")
// and returns them as EndWebSession does. A session started while this runs may end without
// being returned: it is signed out all the same, only its refresh token is not revoked.
func (s *Store) EndSubjectWebSessions(ctx context.Context, tenant, provider, subject string) ([]models.WebSession, error) {
	var ended []models.WebSession
	err := s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		var err error
		ended, err = s.endWebSessions(tx, func(q *gorm.DB) *gorm.DB {
			return q.Where("tenant_id = ? AND subject_provider = ? AND subject_id = ?", tenant, provider, subject)
		})
		return err
	})
	return ended, err
}

// endWebSessions reads the sessions where selects, then deletes them with the same condition.
func (s *Store) endWebSessions(tx *gorm.DB, where func(*gorm.DB) *gorm.DB) ([]models.WebSession, error) {
	var recs []webSessionRecord
	if err := where(tx).Find(&recs).Error; err != nil {
		return nil, translate(err)
	}
	if err := where(tx).Delete(&webSessionRecord{}).Error; err != nil {
		return nil, translate(err)
	}
	ended := make([]models.WebSession, 0, len(recs))
	for i := range recs {
		ended = append(ended, s.codec().EndedWebSession(&recs[i].WebSessionRow))
	}
	return ended, nil
}

// SetWebSessionTimeZone stores the browser's IANA zone name on a live session; the caller has
// validated it. An ended session is models.ErrNotFound.
func (s *Store) SetWebSessionTimeZone(ctx context.Context, idHash, zone string) error {
	if err := storekit.CheckWebTimeZone(zone); err != nil {
		return err
	}
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		res := liveWebSession(tx.Model(&webSessionRecord{}), idHash, now).Update("time_zone", zone)
		return oneRow(res)
	})
}

// UpdateWebSessionIdentity stores a re-read identity (groups, permissions, manager flag,
// display name) on a live session of the same person and marks it refreshed now. A non-empty
// refresh or ID token replaces the stored one (providers may rotate the refresh token; a
// refresh may bring a new ID token). An ended session, or one of another person, is
// models.ErrNotFound.
func (s *Store) UpdateWebSessionIdentity(ctx context.Context, idHash string, id models.WebIdentity, tokens models.WebTokens) error {
	fields, err := s.codec().WebIdentityUpdate(idHash, id, tokens)
	if err != nil {
		return err
	}
	return s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		set := map[string]any{"refreshed_at": now}
		for _, f := range fields {
			set[f.Name] = f.Value
		}
		res := liveWebSession(tx.Model(&webSessionRecord{}), idHash, now).
			Where("tenant_id = ? AND subject_provider = ? AND subject_id = ?", id.Tenant, id.Provider, id.Subject).
			Updates(set)
		return oneRow(res)
	})
}

// PurgeWebSessions deletes the sessions past their absolute or idle expiry and reports how
// many went. Ended sessions are never found anyway; this only keeps the table small.
func (s *Store) PurgeWebSessions(ctx context.Context) (int64, error) {
	var n int64
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		n = 0
		// Two statements, each served by its own index, rather than one OR over both columns.
		for _, column := range []string{"expires_at", "idle_expires_at"} {
			res := tx.Where(column+" <= ?", now).Delete(&webSessionRecord{})
			if res.Error != nil {
				return translate(res.Error)
			}
			n += res.RowsAffected
		}
		return nil
	})
	return n, err
}

// liveWebSession selects the session by id hash only while it is live at now.
func liveWebSession(tx *gorm.DB, idHash string, now time.Time) *gorm.DB {
	return tx.Where("id_hash = ? AND expires_at > ? AND idle_expires_at > ?", idHash, now, now)
}

// oneRow maps an update of a live session to not-found when no row matched.
func oneRow(res *gorm.DB) error {
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return errNoRows
	}
	return nil
}
