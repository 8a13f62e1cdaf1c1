package docstore

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// Invitations, their sealed deliveries and guest sessions as stored: the logical columns of
// user_task_invitations, user_task_deliveries and user_task_guest_sessions under their names,
// the codec of repository/invitation.go field for field. Only hashes of the invitation token,
// the code and the session credential are stored; the recipient and the delivery payload (the
// raw token and code) are sealed with the key ring and the SQL store's associated data
// (row id "/" column), so a sealed value means the same on both stores.

const (
	invitationCollection   = "user_task_invitations"
	guestSessionCollection = "user_task_guest_sessions"

	colRecipient = "recipient_enc"
	// expiredDeliveryCode is the last_error of a delivery dropped because its invitation
	// expired before it was sent (repository.ExpiredDeliveryCode).
	expiredDeliveryCode = "expired"
)

// invitationDoc is an invitation: pending in its task's aggregate, then a document of
// user_task_invitations. Version counts its claimed writes (doc_claim.go).
type invitationDoc struct {
	ID               string     `bson:"_id"`
	TenantID         string     `bson:"tenant_id"`
	TaskID           string     `bson:"task_id"`
	SiblingGroupID   *string    `bson:"sibling_group_id"`
	VerifierName     string     `bson:"verifier_name"`
	AllowedActions   string     `bson:"allowed_actions"`
	BearerOnly       bool       `bson:"bearer_only"`
	RecipientEnc     *string    `bson:"recipient_enc"`
	TokenHash        string     `bson:"token_hash"`
	CodeHash         *string    `bson:"code_hash"`
	CodeAttempts     int        `bson:"code_attempts"`
	Status           string     `bson:"status"`
	IssuedByProvider *string    `bson:"issued_by_provider"`
	IssuedByType     *string    `bson:"issued_by_type"`
	IssuedByID       *string    `bson:"issued_by_id"`
	IssuedAt         time.Time  `bson:"issued_at"`
	ExpiresAt        time.Time  `bson:"expires_at"`
	DispatchedAt     *time.Time `bson:"dispatched_at"`
	VerifiedAt       *time.Time `bson:"verified_at"`
	ConsumedAt       *time.Time `bson:"consumed_at"`
	RevokedAt        *time.Time `bson:"revoked_at"`
	UpdatedAt        time.Time  `bson:"updated_at"`
	Version          int64      `bson:"version"`
}

// deliveryDoc is a delivery of the encrypted outbox: pending in its task's aggregate, then a
// document of user_task_deliveries. Version counts its claimed writes.
type deliveryDoc struct {
	ID              string     `bson:"_id"`
	TenantID        string     `bson:"tenant_id"`
	TaskID          string     `bson:"task_id"`
	InvitationID    string     `bson:"invitation_id"`
	Dispatcher      string     `bson:"dispatcher"`
	PayloadEnc      string     `bson:"payload_enc"`
	Metadata        *string    `bson:"metadata"`
	Attempts        int        `bson:"attempts"`
	State           string     `bson:"state"`
	AvailableAt     time.Time  `bson:"available_at"`
	ExpiresAt       time.Time  `bson:"expires_at"`
	LastError       *string    `bson:"last_error"`
	IdempotencyKey  string     `bson:"idempotency_key"`
	LeaseOwner      *string    `bson:"lease_owner"`
	LeaseToken      *string    `bson:"lease_token"`
	LeaseGeneration int64      `bson:"lease_generation"`
	LeaseExpiresAt  *time.Time `bson:"lease_expires_at"`
	CreatedAt       time.Time  `bson:"created_at"`
	UpdatedAt       time.Time  `bson:"updated_at"`
	Version         int64      `bson:"version"`
}

// guestSessionDoc is a guest session (user_task_guest_sessions), its own document from the
// start: the credential's hash only.
type guestSessionDoc struct {
	ID                  string     `bson:"_id"`
	TenantID            string     `bson:"tenant_id"`
	TaskID              string     `bson:"task_id"`
	InvitationID        string     `bson:"invitation_id"`
	TokenHash           string     `bson:"token_hash"`
	ParticipantProvider string     `bson:"participant_provider"`
	ParticipantID       string     `bson:"participant_id"`
	Capabilities        string     `bson:"capabilities"`
	IssuedAt            time.Time  `bson:"issued_at"`
	ExpiresAt           time.Time  `bson:"expires_at"`
	RevokedAt           *time.Time `bson:"revoked_at"`
}

func (s *Store) invitationDocOf(inv *models.Invitation) (invitationDoc, error) {
	actions, err := json.Marshal(inv.AllowedActions)
	if err != nil {
		return invitationDoc{}, err
	}
	by := storekit.RefColumnsOf(inv.IssuedBy)
	d := invitationDoc{
		ID: inv.ID, TenantID: inv.Tenant, TaskID: inv.TaskID, SiblingGroupID: opt(inv.SiblingGroupID),
		VerifierName: inv.VerifierName, AllowedActions: string(actions), BearerOnly: inv.BearerOnly,
		TokenHash: inv.TokenHash, CodeHash: opt(inv.CodeHash), CodeAttempts: inv.CodeAttempts, Status: string(inv.Status),
		IssuedByProvider: by.Provider, IssuedByType: by.Type, IssuedByID: by.ID,
		IssuedAt: utc(inv.IssuedAt), ExpiresAt: utc(inv.ExpiresAt), DispatchedAt: utcPtr(inv.DispatchedAt),
		VerifiedAt: utcPtr(inv.VerifiedAt), ConsumedAt: utcPtr(inv.ConsumedAt), RevokedAt: utcPtr(inv.RevokedAt),
		UpdatedAt: utc(inv.UpdatedAt),
	}
	d.RecipientEnc, err = s.seal(inv.ID, colRecipient, []byte(inv.Recipient))
	return d, err
}

