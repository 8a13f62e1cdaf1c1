package storekit

import "time"

// The task aggregate's rows, as every store keeps them: the logical schema's tables
// (migrations/logical) column for column and in its order, each field tagged with its SQL
// column (gorm) and its document field (bson), which share the name. Nullable columns are
// pointers, so that NULL, BSON null and Oracle's empty string read back alike; the *_enc
// columns hold keyring envelopes, never plaintext. A store embeds a row in its own type, which
// adds what only that store keeps (the SQL table name, the document's version and pending
// entries). Codec encodes the domain into these rows and back.

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
}

// SealedColumn is where r keeps the protected column col (one of ProtectedColumns).
func (r *TaskRow) SealedColumn(col string) **string {
	switch col {
	case ColInstructions:
		return &r.InstructionsEnc
	case ColTaskData:
		return &r.TaskDataEnc
	case ColForm:
		return &r.FormEnc
	case ColInvitationDefs:
		return &r.InvitationDefsEnc
	}
	return &r.CompletionDataEnc
}
