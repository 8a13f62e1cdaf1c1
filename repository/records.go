package repository

import (
	"time"

	"usertasks/storekit"
)

// Records mirror the v1 tables column for column. Nullable columns are pointers so that
// Oracle's empty-string-is-NULL rule and real NULLs read back the same way everywhere.
// Protected columns (suffix _enc) hold keyring envelopes, never plaintext.

type taskRecord struct {
	ID                        string     `gorm:"column:id;primaryKey"`
	TenantID                  string     `gorm:"column:tenant_id"`
	WorkflowDefinitionID      string     `gorm:"column:workflow_definition_id"`
	WorkflowDefinitionName    *string    `gorm:"column:workflow_definition_name"`
	WorkflowDefinitionVersion *int       `gorm:"column:workflow_definition_version"`
	WorkflowInstanceID        string     `gorm:"column:workflow_instance_id"`
	WorkflowInstanceReference *string    `gorm:"column:workflow_instance_reference"`
	ActivityInstanceID        string     `gorm:"column:activity_instance_id"`
	BookmarkID                string     `gorm:"column:bookmark_id"`
	MaterializationKey        string     `gorm:"column:materialization_key"`
	Title                     string     `gorm:"column:title"`
	Summary                   *string    `gorm:"column:summary"`
	Reference                 *string    `gorm:"column:reference"`
	TaskType                  *string    `gorm:"column:task_type"`
	Tags                      *string    `gorm:"column:tags"`
	SearchText                string     `gorm:"column:search_text"`
	RequesterProvider         *string    `gorm:"column:requester_provider"`
	RequesterType             *string    `gorm:"column:requester_type"`
	RequesterID               *string    `gorm:"column:requester_id"`
	RequesterDisplay          *string    `gorm:"column:requester_display"`
	Priority                  int        `gorm:"column:priority"`
	DueAt                     *time.Time `gorm:"column:due_at"`
	IsOverdue                 bool       `gorm:"column:is_overdue"`
	Status                    string     `gorm:"column:status"`
	CreatedAt                 time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt                 time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
	AssignedAt                *time.Time `gorm:"column:assigned_at"`
	CompletedAt               *time.Time `gorm:"column:completed_at"`
	TransitionedAt            *time.Time `gorm:"column:transitioned_at"`
	AssigneeProvider          *string    `gorm:"column:assignee_provider"`
	AssigneeType              *string    `gorm:"column:assignee_type"`
	AssigneeID                *string    `gorm:"column:assignee_id"`
	AssigneeDisplay           *string    `gorm:"column:assignee_display"`
	MembershipMode            string     `gorm:"column:membership_mode"`
	AllowExclusionOverride    bool       `gorm:"column:allow_exclusion_override"`
	CandidateUsers            int        `gorm:"column:candidate_users"`
	CandidateGroups           int        `gorm:"column:candidate_groups"`
	ActionsJSON               string     `gorm:"column:actions_json"`
	TimeoutEnabled            bool       `gorm:"column:timeout_enabled"`
	CancellationEnabled       bool       `gorm:"column:cancellation_enabled"`
	HealthSeverity            *string    `gorm:"column:health_severity"`
	HealthCode                *string    `gorm:"column:health_code"`
	HealthMessage             *string    `gorm:"column:health_message"`
	InstructionsEnc           *string    `gorm:"column:instructions_enc"`
	TaskDataEnc               *string    `gorm:"column:task_data_enc"`
	FormEnc                   *string    `gorm:"column:form_enc"`
	InvitationDefsEnc         *string    `gorm:"column:invitation_defs_enc"`
	CompletionDataEnc         *string    `gorm:"column:completion_data_enc"`
	CompletionActionKey       *string    `gorm:"column:completion_action_key"`
	CompletedByProvider       *string    `gorm:"column:completed_by_provider"`
	CompletedByType           *string    `gorm:"column:completed_by_type"`
	CompletedByID             *string    `gorm:"column:completed_by_id"`
	CompletedByDisplay        *string    `gorm:"column:completed_by_display"`
	Revision                  int        `gorm:"column:revision"`
	LastEventSeq              int        `gorm:"column:last_event_seq"`
}

func (taskRecord) TableName() string { return "user_tasks" }

type tagRecord struct {
	TaskID   string `gorm:"column:task_id;primaryKey"`
	Tag      string `gorm:"column:tag;primaryKey"`
	TenantID string `gorm:"column:tenant_id"`
}

func (tagRecord) TableName() string { return "user_task_tags" }