func (s *Store) invitationOf(d *invitationDoc) (models.Invitation, error) {
	inv := models.Invitation{
		ID: d.ID, Tenant: d.TenantID, TaskID: d.TaskID, SiblingGroupID: str(d.SiblingGroupID),
		VerifierName: d.VerifierName, BearerOnly: d.BearerOnly, TokenHash: d.TokenHash, CodeHash: str(d.CodeHash),
		CodeAttempts: d.CodeAttempts, Status: models.InvitationStatus(d.Status),
		IssuedBy: storekit.RefFrom(d.TenantID, d.IssuedByProvider, d.IssuedByType, d.IssuedByID, nil),
		IssuedAt: utc(d.IssuedAt), ExpiresAt: utc(d.ExpiresAt), DispatchedAt: utcPtr(d.DispatchedAt),
		VerifiedAt: utcPtr(d.VerifiedAt), ConsumedAt: utcPtr(d.ConsumedAt), RevokedAt: utcPtr(d.RevokedAt),
		UpdatedAt: utc(d.UpdatedAt),
	}
	if err := json.Unmarshal([]byte(d.AllowedActions), &inv.AllowedActions); err != nil {
		return inv, &models.CorruptError{TaskID: d.TaskID, Reason: "invitation allowed actions do not decode"}
	}
	recipient, err := s.open(d.TaskID, d.ID, colRecipient, d.RecipientEnc)
	inv.Recipient = string(recipient)
	return inv, err
}

func (s *Store) deliveryDocOf(d *models.Delivery) (deliveryDoc, error) {
	payload, err := s.seal(d.ID, colPayload, d.Payload)
	if err != nil {
		return deliveryDoc{}, err
	}
	if payload == nil {
		return deliveryDoc{}, fmt.Errorf("docstore: a delivery needs a payload")
	}
	doc := deliveryDoc{
		ID: d.ID, TenantID: d.Tenant, TaskID: d.TaskID, InvitationID: d.InvitationID, Dispatcher: d.Dispatcher,
		PayloadEnc: *payload, Attempts: d.Attempts, State: string(models.DeliveryPending),
		AvailableAt: utc(d.AvailableAt), ExpiresAt: utc(d.ExpiresAt), LastError: opt(d.LastError),
		IdempotencyKey: d.IdempotencyKey, CreatedAt: utc(d.CreatedAt), UpdatedAt: utc(d.UpdatedAt),
	}
	if len(d.Metadata) > 0 {
		doc.Metadata = opt(string(d.Metadata))
	}
	return doc, nil
}

// deliveryOf decodes a delivery; the payload is opened only when open is set (a dispatch
// attempt), never for a listing.
func (s *Store) deliveryOf(d *deliveryDoc, open bool) (models.Delivery, error) {
	out := models.Delivery{
		ID: d.ID, Tenant: d.TenantID, TaskID: d.TaskID, InvitationID: d.InvitationID, Dispatcher: d.Dispatcher,
		Attempts: d.Attempts, State: models.DeliveryState(d.State), AvailableAt: utc(d.AvailableAt),
		ExpiresAt: utc(d.ExpiresAt), LastError: str(d.LastError), IdempotencyKey: d.IdempotencyKey,
		CreatedAt: utc(d.CreatedAt), UpdatedAt: utc(d.UpdatedAt),
	}
	if !open {
		return out, nil
	}
	if d.LeaseToken != nil && d.LeaseExpiresAt != nil {
		out.Lease = &models.Lease{Owner: str(d.LeaseOwner), Token: *d.LeaseToken, Generation: d.LeaseGeneration, ExpiresAt: utc(*d.LeaseExpiresAt)}
	}
	if d.Metadata != nil {
		out.Metadata = json.RawMessage(*d.Metadata)
	}
	var err error
	out.Payload, err = s.open(d.TaskID, d.ID, colPayload, &d.PayloadEnc)
	return out, err
}

func guestSessionDocOf(gs *models.GuestSession) (guestSessionDoc, error) {
	caps, err := json.Marshal(gs.Capabilities)
	if err != nil {
		return guestSessionDoc{}, err
	}
	return guestSessionDoc{
		ID: gs.ID, TenantID: gs.Tenant, TaskID: gs.TaskID, InvitationID: gs.InvitationID, TokenHash: gs.TokenHash,
		ParticipantProvider: gs.Participant.Provider, ParticipantID: gs.Participant.ID, Capabilities: string(caps),
		IssuedAt: utc(gs.IssuedAt), ExpiresAt: utc(gs.ExpiresAt), RevokedAt: utcPtr(gs.RevokedAt),
	}, nil
}

func guestSessionOf(d *guestSessionDoc) (models.GuestSession, error) {
	gs := models.GuestSession{
		ID: d.ID, Tenant: d.TenantID, TaskID: d.TaskID, InvitationID: d.InvitationID, TokenHash: d.TokenHash,
		Participant: models.ParticipantRef{Tenant: d.TenantID, Provider: d.ParticipantProvider, Type: models.UserParticipant,
			ID: d.ParticipantID, DisplayName: "Guest"},
		IssuedAt: utc(d.IssuedAt), ExpiresAt: utc(d.ExpiresAt), RevokedAt: utcPtr(d.RevokedAt),
	}
	if err := json.Unmarshal([]byte(d.Capabilities), &gs.Capabilities); err != nil {
		return gs, &models.CorruptError{TaskID: d.TaskID, Reason: "guest session capabilities do not decode"}
	}
	return gs, nil
}
