package storekit

import (
	"time"

	"usertasks/models"
)

// SavedViewRow is a saved inbox view as stored (user_task_saved_views): name_key is the name
// lower-cased, unique per owner.
type SavedViewRow struct {
	ID            string    `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID      string    `gorm:"column:tenant_id" bson:"tenant_id"`
	OwnerProvider string    `gorm:"column:owner_provider" bson:"owner_provider"`
	OwnerType     string    `gorm:"column:owner_type" bson:"owner_type"`
	OwnerID       string    `gorm:"column:owner_id" bson:"owner_id"`
	OwnerDisplay  *string   `gorm:"column:owner_display" bson:"owner_display"`
	Name          string    `gorm:"column:name" bson:"name"`
	NameKey       string    `gorm:"column:name_key" bson:"name_key"`
	InboxQuery    string    `gorm:"column:inbox_query" bson:"inbox_query"`
	IsShared      bool      `gorm:"column:is_shared" bson:"is_shared"`
	CreatedAt     time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt     time.Time `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// SavedViewRow encodes v (checked with CheckSavedView), its owner's display name as a view
// keeps it (SavedViewOwnerDisplay).
func (c Codec) SavedViewRow(v *models.SavedView) SavedViewRow {
	return SavedViewRow{
		ID: v.ID, TenantID: v.Tenant, OwnerProvider: v.Owner.Provider, OwnerType: string(v.Owner.Type), OwnerID: v.Owner.ID,
		OwnerDisplay: SavedViewOwnerDisplay(v.Owner), Name: v.Name, NameKey: models.SavedViewNameKey(v.Name),
		InboxQuery: v.Query, IsShared: v.Shared, CreatedAt: c.Time(v.CreatedAt), UpdatedAt: c.Time(v.UpdatedAt),
	}
}

// SavedView decodes r.
func (c Codec) SavedView(r *SavedViewRow) models.SavedView {
	return models.SavedView{
		ID: r.ID, Tenant: r.TenantID, Name: r.Name, Query: r.InboxQuery, Shared: r.IsShared,
		Owner: models.ParticipantRef{Tenant: r.TenantID, Provider: r.OwnerProvider, Type: models.ParticipantType(r.OwnerType),
			ID: r.OwnerID, DisplayName: Str(r.OwnerDisplay)},
		CreatedAt: c.Time(r.CreatedAt), UpdatedAt: c.Time(r.UpdatedAt),
	}
}