type candidateRecord struct {
	ID                  string    `gorm:"column:id;primaryKey"`
	TenantID            string    `gorm:"column:tenant_id"`
	TaskID              string    `gorm:"column:task_id"`
	Provider            string    `gorm:"column:provider"`
	ParticipantType     string    `gorm:"column:participant_type"`
	ParticipantID       string    `gorm:"column:participant_id"`
	DisplayName         *string   `gorm:"column:display_name"`
	Source              string    `gorm:"column:source"`
	SourceKey           string    `gorm:"column:source_key"`
	SourceGroupProvider *string   `gorm:"column:source_group_provider"`
	SourceGroupID       *string   `gorm:"column:source_group_id"`
	TaskStatus          string    `gorm:"column:task_status"`
	CreatedAt           time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt           time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (candidateRecord) TableName() string { return "user_task_candidates" }

type exclusionRecord struct {
	ID              string    `gorm:"column:id;primaryKey"`
	TenantID        string    `gorm:"column:tenant_id"`
	TaskID          string    `gorm:"column:task_id"`
	Provider        string    `gorm:"column:provider"`
	ParticipantType string    `gorm:"column:participant_type"`
	ParticipantID   string    `gorm:"column:participant_id"`
	DisplayName     *string   `gorm:"column:display_name"`
	CreatedAt       time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (exclusionRecord) TableName() string { return "user_task_exclusions" }

type eventRecord struct {
	ID            string    `gorm:"column:id;primaryKey"`
	TenantID      string    `gorm:"column:tenant_id"`
	TaskID        string    `gorm:"column:task_id"`
	Seq           int       `gorm:"column:seq"`
	Revision      int       `gorm:"column:revision"`
	EventType     string    `gorm:"column:event_type"`
	OccurredAt    time.Time `gorm:"column:occurred_at"`
	OperationID   *string   `gorm:"column:operation_id"`
	ActorProvider *string   `gorm:"column:actor_provider"`
	ActorType     *string   `gorm:"column:actor_type"`
	ActorID       *string   `gorm:"column:actor_id"`
	ActorDisplay  *string   `gorm:"column:actor_display"`
	Reason        *string   `gorm:"column:reason"`
	Metadata      *string   `gorm:"column:metadata"`
}

func (eventRecord) TableName() string { return "user_task_events" }

type operationRecord struct {
	ID               string     `gorm:"column:id;primaryKey"`
	TenantID         string     `gorm:"column:tenant_id"`
	TaskID           string     `gorm:"column:task_id"`
	OperationID      string     `gorm:"column:operation_id"`
	Kind             string     `gorm:"column:kind"`
	ExpectedRevision int        `gorm:"column:expected_revision"`
	RequestHash      string     `gorm:"column:request_hash"`
	State            string     `gorm:"column:state"`
	Attempts         int        `gorm:"column:attempts"`
	ActionKey        *string    `gorm:"column:action_key"`
	Reason           *string    `gorm:"column:reason"`
	ActorProvider    *string    `gorm:"column:actor_provider"`
	ActorType        *string    `gorm:"column:actor_type"`
	ActorID          *string    `gorm:"column:actor_id"`
	ActorDisplay     *string    `gorm:"column:actor_display"`
	ResultJSON       *string    `gorm:"column:result_json"`
	PayloadEnc       *string    `gorm:"column:payload_enc"`
	CreatedAt        time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt        time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
	CompletedAt      *time.Time `gorm:"column:completed_at"`
}

func (operationRecord) TableName() string { return "user_task_operations" }

// LeaseColumns are shared by both outbox tables, as every store keeps them.
type LeaseColumns = storekit.OutboxLease

type resumptionRecord struct {
	ID           string    `gorm:"column:id;primaryKey"`
	TenantID     string    `gorm:"column:tenant_id"`
	TaskID       string    `gorm:"column:task_id"`
	OperationID  string    `gorm:"column:operation_id"`
	Kind         string    `gorm:"column:kind"`
	State        string    `gorm:"column:state"`
	Attempts     int       `gorm:"column:attempts"`
	AvailableAt  time.Time `gorm:"column:available_at"`
	LastError    *string   `gorm:"column:last_error"`
	LeaseColumns `gorm:"embedded"`
	CreatedAt    time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt    time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
	DeliveredAt  *time.Time `gorm:"column:delivered_at"`
}

func (resumptionRecord) TableName() string { return "user_task_resumptions" }

type invitationRecord struct {
	storekit.InvitationRow `gorm:"embedded"`
}

func (invitationRecord) TableName() string { return "user_task_invitations" }

type deliveryRecord struct {
	storekit.DeliveryRow `gorm:"embedded"`
}

func (deliveryRecord) TableName() string { return "user_task_deliveries" }

type leaseRecord struct {
	storekit.LeaseRow `gorm:"embedded"`
}

func (leaseRecord) TableName() string { return "user_task_leases" }

type tenantRecord struct {
	TenantID  string    `gorm:"column:tenant_id;primaryKey"`
	UpdatedAt time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (tenantRecord) TableName() string { return "user_task_tenants" }
