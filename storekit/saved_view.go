package storekit

import "usertasks/models"

// The two refusals of a saved view that the store itself decides, as validation errors.
var (
	// ErrViewNameTaken: another of the owner's views has the name (case-insensitively).
	ErrViewNameTaken = models.Invalid(models.CodeValidationFailed, models.FieldError{Field: "name", Message: "is already used by another of your views"})
	// ErrTooManyViews: the owner holds models.MaxSavedViews views already.
	ErrTooManyViews = models.Invalid(models.CodeValidationFailed, models.FieldError{Field: "views", Message: "at most 50 saved views per person"})
)

// CheckSavedView refuses a view the stored fields cannot hold; the service checks the same
// first.
func CheckSavedView(v models.SavedView) error {
	if v.Tenant == "" || v.Owner.ID == "" || v.Owner.Provider == "" || v.Owner.Type == "" {
		return models.InvalidField("owner", "is required")
	}
	if _, msg := models.SavedViewName(v.Name); msg != "" {
		return models.InvalidField("name", msg)
	}
	if v.Query == "" || len(v.Query) > models.MaxSavedViewQuerySize {
		return models.InvalidField("query", "must be 1 to 2000 bytes")
	}
	return nil
}

// SavedViewOwnerDisplay is the owner's display name as a view keeps it: nil when empty, too
// long or not a clean label (it is shown, never matched).
func SavedViewOwnerDisplay(owner models.ParticipantRef) *string {
	if d := owner.DisplayName; d != "" && len(d) <= 256 && models.TextProblem(d, models.Label) == "" {
		return &d
	}
	return nil
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
