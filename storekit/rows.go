package storekit

import "time"

// The rows of every table both stores keep alike, as every store keeps them: the logical
// schema's tables (migrations/logical) column for column, in its order, each field tagged with
// its SQL column (gorm) and its document field (bson), which share the name (a test holds them
// to the schema). Nullable columns are pointers, so that NULL, BSON null and Oracle's empty
// string read back alike; the *_enc columns hold keyring envelopes, never plaintext. A store
// embeds a row in its own type, which adds what only that store keeps (the SQL table name, the
// document's version and pending entries, the SQL candidates' task, tenant and status copy).
// Codec encodes the domain into these rows and back (the *_codec.go files).

// TaskRow is a user_tasks row: the task's own columns.
type TaskRow struct {
	ID                        string     `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID                  string     `gorm:"column:tenant_id" bson:"tenant_id"`
	WorkflowDefinitionID      string     `gorm:"column:workflow_definition_id" bson:"workflow_definition_id"`
	WorkflowDefinitionName    *string    `gorm:"column:workflow_definition_name" bson:"workflow_definition_name"`
	WorkflowDefinitionVersion *int       `gorm:"column:workflow_definition_version" bson:"workflow_definition_version"`
	WorkflowInstanceID        string     `gorm:"column:workflow_instance_id" bson:"workflow_instance_id"`
	WorkflowInstanceReference *string    `gorm:"column:workflow_instance_reference" bson:"workflow_instance_reference"`
	ActivityInstanceID        string     `gorm:"column:activity_instance_id" bson:"activity_instance_id"`
	BookmarkID                string     `gorm:"column:bookmark_id" bson:"bookmark_id"`
	MaterializationKey        string     `gorm:"column:materialization_key" bson:"materialization_key"`
	Title                     string     `gorm:"column:title" bson:"title"`
	Summary                   *string    `gorm:"column:summary" bson:"summary"`
	Reference                 *string    `gorm:"column:reference" bson:"reference"`
	TaskType                  *string    `gorm:"column:task_type" bson:"task_type"`
	Tags                      *string    `gorm:"column:tags" bson:"tags"`
	SearchText                string     `gorm:"column:search_text" bson:"search_text"`
	RequesterProvider         *string    `gorm:"column:requester_provider" bson:"requester_provider"`
	RequesterType             *string    `gorm:"column:requester_type" bson:"requester_type"`
	RequesterID               *string    `gorm:"column:requester_id" bson:"requester_id"`
	RequesterDisplay          *string    `gorm:"column:requester_display" bson:"requester_display"`
	Priority                  int        `gorm:"column:priority" bson:"priority"`
	DueAt                     *time.Time `gorm:"column:due_at" bson:"due_at"`
	IsOverdue                 bool       `gorm:"column:is_overdue" bson:"is_overdue"`
	Status                    string     `gorm:"column:status" bson:"status"`
	CreatedAt                 time.Time  `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt                 time.Time  `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
	AssignedAt                *time.Time `gorm:"column:assigned_at" bson:"assigned_at"`
	CompletedAt               *time.Time `gorm:"column:completed_at" bson:"completed_at"`
	TransitionedAt            *time.Time `gorm:"column:transitioned_at" bson:"transitioned_at"`
	AssigneeProvider          *string    `gorm:"column:assignee_provider" bson:"assignee_provider"`
	AssigneeType              *string    `gorm:"column:assignee_type" bson:"assignee_type"`
	AssigneeID                *string    `gorm:"column:assignee_id" bson:"assignee_id"`
	AssigneeDisplay           *string    `gorm:"column:assignee_display" bson:"assignee_display"`
	MembershipMode            string     `gorm:"column:membership_mode" bson:"membership_mode"`
	AllowExclusionOverride    bool       `gorm:"column:allow_exclusion_override" bson:"allow_exclusion_override"`
	CandidateUsers            int        `gorm:"column:candidate_users" bson:"candidate_users"`
	CandidateGroups           int        `gorm:"column:candidate_groups" bson:"candidate_groups"`
	ActionsJSON               string     `gorm:"column:actions_json" bson:"actions_json"`
	TimeoutEnabled            bool       `gorm:"column:timeout_enabled" bson:"timeout_enabled"`
	CancellationEnabled       bool       `gorm:"column:cancellation_enabled" bson:"cancellation_enabled"`
	HealthSeverity            *string    `gorm:"column:health_severity" bson:"health_severity"`
	HealthCode                *string    `gorm:"column:health_code" bson:"health_code"`
	HealthMessage             *string    `gorm:"column:health_message" bson:"health_message"`
	InstructionsEnc           *string    `gorm:"column:instructions_enc" bson:"instructions_enc"`
	TaskDataEnc               *string    `gorm:"column:task_data_enc" bson:"task_data_enc"`
	FormEnc                   *string    `gorm:"column:form_enc" bson:"form_enc"`
	InvitationDefsEnc         *string    `gorm:"column:invitation_defs_enc" bson:"invitation_defs_enc"`
	CompletionDataEnc         *string    `gorm:"column:completion_data_enc" bson:"completion_data_enc"`
	CompletionActionKey       *string    `gorm:"column:completion_action_key" bson:"completion_action_key"`
	CompletedByProvider       *string    `gorm:"column:completed_by_provider" bson:"completed_by_provider"`
	CompletedByType           *string    `gorm:"column:completed_by_type" bson:"completed_by_type"`
	CompletedByID             *string    `gorm:"column:completed_by_id" bson:"completed_by_id"`
	CompletedByDisplay        *string    `gorm:"column:completed_by_display" bson:"completed_by_display"`
	Revision                  int        `gorm:"column:revision" bson:"revision"`
	LastEventSeq              int        `gorm:"column:last_event_seq" bson:"last_event_seq"`
	DelegatedByProvider       *string    `gorm:"column:delegated_by_provider" bson:"delegated_by_provider"`
	DelegatedByType           *string    `gorm:"column:delegated_by_type" bson:"delegated_by_type"`
	DelegatedByID             *string    `gorm:"column:delegated_by_id" bson:"delegated_by_id"`
	DelegatedByDisplay        *string    `gorm:"column:delegated_by_display" bson:"delegated_by_display"`
}

// Candidates and exclusions share the columns of the participant and its source only: the SQL
// rows also name their task and tenant and keep timestamps and a status copy where they stand in
// the table, which the document's embedded entries have no use for.

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

// InvitationRow is an invitation as stored (user_task_invitations).
type InvitationRow struct {
	ID               string     `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID         string     `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID           string     `gorm:"column:task_id" bson:"task_id"`
	SiblingGroupID   *string    `gorm:"column:sibling_group_id" bson:"sibling_group_id"`
	VerifierName     string     `gorm:"column:verifier_name" bson:"verifier_name"`
	AllowedActions   string     `gorm:"column:allowed_actions" bson:"allowed_actions"`
	BearerOnly       bool       `gorm:"column:bearer_only" bson:"bearer_only"`
	RecipientEnc     *string    `gorm:"column:recipient_enc" bson:"recipient_enc"`
	TokenHash        string     `gorm:"column:token_hash" bson:"token_hash"`
	CodeHash         *string    `gorm:"column:code_hash" bson:"code_hash"`
	CodeAttempts     int        `gorm:"column:code_attempts" bson:"code_attempts"`
	Status           string     `gorm:"column:status" bson:"status"`
	IssuedByProvider *string    `gorm:"column:issued_by_provider" bson:"issued_by_provider"`
	IssuedByType     *string    `gorm:"column:issued_by_type" bson:"issued_by_type"`
	IssuedByID       *string    `gorm:"column:issued_by_id" bson:"issued_by_id"`
	IssuedAt         time.Time  `gorm:"column:issued_at" bson:"issued_at"`
	ExpiresAt        time.Time  `gorm:"column:expires_at" bson:"expires_at"`
	DispatchedAt     *time.Time `gorm:"column:dispatched_at" bson:"dispatched_at"`
	VerifiedAt       *time.Time `gorm:"column:verified_at" bson:"verified_at"`
	ConsumedAt       *time.Time `gorm:"column:consumed_at" bson:"consumed_at"`
	RevokedAt        *time.Time `gorm:"column:revoked_at" bson:"revoked_at"`
	UpdatedAt        time.Time  `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// DeliveryRow is a delivery of the encrypted invitation outbox as stored (user_task_deliveries):
// its payload (the raw token and code) sealed in ColPayload, as an operation's is.
type DeliveryRow struct {
	ID             string    `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID       string    `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID         string    `gorm:"column:task_id" bson:"task_id"`
	InvitationID   string    `gorm:"column:invitation_id" bson:"invitation_id"`
	Dispatcher     string    `gorm:"column:dispatcher" bson:"dispatcher"`
	PayloadEnc     string    `gorm:"column:payload_enc" bson:"payload_enc"`
	Metadata       *string   `gorm:"column:metadata" bson:"metadata"`
	Attempts       int       `gorm:"column:attempts" bson:"attempts"`
	State          string    `gorm:"column:state" bson:"state"`
	AvailableAt    time.Time `gorm:"column:available_at" bson:"available_at"`
	ExpiresAt      time.Time `gorm:"column:expires_at" bson:"expires_at"`
	LastError      *string   `gorm:"column:last_error" bson:"last_error"`
	IdempotencyKey string    `gorm:"column:idempotency_key" bson:"idempotency_key"`
	LeaseColumns   `gorm:"embedded" bson:",inline"`
	CreatedAt      time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt      time.Time `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// GuestSessionRow is a guest session as stored (user_task_guest_sessions): the credential's
// hash only.
type GuestSessionRow struct {
	ID                  string     `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID            string     `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID              string     `gorm:"column:task_id" bson:"task_id"`
	InvitationID        string     `gorm:"column:invitation_id" bson:"invitation_id"`
	TokenHash           string     `gorm:"column:token_hash" bson:"token_hash"`
	ParticipantProvider string     `gorm:"column:participant_provider" bson:"participant_provider"`
	ParticipantID       string     `gorm:"column:participant_id" bson:"participant_id"`
	Capabilities        string     `gorm:"column:capabilities" bson:"capabilities"`
	IssuedAt            time.Time  `gorm:"column:issued_at" bson:"issued_at"`
	ExpiresAt           time.Time  `gorm:"column:expires_at" bson:"expires_at"`
	RevokedAt           *time.Time `gorm:"column:revoked_at" bson:"revoked_at"`
}

// LeaseRow is a named singleton lease as stored (user_task_leases): fenced by a fresh token and
// a generation every take-over raises.
type LeaseRow struct {
	LeaseName       string    `gorm:"column:lease_name;primaryKey" bson:"_id"`
	LeaseOwner      string    `gorm:"column:lease_owner" bson:"lease_owner"`
	LeaseToken      string    `gorm:"column:lease_token" bson:"lease_token"`
	LeaseGeneration int64     `gorm:"column:lease_generation" bson:"lease_generation"`
	LeaseExpiresAt  time.Time `gorm:"column:lease_expires_at" bson:"lease_expires_at"`
	UpdatedAt       time.Time `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// WebSessionRow is a browser session as stored (user_task_web_sessions), keyed by the hash of
// its id (the raw id never reaches a store); its OIDC tokens sealed with the id hash and their
// field as associated data.
type WebSessionRow struct {
	IDHash             string    `gorm:"column:id_hash;primaryKey" bson:"_id"`
	TenantID           string    `gorm:"column:tenant_id" bson:"tenant_id"`
	SubjectProvider    string    `gorm:"column:subject_provider" bson:"subject_provider"`
	SubjectID          string    `gorm:"column:subject_id" bson:"subject_id"`
	DisplayName        *string   `gorm:"column:display_name" bson:"display_name"`
	GroupsJSON         string    `gorm:"column:groups_json" bson:"groups_json"`
	PermissionsJSON    string    `gorm:"column:permissions_json" bson:"permissions_json"`
	IsManager          bool      `gorm:"column:is_manager" bson:"is_manager"`
	Via                string    `gorm:"column:via" bson:"via"`
	RefreshTokenEnc    *string   `gorm:"column:refresh_token_enc" bson:"refresh_token_enc"`
	TimeZone           *string   `gorm:"column:time_zone" bson:"time_zone"`
	IdleTimeoutSeconds int       `gorm:"column:idle_timeout_seconds" bson:"idle_timeout_seconds"`
	CreatedAt          time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	LastSeenAt         time.Time `gorm:"column:last_seen_at" bson:"last_seen_at"`
	RefreshedAt        time.Time `gorm:"column:refreshed_at" bson:"refreshed_at"`
	ExpiresAt          time.Time `gorm:"column:expires_at" bson:"expires_at"`
	IdleExpiresAt      time.Time `gorm:"column:idle_expires_at" bson:"idle_expires_at"`
	IDTokenEnc         *string   `gorm:"column:id_token_enc" bson:"id_token_enc"`
}

// WorkerRunRow is a finished worker run as stored (user_task_worker_runs).
type WorkerRunRow struct {
	ID         string    `gorm:"column:id;primaryKey" bson:"_id"`
	Worker     string    `gorm:"column:worker" bson:"worker"`
	TenantID   string    `gorm:"column:tenant_id" bson:"tenant_id"`
	StartedAt  time.Time `gorm:"column:started_at;autoCreateTime:false" bson:"started_at"`
	FinishedAt time.Time `gorm:"column:finished_at" bson:"finished_at"`
	CountsJSON string    `gorm:"column:counts_json" bson:"counts_json"`
	ErrorCode  *string   `gorm:"column:error_code" bson:"error_code"`
}

// DailyStatRow is a count of the daily rollup (user_task_daily_stats) as both stores keep it:
// the SQL store raises one such row per counter (in stripes), the document store keeps one
// per counted change; a counter is the sum of its rows' EventCount.
type DailyStatRow struct {
	TenantID               string  `gorm:"column:tenant_id;primaryKey" bson:"tenant_id"`
	StatDay                string  `gorm:"column:stat_day;primaryKey" bson:"stat_day"`
	WorkflowDefinitionID   string  `gorm:"column:workflow_definition_id;primaryKey" bson:"workflow_definition_id"`
	Metric                 string  `gorm:"column:metric;primaryKey" bson:"metric"`
	Bucket                 int     `gorm:"column:bucket;primaryKey;autoIncrement:false" bson:"bucket"`
	WorkflowDefinitionName *string `gorm:"column:workflow_definition_name" bson:"workflow_definition_name"`
	EventCount             int64   `gorm:"column:event_count" bson:"event_count"`
}

// SavedViewRow is a saved inbox view as stored (user_task_saved_views): name_key is the name
// lower-cased, unique per owner.
type SavedViewRow struct {
	ID            string    `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID      string    `gorm:"column:tenant_id" bson:"tenant_id"`
	OwnerProvider string    `gorm:"column:owner_provider" bson:"owner_provider"`
	OwnerType     string    `gorm:"column:owner_type" bson:"owner_type"`
	OwnerID       string    `gorm:"column:owner_id" bson:"owner_id"`
	OwnerDisplay  *string   `gorm:"column:owner_display" bson:"owner_display"`
	Name          string    `gorm:"column:name" bson:"name"`
	NameKey       string    `gorm:"column:name_key" bson:"name_key"`
	InboxQuery    string    `gorm:"column:inbox_query" bson:"inbox_query"`
	IsShared      bool      `gorm:"column:is_shared" bson:"is_shared"`
	CreatedAt     time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt     time.Time `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// WebNoteRow is a web note as stored (user_task_web_notes): written once, never updated.
type WebNoteRow struct {
	ID          string    `gorm:"column:id;primaryKey" bson:"_id"`
	SessionHash string    `gorm:"column:session_hash" bson:"session_hash"`
	Body        string    `gorm:"column:body" bson:"body"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	ExpiresAt   time.Time `gorm:"column:expires_at" bson:"expires_at"`
}
