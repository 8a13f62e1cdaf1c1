package repository

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// Saved inbox views (issue 10). Who may see, rename or delete a view is decided by the models
// policy (models.SeesSavedView and friends); listing puts the same rule into SQL.

type savedViewRecord struct {
	storekit.SavedViewRow `gorm:"embedded"`
}

func (savedViewRecord) TableName() string { return "user_task_saved_views" }

// CreateSavedView stores v under a new id, at the database's time, and returns it. The name
// must be new to the owner (case-insensitively) and the owner may hold at most
// models.MaxSavedViews views (counted inside the transaction); both refusals are validation
// errors. The caller has checked the name, the query and the right to share.
func (s *Store) CreateSavedView(ctx context.Context, v models.SavedView) (models.SavedView, error) {
	if err := storekit.CheckSavedView(v); err != nil {
		return models.SavedView{}, err
	}
	v.ID = models.NewID()
	rec := savedViewRecord{SavedViewRow: s.codec().SavedViewRow(&v)}
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		var n int64
		if err := ownedViews(tx.Model(&savedViewRecord{}), v.Tenant, v.Owner).Count(&n).Error; err != nil {
			return translate(err)
		}
		if n >= models.MaxSavedViews {
			return storekit.ErrTooManyViews
		}
		rec.CreatedAt, rec.UpdatedAt = now, now
		return savedViewWriteError(tx.Create(&rec).Error)
	})
	if err != nil {
		return models.SavedView{}, err
	}
	return s.codec().SavedView(&rec.SavedViewRow), nil
}

// SavedViews lists the views a may open, by name: a's own and, for a manager, those shared
// with the tenant's managers.
func (s *Store) SavedViews(ctx context.Context, a models.Actor) ([]models.SavedView, error) {
	me := a.Subject
	if a.Guest != nil || a.Tenant == "" || me.ID == "" {
		return nil, nil
	}
	var recs []savedViewRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		q := tx.Where("tenant_id = ?", a.Tenant)
		if models.CanShareViews(a) {
			q = q.Where("((owner_provider = ? AND owner_type = ? AND owner_id = ?) OR is_shared = ?)", me.Provider, string(me.Type), me.ID, true)
		} else {
			q = q.Where("owner_provider = ? AND owner_type = ? AND owner_id = ?", me.Provider, string(me.Type), me.ID)
		}
		return translate(q.Order("name_key ASC, id ASC").Limit(models.MaxSavedViews * 20).Find(&recs).Error)
	})
	if err != nil {
		return nil, err
	}
	out := make([]models.SavedView, 0, len(recs))
	for i := range recs {
		out = append(out, s.codec().SavedView(&recs[i].SavedViewRow))
	}
	return out, nil
}

// SavedView returns the view a may open; models.ErrNotFound when it is missing or a may not see it.
func (s *Store) SavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error) {
	var v models.SavedView
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		v, err = s.loadSavedView(tx, a, id, models.SeesSavedView)
		return err
	})
	return v, err
}

// RenameSavedView renames a's own view; models.ErrNotFound for anyone else's view. A name
// another of the owner's views has is a validation error.
func (s *Store) RenameSavedView(ctx context.Context, a models.Actor, id, name string) (models.SavedView, error) {
	var v models.SavedView
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		var err error
		if v, err = s.loadSavedView(tx, a, id, models.MayRenameSavedView); err != nil {
			return err
		}
		v.Name, v.UpdatedAt = name, now
		if err := storekit.CheckSavedView(v); err != nil {
			return err
		}
		return savedViewWriteError(tx.Model(&savedViewRecord{}).Where("tenant_id = ? AND id = ?", a.Tenant, id).
			Updates(map[string]any{"name": name, "name_key": models.SavedViewNameKey(name), "updated_at": now}).Error)
	})
	if err != nil {
		return models.SavedView{}, err
	}
	return v, nil
}

// DeleteSavedView deletes a view a may delete (models.MayDeleteSavedView) and returns it;
// models.ErrNotFound otherwise.
func (s *Store) DeleteSavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error) {
	var v models.SavedView
	err := s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		var err error
		if v, err = s.loadSavedView(tx, a, id, models.MayDeleteSavedView); err != nil {
			return err
		}
		return translate(tx.Where("tenant_id = ? AND id = ?", a.Tenant, id).Delete(&savedViewRecord{}).Error)
	})
	if err != nil {
		return models.SavedView{}, err
	}
	return v, nil
}

// loadSavedView reads a view of a's tenant and applies a policy; a view the policy refuses is
// indistinguishable from a missing one.
func (s *Store) loadSavedView(tx *gorm.DB, a models.Actor, id string, may func(models.Actor, models.SavedView) bool) (models.SavedView, error) {
	if a.Tenant == "" || id == "" || len(id) > 36 {
		return models.SavedView{}, errNoRows
	}
	var rec savedViewRecord
	if err := translate(tx.Where("tenant_id = ? AND id = ?", a.Tenant, id).Take(&rec).Error); err != nil {
		return models.SavedView{}, err
	}
	v := s.codec().SavedView(&rec.SavedViewRow)
	if !may(a, v) {
		return models.SavedView{}, errNoRows
	}
	return v, nil
}

func ownedViews(db *gorm.DB, tenant string, owner models.ParticipantRef) *gorm.DB {
	return db.Where("tenant_id = ? AND owner_provider = ? AND owner_type = ? AND owner_id = ?", tenant, owner.Provider, string(owner.Type), owner.ID)
}

// savedViewWriteError turns the unique name index's refusal into the name's validation error.
func savedViewWriteError(err error) error {
	if err = translate(err); errors.Is(err, errDuplicate) {
		return storekit.ErrViewNameTaken
	}
	return err
}
