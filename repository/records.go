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
