package models

import (
	"encoding/json"
	"time"
)

// EventType names an entry of the audit timeline.
type EventType string

const (
	EventCreated               EventType = "created"
	EventClaimed               EventType = "claimed"
	EventReleased              EventType = "released"
	EventAssigned              EventType = "assigned"
	EventScheduleUpdated       EventType = "schedule-updated"
	EventCompletionRequested   EventType = "completion-requested"
	EventTimeoutRequested      EventType = "timeout-requested"
	EventOverdue               EventType = "overdue"
	EventCancellationRequested EventType = "cancellation-requested"
	EventResolutionRetried     EventType = "resolution-retried"
	EventInvitationVerified    EventType = "invitation-verified"
	EventCompleted             EventType = "completed"
	EventTimedOut              EventType = "timed-out"
	EventCancelled             EventType = "cancelled"
	EventFieldRevealed         EventType = "field-revealed"
	EventInvitationIssued      EventType = "invitation-issued"
	EventInvitationRevoked     EventType = "invitation-revoked"
	EventAccessExplained       EventType = "access-explained"
	EventDelegated             EventType = "delegated"
	EventReturned              EventType = "returned"
)

// Event is one append-only, tenant-scoped entry of a task's audit timeline. It never holds
// protected data, tokens or codes.
type Event struct {
	ID          string
	Tenant      string
	TaskID      string
	Seq         int // per-task monotonic sequence, unique with the task id
	Revision    int // the task revision after the change this event records
	Type        EventType
	OccurredAt  time.Time
	OperationID string
	Actor       *ParticipantRef
	Reason      string
	Metadata    json.RawMessage // bounded safe metadata, at most MaxEventMetadataBytes
}
