package models

import (
	"encoding/json"
	"time"
)

// InvitationStatus is the state of a one-time guest invitation.
type InvitationStatus string

const (
	InvitationPending    InvitationStatus = "pending"
	InvitationDispatched InvitationStatus = "dispatched"
	InvitationVerified   InvitationStatus = "verified"
	InvitationConsumed   InvitationStatus = "consumed"
	InvitationRevoked    InvitationStatus = "revoked"
	InvitationExpired    InvitationStatus = "expired"
)

// Invitation is a guest invitation. Only the token's SHA-256 hash is kept.
type Invitation struct {
	ID             string
	Tenant         string
	TaskID         string
	SiblingGroupID string
	VerifierName   string
	AllowedActions []string
	BearerOnly     bool
	Recipient      string // protected
	TokenHash      string
	CodeHash       string
	CodeAttempts   int
	Status         InvitationStatus
	IssuedBy       *ParticipantRef
	IssuedAt       time.Time
	ExpiresAt      time.Time
	DispatchedAt   *time.Time
	VerifiedAt     *time.Time
	ConsumedAt     *time.Time
	RevokedAt      *time.Time
	UpdatedAt      time.Time
}

// Delivery is a row of the encrypted invitation delivery outbox.
type Delivery struct {
	ID             string
	Tenant         string
	TaskID         string
	InvitationID   string
	Dispatcher     string
	Payload        []byte          // the raw token and code; encrypted at rest
	Metadata       json.RawMessage // safe delivery metadata
	Attempts       int
	State          DeliveryState
	AvailableAt    time.Time
	ExpiresAt      time.Time
	LastError      string
	IdempotencyKey string
	Lease          *Lease
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// GuestSession is a task-scoped capability issued on verification. Only the hash is kept.
type GuestSession struct {
	ID           string
	Tenant       string
	TaskID       string
	InvitationID string
	TokenHash    string
	Participant  ParticipantRef
	Capabilities []string
	IssuedAt     time.Time
	ExpiresAt    time.Time
	RevokedAt    *time.Time
}
