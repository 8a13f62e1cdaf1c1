package storekit

import "time"

// The aggregate's child rows (see TaskRow). Candidates and exclusions share the columns of the
// participant and its source only: the SQL rows also name their task and tenant and keep
// timestamps and a status copy where they stand in the table, which the document's embedded
// entries have no use for.

// ParticipantRow is the participant of a candidate or exclusion row.
type ParticipantRow struct {
	Provider        string  `gorm:"column:provider" bson:"provider"`
	ParticipantType string  `gorm:"column:participant_type" bson:"participant_type"`
	ParticipantID   string  `gorm:"column:participant_id" bson:"participant_id"`
	DisplayName     *string `gorm:"column:display_name" bson:"display_name"`
}

// CandidateRow is a user_task_candidates row's participant and the source of its candidacy.
type CandidateRow struct {
	ParticipantRow      `gorm:"embedded" bson:",inline"`
	Source              string  `gorm:"column:source" bson:"source"`
	SourceKey           string  `gorm:"column:source_key" bson:"source_key"`
	SourceGroupProvider *string `gorm:"column:source_group_provider" bson:"source_group_provider"`
	SourceGroupID       *string `gorm:"column:source_group_id" bson:"source_group_id"`
}

// EventRow is a user_task_events row.
type EventRow struct {
	ID            string    `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID      string    `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID        string    `gorm:"column:task_id" bson:"task_id"`
	Seq           int       `gorm:"column:seq" bson:"seq"`
	Revision      int       `gorm:"column:revision" bson:"revision"`
	EventType     string    `gorm:"column:event_type" bson:"event_type"`
	OccurredAt    time.Time `gorm:"column:occurred_at" bson:"occurred_at"`
	OperationID   *string   `gorm:"column:operation_id" bson:"operation_id"`
	ActorProvider *string   `gorm:"column:actor_provider" bson:"actor_provider"`
	ActorType     *string   `gorm:"column:actor_type" bson:"actor_type"`
	ActorID       *string   `gorm:"column:actor_id" bson:"actor_id"`
	ActorDisplay  *string   `gorm:"column:actor_display" bson:"actor_display"`
	Reason        *string   `gorm:"column:reason" bson:"reason"`
	Metadata      *string   `gorm:"column:metadata" bson:"metadata"`
}

// OperationRow is a user_task_operations row; the payload is sealed.
type OperationRow struct {
	ID               string     `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID         string     `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID           string     `gorm:"column:task_id" bson:"task_id"`
	OperationID      string     `gorm:"column:operation_id" bson:"operation_id"`
	Kind             string     `gorm:"column:kind" bson:"kind"`
	ExpectedRevision int        `gorm:"column:expected_revision" bson:"expected_revision"`
	RequestHash      string     `gorm:"column:request_hash" bson:"request_hash"`
	State            string     `gorm:"column:state" bson:"state"`
	Attempts         int        `gorm:"column:attempts" bson:"attempts"`
	ActionKey        *string    `gorm:"column:action_key" bson:"action_key"`
	Reason           *string    `gorm:"column:reason" bson:"reason"`
	ActorProvider    *string    `gorm:"column:actor_provider" bson:"actor_provider"`
	ActorType        *string    `gorm:"column:actor_type" bson:"actor_type"`
	ActorID          *string    `gorm:"column:actor_id" bson:"actor_id"`
	ActorDisplay     *string    `gorm:"column:actor_display" bson:"actor_display"`
	ResultJSON       *string    `gorm:"column:result_json" bson:"result_json"`
	PayloadEnc       *string    `gorm:"column:payload_enc" bson:"payload_enc"`
	CreatedAt        time.Time  `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt        time.Time  `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
	CompletedAt      *time.Time `gorm:"column:completed_at" bson:"completed_at"`
}

// LeaseColumns are the lease of an outbox row (resumptions and deliveries).
type LeaseColumns struct {
	LeaseOwner      *string    `gorm:"column:lease_owner" bson:"lease_owner"`
	LeaseToken      *string    `gorm:"column:lease_token" bson:"lease_token"`
	LeaseGeneration int64      `gorm:"column:lease_generation" bson:"lease_generation"`
	LeaseExpiresAt  *time.Time `gorm:"column:lease_expires_at" bson:"lease_expires_at"`
}

// ResumptionRow is a user_task_resumptions row: an outbox entry of the resumption protocol.
type ResumptionRow struct {
	ID           string    `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID     string    `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID       string    `gorm:"column:task_id" bson:"task_id"`
	OperationID  string    `gorm:"column:operation_id" bson:"operation_id"`
	Kind         string    `gorm:"column:kind" bson:"kind"`
	State        string    `gorm:"column:state" bson:"state"`
	Attempts     int       `gorm:"column:attempts" bson:"attempts"`
	AvailableAt  time.Time `gorm:"column:available_at" bson:"available_at"`
	LastError    *string   `gorm:"column:last_error" bson:"last_error"`
	LeaseColumns `gorm:"embedded" bson:",inline"`
	CreatedAt    time.Time  `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt    time.Time  `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
	DeliveredAt  *time.Time `gorm:"column:delivered_at" bson:"delivered_at"`
}
