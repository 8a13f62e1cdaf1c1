package docstore

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The task aggregate as stored (docs/document-store.md, "The task aggregate"): the task's
// columns under their logical names, nullable ones as pointers (BSON null), the sealed *_enc
// fields as keyring envelopes, and the embedded rows and pending entries. No field is omitted
// when empty, so two encodings of the aggregate compare field by field (changedFields).

type taskDoc struct {
	ID                        string     `bson:"_id"`
	TenantID                  string     `bson:"tenant_id"`
	WorkflowDefinitionID      string     `bson:"workflow_definition_id"`
	WorkflowDefinitionName    *string    `bson:"workflow_definition_name"`
	WorkflowDefinitionVersion *int       `bson:"workflow_definition_version"`
	WorkflowInstanceID        string     `bson:"workflow_instance_id"`
	WorkflowInstanceReference *string    `bson:"workflow_instance_reference"`
	ActivityInstanceID        string     `bson:"activity_instance_id"`
	BookmarkID                string     `bson:"bookmark_id"`
	MaterializationKey        string     `bson:"materialization_key"`
	Title                     string     `bson:"title"`
	Summary                   *string    `bson:"summary"`
	Reference                 *string    `bson:"reference"`
	TaskType                  *string    `bson:"task_type"`
	Tags                      *string    `bson:"tags"`
	SearchText                string     `bson:"search_text"`
	RequesterProvider         *string    `bson:"requester_provider"`
	RequesterType             *string    `bson:"requester_type"`
	RequesterID               *string    `bson:"requester_id"`
	RequesterDisplay          *string    `bson:"requester_display"`
	Priority                  int        `bson:"priority"`
	DueAt                     *time.Time `bson:"due_at"`
	IsOverdue                 bool       `bson:"is_overdue"`
	Status                    string     `bson:"status"`
	CreatedAt                 time.Time  `bson:"created_at"`
	UpdatedAt                 time.Time  `bson:"updated_at"`
	AssignedAt                *time.Time `bson:"assigned_at"`
	CompletedAt               *time.Time `bson:"completed_at"`
	TransitionedAt            *time.Time `bson:"transitioned_at"`
	AssigneeProvider          *string    `bson:"assignee_provider"`
	AssigneeType              *string    `bson:"assignee_type"`
	AssigneeID                *string    `bson:"assignee_id"`
	AssigneeDisplay           *string    `bson:"assignee_display"`
	MembershipMode            string     `bson:"membership_mode"`
	AllowExclusionOverride    bool       `bson:"allow_exclusion_override"`
	CandidateUsers            int        `bson:"candidate_users"`
	CandidateGroups           int        `bson:"candidate_groups"`
	ActionsJSON               string     `bson:"actions_json"`
	TimeoutEnabled            bool       `bson:"timeout_enabled"`
	CancellationEnabled       bool       `bson:"cancellation_enabled"`
	HealthSeverity            *string    `bson:"health_severity"`
	HealthCode                *string    `bson:"health_code"`
	HealthMessage             *string    `bson:"health_message"`
	InstructionsEnc           *string    `bson:"instructions_enc"`
	TaskDataEnc               *string    `bson:"task_data_enc"`
	FormEnc                   *string    `bson:"form_enc"`
	InvitationDefsEnc         *string    `bson:"invitation_defs_enc"`
	CompletionDataEnc         *string    `bson:"completion_data_enc"`
	CompletionActionKey       *string    `bson:"completion_action_key"`
	CompletedByProvider       *string    `bson:"completed_by_provider"`
	CompletedByType           *string    `bson:"completed_by_type"`
	CompletedByID             *string    `bson:"completed_by_id"`
	CompletedByDisplay        *string    `bson:"completed_by_display"`
	Revision                  int        `bson:"revision"`
	LastEventSeq              int        `bson:"last_event_seq"`

	// Version is raised by every write of the aggregate (mutation, event append, relay pull);
	// each value is claimed in user_task_claims first.
	Version int64 `bson:"version"`
	// RelayDue is set while a pending entry, a finished operation or an effect waits for the relay.
	RelayDue bool `bson:"relay_due"`
	// Purging is set, once and for good, by a retention purge that is removing the task
	// (purge.go); from then on every read treats the task as gone.
	Purging *time.Time `bson:"purging,omitempty"`

	TagKeys            []tagDoc        `bson:"tag_keys"`
	Candidates         []candidateDoc  `bson:"candidates"`
	Exclusions         []exclusionDoc  `bson:"exclusions"`
	Operations         []operationDoc  `bson:"operations"`
	PendingEvents      []eventDoc      `bson:"pending_events"`
	PendingResumptions []resumptionDoc `bson:"pending_resumptions"`
	PendingEffects     []effectDoc     `bson:"pending_effects"`
	// PendingInvitations and PendingDeliveries are what IssueInvitation queued; the relay moves
	// the invitations before the deliveries (invitation_doc.go).
	PendingInvitations []invitationDoc `bson:"pending_invitations"`
	PendingDeliveries  []deliveryDoc   `bson:"pending_deliveries"`
}

// tagDoc is one normalized tag (a user_task_tags row).
type tagDoc struct {
	Tag string `bson:"tag"`
}

