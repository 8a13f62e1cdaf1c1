package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Browser sessions (SPEC 5.4) as documents of user_task_web_sessions, _id the id hash (the raw
// id never reaches the store). Every expiry is decided with the database clock (Now), and the
// refresh and ID tokens are sealed as the SQL store seals them: the key ring, with the id hash
// and the field as associated data. A session is written by its requests' touches and by
// identity refreshes at the same time, so every update is a claimed write (doc_claim.go).

const webSessionCollection = "user_task_web_sessions"

type webSessionDoc struct {
	storekit.WebSessionRow `bson:",inline"`
	Version                int64 `bson:"version"`
}

func (s *Store) webSessions() *mongo.Collection { return s.db.Collection(webSessionCollection) }

func webSessionRef(d *webSessionDoc) docRef {
	return docRef{coll: webSessionCollection, id: d.IDHash, tenant: d.TenantID, key: "web-session:" + d.IDHash}
}

// CreateWebSession stores a new session for ws.IDHash, its clock starting now (the database's),
// and returns it as stored.
func (s *Store) CreateWebSession(ctx context.Context, ws models.WebSession, lifetime time.Duration) (models.WebSession, error) {
	if err := storekit.CheckWebSession(ws, lifetime); err != nil {
		return models.WebSession{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.WebSession{}, err
	}
	ws.CreatedAt, ws.LastSeenAt, ws.RefreshedAt, ws.Now = now, now, now, now
	ws.ExpiresAt = now.Add(lifetime)
	ws.IdleExpiresAt = storekit.IdleExpiry(now, ws.IdleTimeout, ws.ExpiresAt)
	row, err := s.codec().WebSessionRow(&ws)
	if err != nil {
		return models.WebSession{}, err
	}
	if _, err := s.webSessions().InsertOne(ctx, webSessionDoc{WebSessionRow: row}); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return models.WebSession{}, fmt.Errorf("docstore: a web session with this id hash exists already")
		}
		return models.WebSession{}, translate(err)
	}
	return ws, nil
}

// WebSession returns the live session with that id hash; an unknown, expired or idle one is
// models.ErrNotFound. A read more than a minute after the last one moves last_seen_at and the
// idle expiry forward; of concurrent reads, the one that claims the write moves it.
func (s *Store) WebSession(ctx context.Context, idHash string) (models.WebSession, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return models.WebSession{}, err
	}
	d, err := s.liveWebSession(ctx, idHash, now)
	if err != nil {
		return models.WebSession{}, err
	}
	ws, err := s.codec().WebSession(&d.WebSessionRow)
	if err != nil {
		return models.WebSession{}, err
	}
	ws.Now = now
	if now.Sub(ws.LastSeenAt) < storekit.WebSessionTouchEvery {
		return ws, nil
	}
	idle := storekit.IdleExpiry(now, ws.IdleTimeout, ws.ExpiresAt)
	err = s.claimedSet(ctx, webSessionRef(d), d.Version,
		bson.D{{Key: "last_seen_at", Value: now}, {Key: "idle_expires_at", Value: idle}}, now)
	switch {
	case err == nil:
		ws.LastSeenAt, ws.IdleExpiresAt = now, idle
	case errors.Is(err, errClaimLost):
		// Another request wrote the session meanwhile (its touch, or a refresh): as on SQL, one
		// touch is enough.
	default:
		return models.WebSession{}, err
	}
	return ws, nil
}

// liveWebSession reads the session with that id hash while it is live at now.
func (s *Store) liveWebSession(ctx context.Context, idHash string, now time.Time) (*webSessionDoc, error) {
	if !storekit.IsSessionHash(idHash) {
		return nil, models.ErrNotFound
	}
	var d webSessionDoc
	err := s.webSessions().FindOne(ctx, bson.D{{Key: "_id", Value: idHash},
		{Key: "expires_at", Value: bson.D{{Key: "$gt", Value: now}}},
		{Key: "idle_expires_at", Value: bson.D{{Key: "$gt", Value: now}}}}).Decode(&d)
	if err != nil {
		return nil, translate(err)
	}
	return &d, nil
}

// updateLiveWebSession applies what change sets to the live session with that id hash, under a
// claimed write, re-reading after a lost claim. change may refuse the session (not found).
func (s *Store) updateLiveWebSession(ctx context.Context, idHash string, change func(d *webSessionDoc, now time.Time) (bson.D, error)) error {
	return retryClaimed(ctx, func() error {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		d, err := s.liveWebSession(ctx, idHash, now)
		if err != nil {
			return err
		}
		set, err := change(d, now)
		if err != nil {
			return err
		}
		return s.claimedSet(ctx, webSessionRef(d), d.Version, set, now)
	})
}

