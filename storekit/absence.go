package storekit

import (
	"time"

	"usertasks/models"
)

// AbsenceRow is a user_task_absences row: one user's out-of-office (SPEC 10.5).
type AbsenceRow struct {
	TenantID           string    `gorm:"column:tenant_id;primaryKey" bson:"tenant_id"`
	UserProvider       string    `gorm:"column:user_provider;primaryKey" bson:"user_provider"`
	UserType           string    `gorm:"column:user_type;primaryKey" bson:"user_type"`
	UserID             string    `gorm:"column:user_id;primaryKey" bson:"user_id"`
	StartsAt           time.Time `gorm:"column:starts_at" bson:"starts_at"`
	EndsAt             time.Time `gorm:"column:ends_at" bson:"ends_at"`
	SubstituteProvider string    `gorm:"column:substitute_provider" bson:"substitute_provider"`
	SubstituteType     string    `gorm:"column:substitute_type" bson:"substitute_type"`
	SubstituteID       string    `gorm:"column:substitute_id" bson:"substitute_id"`
	SubstituteDisplay  *string   `gorm:"column:substitute_display" bson:"substitute_display"`
	CreatedAt          time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt          time.Time `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// CheckAbsence refuses an absence the stored fields cannot hold or that models.NewAbsence would
// not have made: both stores check it before writing, whatever the caller did.
func CheckAbsence(a models.Absence) error {
	if err := CheckPerson(a.Tenant, a.User); err != nil {
		return err
	}
	// The substitute's display name is the directory's, kept only when it fits (AbsenceRow):
	// never a reason to refuse.
	sub := a.Substitute
	sub.DisplayName = ""
	_, err := models.NewAbsence(a.Tenant, a.User, a.From, a.Until, sub)
	return err
}

// AbsenceRow encodes a (checked with CheckAbsence); the substitute's display name is kept
// only when it fits and is a clean label (it is shown, never matched).
func (c Codec) AbsenceRow(a *models.Absence) AbsenceRow {
	return AbsenceRow{
		TenantID: a.Tenant, UserProvider: a.User.Provider, UserType: string(models.UserParticipant), UserID: a.User.ID,
		StartsAt: c.Time(a.From), EndsAt: c.Time(a.Until),
		SubstituteProvider: a.Substitute.Provider, SubstituteType: string(models.UserParticipant), SubstituteID: a.Substitute.ID,
		SubstituteDisplay: SavedViewOwnerDisplay(a.Substitute),
		CreatedAt:         c.Time(a.CreatedAt), UpdatedAt: c.Time(a.UpdatedAt),
	}
}

// Absence decodes r.
func (c Codec) Absence(r *AbsenceRow) models.Absence {
	return models.Absence{
		Tenant: r.TenantID,
		User:   models.ParticipantRef{Tenant: r.TenantID, Provider: r.UserProvider, Type: models.ParticipantType(r.UserType), ID: r.UserID},
		From:   c.Time(r.StartsAt), Until: c.Time(r.EndsAt),
		Substitute: models.ParticipantRef{Tenant: r.TenantID, Provider: r.SubstituteProvider, Type: models.ParticipantType(r.SubstituteType),
			ID: r.SubstituteID, DisplayName: Str(r.SubstituteDisplay)},
		CreatedAt: c.Time(r.CreatedAt), UpdatedAt: c.Time(r.UpdatedAt),
	}
}
