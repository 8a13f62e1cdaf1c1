package repository

import (
	"time"

	"usertasks/storekit"
)

// Records mirror the v1 tables column for column. Nullable columns are pointers so that
// Oracle's empty-string-is-NULL rule and real NULLs read back the same way everywhere.
// Protected columns (suffix _enc) hold keyring envelopes, never plaintext.

// The task aggregate's tables hold the rows every store keeps (storekit), the candidates and
// exclusions with the task, tenant and timestamps only SQL keeps (and the candidates' status
// copy, which lets the available list's lookup index narrow to Available rows).

type taskRecord struct {
	storekit.TaskRow `gorm:"embedded"`
}

func (taskRecord) TableName() string { return "user_tasks" }

type tagRecord struct {
	TaskID   string `gorm:"column:task_id;primaryKey"`
	Tag      string `gorm:"column:tag;primaryKey"`
	TenantID string `gorm:"column:tenant_id"`
}

func (tagRecord) TableName() string { return "user_task_tags" }

type candidateRecord struct {
	ID                    string `gorm:"column:id;primaryKey"`
	TenantID              string `gorm:"column:tenant_id"`
	TaskID                string `gorm:"column:task_id"`
	storekit.CandidateRow `gorm:"embedded"`
	TaskStatus            string    `gorm:"column:task_status"`
	CreatedAt             time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt             time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (candidateRecord) TableName() string { return "user_task_candidates" }

type exclusionRecord struct {
	ID                      string `gorm:"column:id;primaryKey"`
	TenantID                string `gorm:"column:tenant_id"`
	TaskID                  string `gorm:"column:task_id"`
	storekit.ParticipantRow `gorm:"embedded"`
	CreatedAt               time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (exclusionRecord) TableName() string { return "user_task_exclusions" }

type eventRecord struct {
	storekit.EventRow `gorm:"embedded"`
}

func (eventRecord) TableName() string { return "user_task_events" }

type operationRecord struct {
	storekit.OperationRow `gorm:"embedded"`
}

func (operationRecord) TableName() string { return "user_task_operations" }

// LeaseColumns are shared by both outbox tables.
type LeaseColumns = storekit.LeaseColumns

type resumptionRecord struct {
	storekit.ResumptionRow `gorm:"embedded"`
}

func (resumptionRecord) TableName() string { return "user_task_resumptions" }

type invitationRecord struct {
	ID               string     `gorm:"column:id;primaryKey"`
	TenantID         string     `gorm:"column:tenant_id"`
	TaskID           string     `gorm:"column:task_id"`
	SiblingGroupID   *string    `gorm:"column:sibling_group_id"`
	VerifierName     string     `gorm:"column:verifier_name"`
	AllowedActions   string     `gorm:"column:allowed_actions"`
	BearerOnly       bool       `gorm:"column:bearer_only"`
	RecipientEnc     *string    `gorm:"column:recipient_enc"`
	TokenHash        string     `gorm:"column:token_hash"`
	CodeHash         *string    `gorm:"column:code_hash"`
	CodeAttempts     int        `gorm:"column:code_attempts"`
	Status           string     `gorm:"column:status"`
	IssuedByProvider *string    `gorm:"column:issued_by_provider"`
	IssuedByType     *string    `gorm:"column:issued_by_type"`
	IssuedByID       *string    `gorm:"column:issued_by_id"`
	IssuedAt         time.Time  `gorm:"column:issued_at"`
	ExpiresAt        time.Time  `gorm:"column:expires_at"`
	DispatchedAt     *time.Time `gorm:"column:dispatched_at"`
	VerifiedAt       *time.Time `gorm:"column:verified_at"`
	ConsumedAt       *time.Time `gorm:"column:consumed_at"`
	RevokedAt        *time.Time `gorm:"column:revoked_at"`
	UpdatedAt        time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (invitationRecord) TableName() string { return "user_task_invitations" }

type deliveryRecord struct {
	ID             string    `gorm:"column:id;primaryKey"`
	TenantID       string    `gorm:"column:tenant_id"`
	TaskID         string    `gorm:"column:task_id"`
	InvitationID   string    `gorm:"column:invitation_id"`
	Dispatcher     string    `gorm:"column:dispatcher"`
	PayloadEnc     string    `gorm:"column:payload_enc"`
	Metadata       *string   `gorm:"column:metadata"`
	Attempts       int       `gorm:"column:attempts"`
	State          string    `gorm:"column:state"`
	AvailableAt    time.Time `gorm:"column:available_at"`
	ExpiresAt      time.Time `gorm:"column:expires_at"`
	LastError      *string   `gorm:"column:last_error"`
	IdempotencyKey string    `gorm:"column:idempotency_key"`
	LeaseColumns   `gorm:"embedded"`
	CreatedAt      time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt      time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (deliveryRecord) TableName() string { return "user_task_deliveries" }

type leaseRecord struct {
	LeaseName       string    `gorm:"column:lease_name;primaryKey"`
	LeaseOwner      string    `gorm:"column:lease_owner"`
	LeaseToken      string    `gorm:"column:lease_token"`
	LeaseGeneration int64     `gorm:"column:lease_generation"`
	LeaseExpiresAt  time.Time `gorm:"column:lease_expires_at"`
	UpdatedAt       time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (leaseRecord) TableName() string { return "user_task_leases" }

type tenantRecord struct {
	TenantID  string    `gorm:"column:tenant_id;primaryKey"`
	UpdatedAt time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (tenantRecord) TableName() string { return "user_task_tenants" }
