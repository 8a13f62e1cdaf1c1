package models

import (
	"encoding/json"
	"time"
)

// OperationKind is the command an operation record stands for.
type OperationKind string

const (
	OpProjection      OperationKind = "projection"
	OpClaim           OperationKind = "claim"
	OpRelease         OperationKind = "release"
	OpAssign          OperationKind = "assign"
	OpScheduleUpdate  OperationKind = "schedule-update"
	OpComplete        OperationKind = "complete"
	OpTimeout         OperationKind = "timeout"
	OpCancel          OperationKind = "cancel"
	OpRetryResolution OperationKind = "retry-resolution"
	OpVerifyGuest     OperationKind = "invitation-verification"
	OpFinalize        OperationKind = "finalize"
	OpMarkOverdue     OperationKind = "mark-overdue"
	OpDelegate        OperationKind = "delegate"
	OpReturn          OperationKind = "return"
)

// OperationState is the progress of an operation.
type OperationState string

const (
	// OperationAccepted: a transition was accepted and waits for the runtime.
	OperationAccepted OperationState = "accepted"
	// OperationCompleted: the operation's effect is final.
	OperationCompleted OperationState = "completed"
)

// Operation is the idempotency record of one command. Same id and same request hash
// returns Result; a different hash is an idempotency conflict.
type Operation struct {
	ID               string
	Tenant           string
	TaskID           string
	OperationID      string
	Kind             OperationKind
	ExpectedRevision int
	RequestHash      string
	State            OperationState
	Attempts         int
	CreatedAt        time.Time
	UpdatedAt        time.Time
	CompletedAt      *time.Time
	ActionKey        string
	Reason           string
	Actor            *ParticipantRef
	Result           json.RawMessage // safe outcome returned on replay
	Payload          json.RawMessage // protected: the completion data of a completion request
}

// Lease fences a claimed row or a named singleton job: a holder whose token or generation
// no longer matches, or whose expiry has passed by the database clock, cannot acknowledge.
type Lease struct {
	Owner      string
	Token      string
	Generation int64
	ExpiresAt  time.Time
}

// DeliveryState is the state of an outbox row.
type DeliveryState string

const (
	DeliveryPending   DeliveryState = "pending"
	DeliveryDelivered DeliveryState = "delivered"
	DeliverySettled   DeliveryState = "settled"   // the task was finalized; nothing more to send
	DeliveryAbandoned DeliveryState = "abandoned" // retries exhausted
)

// Resumption is a resumption outbox row: the stimulus for a transitional task, written in the
// same transaction as the transition and delivered at least once to the workflow runtime.
type Resumption struct {
	ID          string
	Tenant      string
	TaskID      string
	OperationID string
	Kind        OperationKind
	State       DeliveryState
	Attempts    int
	AvailableAt time.Time
	LastError   string
	Lease       *Lease
	CreatedAt   time.Time
	UpdatedAt   time.Time
	DeliveredAt *time.Time
}

// RanBy reports whether a is the actor that ran op: the same subject (tenant, provider, type and
// id; display names are snapshots), or the system for an operation without an actor. An
// operation id belongs to its actor, so only that actor may replay it (SPEC 3.4).
func (op *Operation) RanBy(a Actor) bool {
	switch {
	case op == nil:
		return false
	case a.System || op.Actor == nil:
		return a.System && op.Actor == nil
	}
	return op.Actor.Same(a.Subject)
}