// candidateDoc is one candidate relationship (a user_task_candidates row without the task and
// tenant, which are the aggregate's, and without the status copy, which is the aggregate's
// own status).
type candidateDoc struct {
	ID                  string    `bson:"id"`
	Provider            string    `bson:"provider"`
	ParticipantType     string    `bson:"participant_type"`
	ParticipantID       string    `bson:"participant_id"`
	DisplayName         *string   `bson:"display_name"`
	Source              string    `bson:"source"`
	SourceKey           string    `bson:"source_key"`
	SourceGroupProvider *string   `bson:"source_group_provider"`
	SourceGroupID       *string   `bson:"source_group_id"`
	CreatedAt           time.Time `bson:"created_at"`
}

// exclusionDoc is one exclusion (a user_task_exclusions row).
type exclusionDoc struct {
	ID              string    `bson:"id"`
	Provider        string    `bson:"provider"`
	ParticipantType string    `bson:"participant_type"`
	ParticipantID   string    `bson:"participant_id"`
	DisplayName     *string   `bson:"display_name"`
	CreatedAt       time.Time `bson:"created_at"`
}

// eventDoc is one event: pending in the aggregate, then a document of user_task_events.
type eventDoc struct {
	ID            string    `bson:"_id"`
	TenantID      string    `bson:"tenant_id"`
	TaskID        string    `bson:"task_id"`
	Seq           int       `bson:"seq"`
	Revision      int       `bson:"revision"`
	EventType     string    `bson:"event_type"`
	OccurredAt    time.Time `bson:"occurred_at"`
	OperationID   *string   `bson:"operation_id"`
	ActorProvider *string   `bson:"actor_provider"`
	ActorType     *string   `bson:"actor_type"`
	ActorID       *string   `bson:"actor_id"`
	ActorDisplay  *string   `bson:"actor_display"`
	Reason        *string   `bson:"reason"`
	Metadata      *string   `bson:"metadata"`
}

// operationDoc is one operation: in the aggregate while accepted and until the relay moves it
// once finished, then a document of user_task_operations. The payload is sealed.
type operationDoc struct {
	ID               string     `bson:"_id"`
	TenantID         string     `bson:"tenant_id"`
	TaskID           string     `bson:"task_id"`
	OperationID      string     `bson:"operation_id"`
	Kind             string     `bson:"kind"`
	ExpectedRevision int        `bson:"expected_revision"`
	RequestHash      string     `bson:"request_hash"`
	State            string     `bson:"state"`
	Attempts         int        `bson:"attempts"`
	ActionKey        *string    `bson:"action_key"`
	Reason           *string    `bson:"reason"`
	ActorProvider    *string    `bson:"actor_provider"`
	ActorType        *string    `bson:"actor_type"`
	ActorID          *string    `bson:"actor_id"`
	ActorDisplay     *string    `bson:"actor_display"`
	ResultJSON       *string    `bson:"result_json"`
	PayloadEnc       *string    `bson:"payload_enc"`
	CreatedAt        time.Time  `bson:"created_at"`
	UpdatedAt        time.Time  `bson:"updated_at"`
	CompletedAt      *time.Time `bson:"completed_at"`
}

// resumptionDoc is one resumption outbox entry: pending in the aggregate, then a document of
// user_task_resumptions.
type resumptionDoc struct {
	ID              string     `bson:"_id"`
	TenantID        string     `bson:"tenant_id"`
	TaskID          string     `bson:"task_id"`
	OperationID     string     `bson:"operation_id"`
	Kind            string     `bson:"kind"`
	State           string     `bson:"state"`
	Attempts        int        `bson:"attempts"`
	AvailableAt     time.Time  `bson:"available_at"`
	LastError       *string    `bson:"last_error"`
	LeaseOwner      *string    `bson:"lease_owner"`
	LeaseToken      *string    `bson:"lease_token"`
	LeaseGeneration int64      `bson:"lease_generation"`
	LeaseExpiresAt  *time.Time `bson:"lease_expires_at"`
	CreatedAt       time.Time  `bson:"created_at"`
	UpdatedAt       time.Time  `bson:"updated_at"`
	DeliveredAt     *time.Time `bson:"delivered_at"`
}

// effectSettleResumptions settles the task's pending resumptions in user_task_resumptions
// (a finalization), all but the ones named in Exclude (written by the finalizing change itself).
const effectSettleResumptions = "settle-resumptions"

// effectDoc is a change to documents outside the aggregate that a write of the aggregate
// decided; the relay applies it idempotently, then removes it.
type effectDoc struct {
	ID        string    `bson:"id"`
	Kind      string    `bson:"kind"`
	Exclude   []string  `bson:"exclude"`
	CreatedAt time.Time `bson:"created_at"`
	// Count is what a count-daily effect counts (daily_stats.go).
	Count *dailyCountDoc `bson:"count,omitempty"`
	// Invitation is the invitation status change of an invitation effect (invitation_effect.go).
	Invitation *invitationEffect `bson:"invitation,omitempty"`
}

// claimDoc is a version claim (user_task_claims): the writer that inserts it alone may write
// that version of the aggregate, and Set is the write, so a reader can roll it forward when
// its writer died between the claim and the write.
type claimDoc struct {
	ID        string    `bson:"_id"`
	TenantID  string    `bson:"tenant_id"`
	TaskID    string    `bson:"task_id"`
	Version   int64     `bson:"version"`
	Set       bson.Raw  `bson:"set"`
	CreatedAt time.Time `bson:"created_at"`
}
