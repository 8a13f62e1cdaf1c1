package storekit

import (
	"encoding/json"
	"errors"

	"usertasks/models"
)

// ExpiredDeliveryCode is the last_error of a delivery dropped because its invitation expired
// before it was sent.
const ExpiredDeliveryCode = "expired"

// DeliveryRow encodes a new delivery, pending, its payload sealed: a delivery without a
// payload is refused.
func (c Codec) DeliveryRow(d *models.Delivery) (DeliveryRow, error) {
	payload, err := c.Sealer.Seal(d.ID, ColPayload, d.Payload)
	if err != nil {
		return DeliveryRow{}, err
	}
	if payload == nil {
		return DeliveryRow{}, errors.New("storekit: a delivery needs a payload")
	}
	r := DeliveryRow{
		ID: d.ID, TenantID: d.Tenant, TaskID: d.TaskID, InvitationID: d.InvitationID, Dispatcher: d.Dispatcher,
		PayloadEnc: *payload, Attempts: d.Attempts, State: string(models.DeliveryPending),
		AvailableAt: c.Time(d.AvailableAt), ExpiresAt: c.Time(d.ExpiresAt), LastError: Opt(d.LastError),
		IdempotencyKey: d.IdempotencyKey, CreatedAt: c.Time(d.CreatedAt), UpdatedAt: c.Time(d.UpdatedAt),
	}
	if len(d.Metadata) > 0 {
		r.Metadata = Opt(string(d.Metadata))
	}
	return r, nil
}

// Delivery decodes r. Its lease, metadata and payload only when open is set (a dispatch
// attempt): a listing neither reads nor opens the payload.
func (c Codec) Delivery(r *DeliveryRow, open bool) (models.Delivery, error) {
	d := models.Delivery{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, InvitationID: r.InvitationID, Dispatcher: r.Dispatcher,
		Attempts: r.Attempts, State: models.DeliveryState(r.State), AvailableAt: c.Time(r.AvailableAt),
		ExpiresAt: c.Time(r.ExpiresAt), LastError: Str(r.LastError), IdempotencyKey: r.IdempotencyKey,
		CreatedAt: c.Time(r.CreatedAt), UpdatedAt: c.Time(r.UpdatedAt),
	}
	if !open {
		return d, nil
	}
	d.Lease = c.Lease(r.LeaseColumns)
	if r.Metadata != nil {
		d.Metadata = json.RawMessage(*r.Metadata)
	}
	var err error
	d.Payload, err = c.Sealer.Open(r.TaskID, r.ID, ColPayload, &r.PayloadEnc)
	return d, err
}
