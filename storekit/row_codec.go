package storekit

import (
	"time"

	"usertasks/models"
)

// The rows of the tables both stores keep alike (invitations, deliveries, guest and web
// sessions, web notes, saved views, worker runs, leases, the daily rollup) are declared once
// here, in the logical schema's field order (migrations/logical), each field tagged with its
// SQL column and its BSON field of the same name. The SQL store embeds a row in its record
// (table name, GORM options), the document store in its document (versions, pending markers):
// a field only one store keeps stays in that store's type.

// Codec turns rows into domain values and back as a store keeps them: the sealer of their
// protected fields and the precision of their times. Every store encodes through one, so a
// row means the same in each.
type Codec struct {
	Sealer    Sealer
	Precision Precision
}

// Precision is how finely a store keeps times: a time is written, and read back, in UTC
// truncated to it.
type Precision time.Duration

// The stores' precisions.
const (
	Microseconds = Precision(time.Microsecond) // SQL timestamps
	Milliseconds = Precision(time.Millisecond) // BSON dates
)

// UTC is t as the store keeps it.
func (p Precision) UTC(t time.Time) time.Time { return t.UTC().Truncate(time.Duration(p)) }

// UTCPtr is *t as the store keeps it; nil (NULL) stays nil.
func (p Precision) UTCPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := p.UTC(*t)
	return &u
}

// Opt stores "" as NULL, as Oracle would anyway, so an empty and an absent value read back
// the same in every store.
func Opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Str reads a nullable field; NULL is "".
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// RefFields are the nullable fields a participant reference is stored in.
type RefFields struct{ Provider, Type, ID, Display *string }

// RefFieldsOf splits r into its fields; nil leaves them all NULL.
func RefFieldsOf(r *models.ParticipantRef) RefFields {
	if r == nil {
		return RefFields{}
	}
	return RefFields{Opt(r.Provider), Opt(string(r.Type)), Opt(r.ID), Opt(r.DisplayName)}
}

// RefFrom reads a participant reference of tenant back; without a provider or an id there is
// none (nil).
func RefFrom(tenant string, provider, typ, id, display *string) *models.ParticipantRef {
	if provider == nil || id == nil {
		return nil
	}
	return &models.ParticipantRef{Tenant: tenant, Provider: *provider, Type: models.ParticipantType(Str(typ)), ID: *id, DisplayName: Str(display)}
}
