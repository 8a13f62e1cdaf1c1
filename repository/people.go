package repository

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// People (SPEC 10.3, "who the product knows"): a row per (tenant, provider, user id), its
// identity rewritten from the person's requests at most once per interval, its notification
// preferences written only by the person.

type personRecord struct {
	storekit.PersonRow `gorm:"embedded"`
}

func (personRecord) TableName() string { return "user_task_people" }

// neverSeen is the seen time of a record the person's preferences created before any of their
// requests was recorded: the next request records its identity.
var neverSeen = time.Unix(0, 0).UTC()

// personKey narrows q to user's row in tenant.
func personKey(q *gorm.DB, tenant string, user models.ParticipantRef) *gorm.DB {
	return q.Where("tenant_id = ? AND provider = ? AND user_id = ?", tenant, user.Provider, user.ID)
}

// findPerson reads user's row in tenant, nil when there is none.
func findPerson(tx *gorm.DB, tenant string, user models.ParticipantRef) (*personRecord, error) {
	var recs []personRecord
	if err := personKey(tx, tenant, user).Limit(1).Find(&recs).Error; err != nil {
		return nil, translate(err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	return &recs[0], nil
}

// RecordPerson writes p's identity and seen time unless its record was seen less than every
// ago by the database clock; the preferences stay as they are. Two first requests racing to
// insert the record: the loser finds the winner's, just written, and writes nothing.
func (s *Store) RecordPerson(ctx context.Context, p models.Person, every time.Duration) (bool, error) {
	if err := storekit.CheckPerson(p.Tenant, p.User); err != nil {
		return false, err
	}
	for attempt := 0; ; attempt++ {
		wrote := false
		err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
			wrote = false
			cur, err := findPerson(tx, p.Tenant, p.User)
			if err != nil {
				return err
			}
			row := s.codec().PersonRow(&p, now)
			if cur == nil {
				wrote = true
				return translate(tx.Create(&personRecord{row}).Error)
			}
			if now.Sub(cur.SeenAt) < every {
				return nil
			}
			res := personKey(tx.Model(&personRecord{}), p.Tenant, p.User).Updates(map[string]any{
				"display_name": row.DisplayName, "email": row.Email, "language": row.Language, "time_zone": row.TimeZone,
				"manager": row.Manager, "seen_at": now, "updated_at": now,
			})
			wrote = res.RowsAffected == 1
			return translate(res.Error)
		})
		if errors.Is(err, errDuplicate) && attempt == 0 {
			continue
		}
		return wrote, err
	}
}

// Person is user's record in tenant, preferences completed with the defaults.
func (s *Store) Person(ctx context.Context, tenant string, user models.ParticipantRef) (models.Person, error) {
	if storekit.CheckPerson(tenant, user) != nil {
		return models.Person{}, errNoRows
	}
	var rec *personRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		rec, err = findPerson(tx, tenant, user)
		return err
	})
	if err != nil {
		return models.Person{}, err
	}
	if rec == nil {
		return models.Person{}, errNoRows
	}
	return s.codec().Person(&rec.PersonRow), nil
}

// SetNotificationPreferences stores user's preferences (the known triggers' choices and the
// digest), creating a bare record when the person has none yet, and returns the record.
func (s *Store) SetNotificationPreferences(ctx context.Context, tenant string, user models.ParticipantRef, prefs models.NotificationPreferences) (models.Person, error) {
	if err := storekit.CheckPerson(tenant, user); err != nil {
		return models.Person{}, err
	}
	emailPrefs, digest := storekit.PreferenceColumns(prefs)
	var rec personRecord
	for attempt := 0; ; attempt++ {
		err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
			cur, err := findPerson(tx, tenant, user)
			if err != nil {
				return err
			}
			if cur == nil {
				row := s.codec().PersonRow(&models.Person{Tenant: tenant, User: user}, now)
				row.SeenAt, row.EmailPrefs, row.Digest = neverSeen, emailPrefs, digest
				rec = personRecord{row}
				return translate(tx.Create(&rec).Error)
			}
			err = personKey(tx.Model(&personRecord{}), tenant, user).
				Updates(map[string]any{"email_prefs": emailPrefs, "digest": digest, "updated_at": now}).Error
			if err != nil {
				return translate(err)
			}
			rec = *cur
			rec.EmailPrefs, rec.Digest, rec.UpdatedAt = emailPrefs, digest, now
			return nil
		})
		if errors.Is(err, errDuplicate) && attempt == 0 {
			continue // a first request recorded the person meanwhile: update that record
		}
		if err != nil {
			return models.Person{}, err
		}
		return s.codec().Person(&rec.PersonRow), nil
	}
}

// Managers lists up to limit recorded managers of tenant by user id (ix_people_managers).
func (s *Store) Managers(ctx context.Context, tenant string, limit int) ([]models.Person, error) {
	if limit <= 0 {
		return nil, nil
	}
	var recs []personRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(tx.Where("tenant_id = ? AND manager = ?", tenant, true).Order("user_id, provider").Limit(limit).Find(&recs).Error)
	})
	if err != nil {
		return nil, err
	}
	out := make([]models.Person, len(recs))
	for i := range recs {
		out[i] = s.codec().Person(&recs[i].PersonRow)
	}
	return out, nil
}
