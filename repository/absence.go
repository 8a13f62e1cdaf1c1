package repository

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// Out-of-office absences (SPEC 10.5): a row per user, replaced by the next put.

type absenceRecord struct {
	storekit.AbsenceRow `gorm:"embedded"`
}

func (absenceRecord) TableName() string { return "user_task_absences" }

// absenceKey narrows q to user's row in tenant.
func absenceKey(q *gorm.DB, tenant string, user models.ParticipantRef) *gorm.DB {
	return q.Where("tenant_id = ? AND user_provider = ? AND user_type = ? AND user_id = ?", tenant, user.Provider, string(models.UserParticipant), user.ID)
}

// findAbsence reads user's row in tenant, nil when there is none.
func findAbsence(tx *gorm.DB, tenant string, user models.ParticipantRef) (*absenceRecord, error) {
	var recs []absenceRecord
	if err := absenceKey(tx, tenant, user).Limit(1).Find(&recs).Error; err != nil {
		return nil, translate(err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	return &recs[0], nil
}

// PutAbsence stores a as the user's one absence, replacing any other, at the database time. Two
// first puts racing to insert: the loser retries once and replaces the winner's row.
func (s *Store) PutAbsence(ctx context.Context, a models.Absence) (models.Absence, error) {
	if err := storekit.CheckAbsence(a); err != nil {
		return models.Absence{}, err
	}
	var out models.Absence
	for attempt := 0; ; attempt++ {
		err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
			cur, err := findAbsence(tx, a.Tenant, a.User)
			if err != nil {
				return err
			}
			a.CreatedAt, a.UpdatedAt = now, now
			if cur != nil {
				a.CreatedAt = cur.CreatedAt
			}
			row := s.codec().AbsenceRow(&a)
			out = s.codec().Absence(&row)
			if cur == nil {
				return translate(tx.Create(&absenceRecord{row}).Error)
			}
			return translate(absenceKey(tx.Model(&absenceRecord{}), a.Tenant, a.User).Updates(map[string]any{
				"starts_at": row.StartsAt, "ends_at": row.EndsAt, "substitute_provider": row.SubstituteProvider,
				"substitute_type": row.SubstituteType, "substitute_id": row.SubstituteID, "substitute_display": row.SubstituteDisplay,
				"updated_at": row.UpdatedAt,
			}).Error)
		})
		if errors.Is(err, errDuplicate) && attempt == 0 {
			continue
		}
		if err != nil {
			return models.Absence{}, err
		}
		return out, nil
	}
}

// Absence returns user's absence in tenant; models.ErrNotFound without one.
func (s *Store) Absence(ctx context.Context, tenant string, user models.ParticipantRef) (models.Absence, error) {
	if storekit.CheckPerson(tenant, user) != nil {
		return models.Absence{}, models.ErrNotFound
	}
	var out models.Absence
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		rec, err := findAbsence(tx, tenant, user)
		if err != nil {
			return err
		}
		if rec == nil {
			return models.ErrNotFound
		}
		out = s.codec().Absence(&rec.AbsenceRow)
		return nil
	})
	return out, err
}

// DeleteAbsence removes user's absence in tenant; models.ErrNotFound without one.
func (s *Store) DeleteAbsence(ctx context.Context, tenant string, user models.ParticipantRef) error {
	if storekit.CheckPerson(tenant, user) != nil {
		return models.ErrNotFound
	}
	return s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		res := absenceKey(tx, tenant, user).Delete(&absenceRecord{})
		if err := translate(res.Error); err != nil {
			return err
		}
		if res.RowsAffected == 0 {
			return models.ErrNotFound
		}
		return nil
	})
}

// ActiveAbsence returns user's absence in tenant when starts_at ≤ the database clock < ends_at;
// models.ErrNotFound otherwise.
func (s *Store) ActiveAbsence(ctx context.Context, tenant string, user models.ParticipantRef) (models.Absence, error) {
	if storekit.CheckPerson(tenant, user) != nil {
		return models.Absence{}, models.ErrNotFound
	}
	var out models.Absence
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		rec, err := findAbsence(tx, tenant, user)
		if err != nil {
			return err
		}
		if rec == nil {
			return models.ErrNotFound
		}
		a := s.codec().Absence(&rec.AbsenceRow)
		if !a.ActiveAt(now) {
			return models.ErrNotFound
		}
		out = a
		return nil
	})
	return out, err
}

// absencesIn reads absences inside tx, for the substitution of a change in that transaction
// (storekit.ApplySubstitution): the task's lock is held, so the absence and the assignment are
// decided together.
func (s *Store) absencesIn(tx *gorm.DB) storekit.AbsenceLookup {
	return func(tenant string, user models.ParticipantRef) (*models.Absence, error) {
		rec, err := findAbsence(tx, tenant, user)
		if err != nil || rec == nil {
			return nil, err
		}
		a := s.codec().Absence(&rec.AbsenceRow)
		return &a, nil
	}
}

// SubstitutedBy returns the users whose absence names substitute and is active on the database
// clock: ix_absences_substitute seeks the substitute's rows not yet ended, the start is checked
// on the few read.
func (s *Store) SubstitutedBy(ctx context.Context, tenant string, substitute models.ParticipantRef) ([]models.ParticipantRef, error) {
	if storekit.CheckPerson(tenant, substitute) != nil {
		return nil, nil
	}
	var out []models.ParticipantRef
	err := s.inReadAt(ctx, func(tx *gorm.DB, now time.Time) error {
		var recs []absenceRecord
		err := tx.Where("tenant_id = ? AND substitute_provider = ? AND substitute_type = ? AND substitute_id = ? AND ends_at > ?",
			tenant, substitute.Provider, string(models.UserParticipant), substitute.ID, now).
			Order("user_provider, user_id").Find(&recs).Error
		if err != nil {
			return translate(err)
		}
		out = storekit.StandingIn(s.codec(), recs2rows(recs), now)
		return nil
	})
	return out, err
}

func recs2rows(recs []absenceRecord) []storekit.AbsenceRow {
	rows := make([]storekit.AbsenceRow, len(recs))
	for i := range recs {
		rows[i] = recs[i].AbsenceRow
	}
	return rows
}
