package store

import (
	"context"
	"time"

	"usertasks/models"
)

// Guests are invitations, their sealed deliveries and the dispatcher's claims of them,
// verification and guest sessions.
type Guests interface {
	IssueInvitation(ctx context.Context, tenant, taskID string, build IssueFunc) (models.Invitation, error)
	Invitations(ctx context.Context, tenant, taskID string) ([]models.Invitation, error)
	InvitationDeliveries(ctx context.Context, tenant, taskID string) ([]models.Delivery, error)
	FindInvitationByTokenHash(ctx context.Context, tokenHash string) (models.Invitation, error)
	RevokeInvitation(ctx context.Context, tenant, taskID, invitationID string, build RevokeFunc) (models.Invitation, error)
	ConsumeInvitation(ctx context.Context, tenant, invitationID string) error
	ExpireInvitations(ctx context.Context, limit int) (map[string]int, error)
	ClaimDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Delivery, error)
	AckDelivery(ctx context.Context, d models.Delivery) error
	RetryDelivery(ctx context.Context, d models.Delivery, delay time.Duration, errCode string, abandon bool) (int, error)
	VerifyInvitation(ctx context.Context, v GuestVerification) (models.GuestSession, error)
	GuestAccess(ctx context.Context, tokenHash string) (GuestAccess, error)
}

// IssueFunc builds an invitation, its delivery and the invitation-issued event for the task
// as loaded inside the store's write.
type IssueFunc func(now time.Time, task models.Task) (models.Invitation, models.Delivery, models.Event, error)

// RevokeFunc builds the invitation-revoked event for the invitation and its task as loaded
// inside the store's write; it refuses (with the domain's error) what may not be revoked.
type RevokeFunc func(now time.Time, task models.Task, inv models.Invitation) (models.Event, error)

// GuestVerification is one attempt to verify an invitation.
type GuestVerification struct {
	// TokenHash is the SHA-256 hash of the presented invitation token.
	TokenHash string
	// Proof decides, for the invitation as locked inside the store's write, whether the
	// presented proof (a code, or the link alone) holds. A failed proof counts one attempt.
	Proof func(inv models.Invitation) bool
	// Session builds the guest session of a successful verification; the store sets nothing
	// of it but checks that it names the invitation.
	Session func(now time.Time, inv models.Invitation) models.GuestSession
}

// GuestAccess is what a guest session request is judged on, read in one snapshot.
type GuestAccess struct {
	Session    models.GuestSession
	Invitation models.Invitation
	Task       models.Task // without protected content
	Now        time.Time   // the database clock
}