// DeleteWebSession ends one session (logout). Ending one that is already gone is no error.
func (s *Store) DeleteWebSession(ctx context.Context, idHash string) error {
	_, err := s.webSessions().DeleteOne(ctx, bson.D{{Key: "_id", Value: idHash}})
	return translate(err)
}

// EndWebSession ends one session and returns it as it was, tokens included, for the sign-out at
// the identity provider: one past its expiry too. No session is models.ErrNotFound; a token that
// no longer opens is left empty, and the session goes all the same.
func (s *Store) EndWebSession(ctx context.Context, idHash string) (models.WebSession, error) {
	ended, err := s.endWebSessions(ctx, bson.D{{Key: "_id", Value: idHash}})
	if err != nil {
		return models.WebSession{}, err
	}
	if len(ended) == 0 {
		return models.WebSession{}, models.ErrNotFound
	}
	return ended[0], nil
}

// EndSubjectWebSessions ends every session of one person in one tenant ("sign out everywhere")
// and returns them as EndWebSession does (index ix_web_sessions_subject). A session started
// while this runs may stay: the read and the deletes are separate steps, as they are one
// statement each on SQL.
func (s *Store) EndSubjectWebSessions(ctx context.Context, tenant, provider, subject string) ([]models.WebSession, error) {
	return s.endWebSessions(ctx, bson.D{{Key: "tenant_id", Value: tenant},
		{Key: "subject_provider", Value: provider}, {Key: "subject_id", Value: subject}})
}

// endWebSessions reads the sessions filter selects and deletes each one it read; only the
// sessions this call deleted are returned, so two concurrent ends never both return one.
func (s *Store) endWebSessions(ctx context.Context, filter bson.D) ([]models.WebSession, error) {
	var docs []webSessionDoc
	if err := s.findAll(ctx, webSessionCollection, filter, options.Find().SetLimit(1000), &docs); err != nil {
		return nil, err
	}
	ended := make([]models.WebSession, 0, len(docs))
	for i := range docs {
		res, err := s.webSessions().DeleteOne(ctx, bson.D{{Key: "_id", Value: docs[i].IDHash}})
		if err != nil {
			return nil, translate(err)
		}
		if res.DeletedCount == 0 {
			continue
		}
		ended = append(ended, s.codec().EndedWebSession(&docs[i].WebSessionRow))
	}
	return ended, nil
}

// SetWebSessionTimeZone stores the browser's IANA zone name on a live session. An ended session
// is models.ErrNotFound.
func (s *Store) SetWebSessionTimeZone(ctx context.Context, idHash, zone string) error {
	if err := storekit.CheckWebTimeZone(zone); err != nil {
		return err
	}
	return s.updateLiveWebSession(ctx, idHash, func(*webSessionDoc, time.Time) (bson.D, error) {
		return bson.D{{Key: "time_zone", Value: zone}}, nil
	})
}

// UpdateWebSessionIdentity stores a re-read identity on a live session of the same person and
// marks it refreshed now; a non-empty token replaces the stored one. An ended session, or one of
// another person, is models.ErrNotFound.
func (s *Store) UpdateWebSessionIdentity(ctx context.Context, idHash string, id models.WebIdentity, tokens models.WebTokens) error {
	fields, err := s.codec().WebIdentityUpdate(idHash, id, tokens)
	if err != nil {
		return err
	}
	return s.updateLiveWebSession(ctx, idHash, func(d *webSessionDoc, now time.Time) (bson.D, error) {
		if d.TenantID != id.Tenant || d.SubjectProvider != id.Provider || d.SubjectID != id.Subject {
			return nil, models.ErrNotFound
		}
		set := bson.D{{Key: "refreshed_at", Value: now}}
		for _, f := range fields {
			set = append(set, bson.E{Key: f.Name, Value: f.Value})
		}
		return set, nil
	})
}

// PurgeWebSessions deletes the sessions past their absolute or idle expiry and reports how many
// went: one delete per expiry index (ix_web_sessions_expiry, ix_web_sessions_idle), as on SQL.
func (s *Store) PurgeWebSessions(ctx context.Context) (int64, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, field := range []string{"expires_at", "idle_expires_at"} {
		res, err := s.webSessions().DeleteMany(ctx, bson.D{{Key: field, Value: bson.D{{Key: "$lte", Value: now}}}})
		if err != nil {
			return n, translate(err)
		}
		n += res.DeletedCount
	}
	return n, nil
}
