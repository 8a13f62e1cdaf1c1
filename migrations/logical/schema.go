// Package logical states the logical schema of the latest migration once, in Go: the storage
// units (tables on SQL, collections on the document store), their fields, types, lengths,
// primary keys, indexes and uniqueness. Every SQL dialect's migrations must produce exactly this:
// the migrations package's parity_test.go applies sqlite, postgres and mysql live and
// introspects them, and parses the sqlserver and oracle DDL; keysize_test.go proves every index
// key fits MySQL's and SQL Server's limits. The document store (package docstore) derives its
// collections and indexes from the same description. Change a migration and this description
// together.
package logical

import "slices"

// Version is the number of the latest SQL migration, the version this description states; the
// document store records it as its own schema version. A new migration raises it (a test in
// package migrations checks it against every dialect's files).
const Version int64 = 22

// Type is a logical column type; each dialect maps it to one physical type.
type Type string

// The logical column types and their physical form per dialect
// (sqlite / postgres / mysql / sqlserver / oracle).
const (
	// Varchar is VARCHAR(n) / VARCHAR(n) / VARCHAR(n) / NVARCHAR(n) BIN2 / VARCHAR2(n CHAR).
	Varchar Type = "VARCHAR"
	// Text is TEXT / TEXT / LONGTEXT / NVARCHAR(MAX) / CLOB.
	Text Type = "TEXT"
	// Integer is INTEGER / INTEGER / INT / INT / NUMBER(10).
	Integer Type = "INTEGER"
	// BigInt is BIGINT / BIGINT / BIGINT / BIGINT / NUMBER(19).
	BigInt Type = "BIGINT"
	// Boolean is BOOLEAN / BOOLEAN / TINYINT(1) / BIT / NUMBER(1).
	Boolean Type = "BOOLEAN"
	// Timestamp (UTC, microseconds) is TIMESTAMP / TIMESTAMP(6) WITH TIME ZONE / DATETIME(6) /
	// DATETIME2(6) / TIMESTAMP(6).
	Timestamp Type = "TIMESTAMP"
	// Binary (bytes, unbounded) is BLOB / BYTEA / LONGBLOB / VARBINARY(MAX) / BLOB: sealed
	// attachment chunks.
	Binary Type = "BINARY"
)

// Nullability of a column, for readable column lists.
const (
	NotNull = false
	Null    = true
)

// Column is one column: its name, logical type, length in characters (Varchar only) and
// nullability.
type Column struct {
	Name     string
	Type     Type
	Length   int
	Nullable bool
}

// Index is a named unique or plain index over columns in order.
type Index struct {
	Name    string
	Unique  bool
	Columns []string
}

// ForeignKey references another table's columns; every foreign key of the schema cascades on
// delete.
type ForeignKey struct {
	Columns         []string
	RefTable        string
	RefColumns      []string
	OnDeleteCascade bool
}

// Table is one table with its columns in order, primary key, indexes (primary key excluded) and
// foreign keys.
type Table struct {
	Name        string
	Columns     []Column
	PrimaryKey  []string
	Indexes     []Index
	ForeignKeys []ForeignKey
}

// Column returns the named column.
func (t Table) Column(name string) (Column, bool) {
	i := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Name == name })
	if i < 0 {
		return Column{}, false
	}
	return t.Columns[i], true
}

func unique(name string, columns ...string) Index { return Index{name, true, columns} }

func index(name string, columns ...string) Index { return Index{name, false, columns} }

func cascade(column, refTable, refColumn string) ForeignKey {
	return ForeignKey{[]string{column}, refTable, []string{refColumn}, true}
}

// Schema returns the logical schema of the latest migration, tables in creation order (parents
// before children). Each call builds a fresh value.
func Schema() []Table {
	return []Table{
		{
			Name: "user_tasks",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"workflow_definition_id", Varchar, 128, NotNull},
				{"workflow_definition_name", Varchar, 256, Null},
				{"workflow_definition_version", Integer, 0, Null},
				{"workflow_instance_id", Varchar, 128, NotNull},
				{"workflow_instance_reference", Varchar, 256, Null},
				{"activity_instance_id", Varchar, 128, NotNull},
				{"bookmark_id", Varchar, 128, NotNull},
				{"materialization_key", Varchar, 330, NotNull},
				{"title", Varchar, 512, NotNull},
				{"summary", Varchar, 2000, Null},
				{"reference", Varchar, 256, Null},
				{"task_type", Varchar, 128, Null},
				{"tags", Varchar, 2200, Null},
				{"search_text", Text, 0, NotNull},
				{"requester_provider", Varchar, 64, Null},
				{"requester_type", Varchar, 8, Null},
				{"requester_id", Varchar, 255, Null},
				{"requester_display", Varchar, 256, Null},
				{"priority", Integer, 0, NotNull},
				{"due_at", Timestamp, 0, Null},
				{"is_overdue", Boolean, 0, NotNull},
				{"status", Varchar, 16, NotNull},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
				{"assigned_at", Timestamp, 0, Null},
				{"completed_at", Timestamp, 0, Null},
				{"transitioned_at", Timestamp, 0, Null},
				{"assignee_provider", Varchar, 64, Null},
				{"assignee_type", Varchar, 8, Null},
				{"assignee_id", Varchar, 255, Null},
				{"assignee_display", Varchar, 256, Null},
				{"membership_mode", Varchar, 16, NotNull},
				{"allow_exclusion_override", Boolean, 0, NotNull},
				{"candidate_users", Integer, 0, NotNull},
				{"candidate_groups", Integer, 0, NotNull},
				{"actions_json", Text, 0, NotNull},
				{"timeout_enabled", Boolean, 0, NotNull},
				{"cancellation_enabled", Boolean, 0, NotNull},
				{"health_severity", Varchar, 16, Null},
				{"health_code", Varchar, 64, Null},
				{"health_message", Varchar, 512, Null},
				{"instructions_enc", Text, 0, Null},
				{"task_data_enc", Text, 0, Null},
				{"form_enc", Text, 0, Null},
				{"invitation_defs_enc", Text, 0, Null},
				{"completion_data_enc", Text, 0, Null},
				{"completion_action_key", Varchar, 64, Null},
				{"completed_by_provider", Varchar, 64, Null},
				{"completed_by_type", Varchar, 8, Null},
				{"completed_by_id", Varchar, 255, Null},
				{"completed_by_display", Varchar, 256, Null},
				{"revision", Integer, 0, NotNull},
				{"last_event_seq", Integer, 0, NotNull},
				// 00019: who delegated the task to its assignee (SPEC 10.5).
				{"delegated_by_provider", Varchar, 64, Null},
				{"delegated_by_type", Varchar, 8, Null},
				{"delegated_by_id", Varchar, 255, Null},
				{"delegated_by_display", Varchar, 256, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_tasks_materialization", "tenant_id", "materialization_key"),
				unique("ux_tasks_bookmark", "tenant_id", "bookmark_id"),
				index("ix_tasks_status_created", "tenant_id", "status", "created_at", "id"),
				index("ix_tasks_assignee", "tenant_id", "assignee_provider", "assignee_type", "assignee_id", "status"),
				// 00021: id, so that the history scope's sub-select of the person's task ids is covering.
				index("ix_tasks_completed_by", "tenant_id", "completed_by_provider", "completed_by_type", "completed_by_id", "id"),
				index("ix_tasks_priority", "tenant_id", "priority", "id"),
				index("ix_tasks_due", "tenant_id", "due_at", "id"),
				index("ix_tasks_created", "tenant_id", "created_at", "id"),
				index("ix_tasks_updated", "tenant_id", "updated_at", "id"),
				index("ix_tasks_completed", "tenant_id", "completed_at", "id"),
				index("ix_tasks_title", "tenant_id", "title", "id"),
				index("ix_tasks_instance", "tenant_id", "workflow_instance_id"),
				index("ix_tasks_activity", "tenant_id", "activity_instance_id"),
				index("ix_tasks_health", "tenant_id", "health_severity", "health_code"),
				index("ix_tasks_overdue", "tenant_id", "is_overdue", "status"),
				index("ix_tasks_transition", "status", "transitioned_at"),
				index("ix_tasks_due_sweep", "status", "due_at", "id"),
				index("ix_tasks_revision", "tenant_id", "updated_at", "revision"),
				// 00003: the dashboard's open tasks by status and assignee.
				index("ix_tasks_workload", "tenant_id", "status", "assignee_provider", "assignee_type", "assignee_id"),
				// 00007: the due-ordered needs-attention walk, status by status.
				index("ix_tasks_status_due", "tenant_id", "status", "due_at", "id"),
				// 00010: the available list walks the Available tasks in each sort's order.
				index("ix_tasks_status_priority", "tenant_id", "status", "priority", "id"),
				index("ix_tasks_status_title", "tenant_id", "status", "title", "id"),
				index("ix_tasks_status_updated", "tenant_id", "status", "updated_at", "id"),
				index("ix_tasks_status_completed", "tenant_id", "status", "completed_at", "id"),
				// 00014: the workflow filter walks a definition's tasks status by status in each
				// sort's order (replaces ix_tasks_definition, their common prefix).
				index("ix_tasks_workflow_created", "tenant_id", "workflow_definition_id", "status", "created_at", "id"),
				index("ix_tasks_workflow_due", "tenant_id", "workflow_definition_id", "status", "due_at", "id"),
				index("ix_tasks_workflow_priority", "tenant_id", "workflow_definition_id", "status", "priority", "id"),
				index("ix_tasks_workflow_title", "tenant_id", "workflow_definition_id", "status", "title", "id"),
				index("ix_tasks_workflow_updated", "tenant_id", "workflow_definition_id", "status", "updated_at", "id"),
				index("ix_tasks_workflow_completed", "tenant_id", "workflow_definition_id", "status", "completed_at", "id"),
			},
		},
		{
			Name: "user_task_tags",
			Columns: []Column{
				{"task_id", Varchar, 36, NotNull},
				{"tag", Varchar, 64, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
			},
			PrimaryKey: []string{"task_id", "tag"},
			Indexes: []Index{
				index("ix_tags_tenant_tag", "tenant_id", "tag", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_candidates",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"provider", Varchar, 64, NotNull},
				{"participant_type", Varchar, 8, NotNull},
				{"participant_id", Varchar, 255, NotNull},
				{"display_name", Varchar, 256, Null},
				{"source", Varchar, 32, NotNull},
				{"source_key", Varchar, 64, NotNull},
				{"source_group_provider", Varchar, 64, Null},
				{"source_group_id", Varchar, 255, Null},
				{"task_status", Varchar, 16, NotNull},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_candidates_identity", "tenant_id", "task_id", "provider", "participant_type", "participant_id", "source", "source_key"),
				index("ix_candidates_lookup", "tenant_id", "provider", "participant_type", "participant_id", "task_status", "task_id", "source"),
				index("ix_candidates_task", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_exclusions",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"provider", Varchar, 64, NotNull},
				{"participant_type", Varchar, 8, NotNull},
				{"participant_id", Varchar, 255, NotNull},
				{"display_name", Varchar, 256, Null},
				{"created_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_exclusions_identity", "tenant_id", "task_id", "provider", "participant_type", "participant_id"),
				index("ix_exclusions_lookup", "tenant_id", "provider", "participant_type", "participant_id"),
				index("ix_exclusions_task_fk", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_events",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"seq", Integer, 0, NotNull},
				{"revision", Integer, 0, NotNull},
				{"event_type", Varchar, 48, NotNull},
				{"occurred_at", Timestamp, 0, NotNull},
				{"operation_id", Varchar, 128, Null},
				{"actor_provider", Varchar, 64, Null},
				{"actor_type", Varchar, 8, Null},
				{"actor_id", Varchar, 255, Null},
				{"actor_display", Varchar, 256, Null},
				{"reason", Varchar, 1000, Null},
				{"metadata", Varchar, 4000, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_events_seq", "task_id", "seq"),
				index("ix_events_actor", "tenant_id", "actor_provider", "actor_type", "actor_id", "task_id"),
				index("ix_events_occurred", "tenant_id", "occurred_at"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_operations",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"operation_id", Varchar, 128, NotNull},
				{"kind", Varchar, 32, NotNull},
				{"expected_revision", Integer, 0, NotNull},
				{"request_hash", Varchar, 64, NotNull},
				{"state", Varchar, 16, NotNull},
				{"attempts", Integer, 0, NotNull},
				{"action_key", Varchar, 64, Null},
				{"reason", Varchar, 1000, Null},
				{"actor_provider", Varchar, 64, Null},
				{"actor_type", Varchar, 8, Null},
				{"actor_id", Varchar, 255, Null},
				{"actor_display", Varchar, 256, Null},
				{"result_json", Varchar, 4000, Null},
				{"payload_enc", Text, 0, Null},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
				{"completed_at", Timestamp, 0, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_operations_key", "tenant_id", "task_id", "operation_id"),
				index("ix_operations_pending", "state", "updated_at"),
				index("ix_operations_task_fk", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_resumptions",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"operation_id", Varchar, 128, NotNull},
				{"kind", Varchar, 32, NotNull},
				{"state", Varchar, 16, NotNull},
				{"attempts", Integer, 0, NotNull},
				{"available_at", Timestamp, 0, NotNull},
				{"last_error", Varchar, 64, Null},
				{"lease_owner", Varchar, 128, Null},
				{"lease_token", Varchar, 36, Null},
				{"lease_generation", BigInt, 0, NotNull},
				{"lease_expires_at", Timestamp, 0, Null},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
				{"delivered_at", Timestamp, 0, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_resumptions_operation", "tenant_id", "task_id", "operation_id"),
				index("ix_resumptions_due", "state", "available_at", "id"),
				index("ix_resumptions_task_fk", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_invitations",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"sibling_group_id", Varchar, 36, Null},
				{"verifier_name", Varchar, 64, NotNull},
				{"allowed_actions", Varchar, 2000, NotNull},
				{"bearer_only", Boolean, 0, NotNull},
				{"recipient_enc", Text, 0, Null},
				{"token_hash", Varchar, 64, NotNull},
				{"code_hash", Varchar, 64, Null},
				{"code_attempts", Integer, 0, NotNull},
				{"status", Varchar, 16, NotNull},
				{"issued_by_provider", Varchar, 64, Null},
				{"issued_by_type", Varchar, 8, Null},
				{"issued_by_id", Varchar, 255, Null},
				{"issued_at", Timestamp, 0, NotNull},
				{"expires_at", Timestamp, 0, NotNull},
				{"dispatched_at", Timestamp, 0, Null},
				{"verified_at", Timestamp, 0, Null},
				{"consumed_at", Timestamp, 0, Null},
				{"revoked_at", Timestamp, 0, Null},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_invitations_token", "token_hash"),
				index("ix_invitations_task", "tenant_id", "task_id", "status"),
				index("ix_invitations_expiry", "status", "expires_at"),
				index("ix_invitations_task_fk", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_deliveries",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"invitation_id", Varchar, 36, NotNull},
				{"dispatcher", Varchar, 64, NotNull},
				{"payload_enc", Text, 0, NotNull},
				{"metadata", Varchar, 4000, Null},
				{"attempts", Integer, 0, NotNull},
				{"state", Varchar, 16, NotNull},
				{"available_at", Timestamp, 0, NotNull},
				{"expires_at", Timestamp, 0, NotNull},
				{"last_error", Varchar, 64, Null},
				{"idempotency_key", Varchar, 128, NotNull},
				{"lease_owner", Varchar, 128, Null},
				{"lease_token", Varchar, 36, Null},
				{"lease_generation", BigInt, 0, NotNull},
				{"lease_expires_at", Timestamp, 0, Null},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_deliveries_idempotency", "tenant_id", "idempotency_key"),
				index("ix_deliveries_due", "state", "available_at", "id"),
				index("ix_deliveries_task", "tenant_id", "task_id"),
				index("ix_deliveries_invitation_fk", "invitation_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("invitation_id", "user_task_invitations", "id"),
			},
		},
		{
			Name: "user_task_guest_sessions",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"invitation_id", Varchar, 36, NotNull},
				{"token_hash", Varchar, 64, NotNull},
				{"participant_provider", Varchar, 64, NotNull},
				{"participant_id", Varchar, 255, NotNull},
				{"capabilities", Varchar, 2000, NotNull},
				{"issued_at", Timestamp, 0, NotNull},
				{"expires_at", Timestamp, 0, NotNull},
				{"revoked_at", Timestamp, 0, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_sessions_token", "token_hash"),
				index("ix_sessions_task", "tenant_id", "task_id"),
				index("ix_sessions_expiry", "expires_at"),
				index("ix_sessions_revoked", "revoked_at"),
				index("ix_sessions_invitation_fk", "invitation_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("invitation_id", "user_task_invitations", "id"),
			},
		},
		{
			Name: "user_task_leases",
			Columns: []Column{
				{"lease_name", Varchar, 128, NotNull},
				{"lease_owner", Varchar, 128, NotNull},
				{"lease_token", Varchar, 36, NotNull},
				{"lease_generation", BigInt, 0, NotNull},
				{"lease_expires_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"lease_name"},
		},
		{
			Name: "user_task_tenants",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				// 00008: open_tasks moved to user_task_tenant_counters.
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"tenant_id"},
		},
		// 00008: the tenant's open-task counter in stripes, summed on the capacity check.
		{
			Name: "user_task_tenant_counters",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				{"stripe", Integer, 0, NotNull},
				{"open_tasks", Integer, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"tenant_id", "stripe"},
		},
		// 00002: browser sessions kept on the server.
		{
			Name: "user_task_web_sessions",
			Columns: []Column{
				{"id_hash", Varchar, 64, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"subject_provider", Varchar, 64, NotNull},
				{"subject_id", Varchar, 255, NotNull},
				{"display_name", Varchar, 256, Null},
				{"groups_json", Text, 0, NotNull},
				{"permissions_json", Text, 0, NotNull},
				{"is_manager", Boolean, 0, NotNull},
				{"via", Varchar, 8, NotNull},
				{"refresh_token_enc", Text, 0, Null},
				{"time_zone", Varchar, 64, Null},
				{"idle_timeout_seconds", Integer, 0, NotNull},
				{"created_at", Timestamp, 0, NotNull},
				{"last_seen_at", Timestamp, 0, NotNull},
				{"refreshed_at", Timestamp, 0, NotNull},
				{"expires_at", Timestamp, 0, NotNull},
				{"idle_expires_at", Timestamp, 0, NotNull},
				// 00011: the sealed OIDC ID token, the id_token_hint of the logout at the provider.
				{"id_token_enc", Text, 0, Null},
			},
			PrimaryKey: []string{"id_hash"},
			Indexes: []Index{
				index("ix_web_sessions_subject", "tenant_id", "subject_provider", "subject_id"),
				index("ix_web_sessions_expiry", "expires_at"),
				index("ix_web_sessions_idle", "idle_expires_at"),
			},
		},
		// 00003: worker runs and the dashboard's daily rollup.
		{
			Name: "user_task_worker_runs",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"worker", Varchar, 32, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"started_at", Timestamp, 0, NotNull},
				{"finished_at", Timestamp, 0, NotNull},
				{"counts_json", Varchar, 1000, NotNull},
				{"error_code", Varchar, 64, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes:    []Index{index("ix_worker_runs_latest", "tenant_id", "worker", "started_at")},
		},
		{
			Name: "user_task_daily_stats",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				{"stat_day", Varchar, 10, NotNull},
				{"workflow_definition_id", Varchar, 128, NotNull},
				{"metric", Varchar, 16, NotNull},
				{"bucket", Integer, 0, NotNull},
				{"workflow_definition_name", Varchar, 256, Null},
				{"event_count", BigInt, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
				// 00012: the counter's stripe; a counter is the sum of its stripes' rows.
				{"stripe", Integer, 0, NotNull},
			},
			PrimaryKey: []string{"tenant_id", "stat_day", "workflow_definition_id", "metric", "bucket", "stripe"},
			// 00006: the dashboard's 30-day read from the index alone.
			Indexes: []Index{index("ix_daily_stats_read", "tenant_id", "stat_day", "workflow_definition_id", "metric", "bucket",
				"event_count", "workflow_definition_name")},
		},
		// 00004: saved inbox views.
		{
			Name: "user_task_saved_views",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"owner_provider", Varchar, 64, NotNull},
				{"owner_type", Varchar, 8, NotNull},
				{"owner_id", Varchar, 255, NotNull},
				{"owner_display", Varchar, 256, Null},
				{"name", Varchar, 160, NotNull},
				{"name_key", Varchar, 160, NotNull},
				{"inbox_query", Text, 0, NotNull},
				{"is_shared", Boolean, 0, NotNull},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_saved_views_name", "tenant_id", "owner_provider", "owner_type", "owner_id", "name_key"),
				index("ix_saved_views_shared", "tenant_id", "is_shared"),
			},
		},
		// 00005: notes a page keeps for the GET after its POST (bulk results).
		{
			Name: "user_task_web_notes",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"session_hash", Varchar, 64, NotNull},
				{"body", Text, 0, NotNull},
				{"created_at", Timestamp, 0, NotNull},
				{"expires_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes:    []Index{index("ix_web_notes_expiry", "expires_at")},
		},
		// 00015: notifications (SPEC 10.3) and the people the product knows.
		{
			Name: "user_task_notifications",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"trigger_kind", Varchar, 32, NotNull},
				{"revision", BigInt, 0, NotNull},
				{"recipient_provider", Varchar, 64, NotNull},
				{"recipient_type", Varchar, 8, NotNull},
				{"recipient_id", Varchar, 255, NotNull},
				{"actor_provider", Varchar, 64, Null},
				{"actor_type", Varchar, 8, Null},
				{"actor_id", Varchar, 255, Null},
				{"actor_display", Varchar, 256, Null},
				{"title", Varchar, 512, NotNull},
				{"state", Varchar, 16, NotNull},
				{"email_state", Varchar, 16, Null},
				{"webhook_state", Varchar, 16, Null},
				{"attempts", Integer, 0, NotNull},
				{"available_at", Timestamp, 0, NotNull},
				{"last_error", Varchar, 64, Null},
				{"lease_owner", Varchar, 128, Null},
				{"lease_token", Varchar, 36, Null},
				{"lease_generation", BigInt, 0, NotNull},
				{"lease_expires_at", Timestamp, 0, Null},
				{"occurred_at", Timestamp, 0, NotNull},
				{"visible_at", Timestamp, 0, Null},
				{"read_at", Timestamp, 0, Null},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_notifications_key", "tenant_id", "task_id", "trigger_kind", "revision", "recipient_type", "recipient_provider", "recipient_id"),
				index("ix_notifications_due", "state", "available_at", "id"),
				index("ix_notifications_inbox", "tenant_id", "recipient_provider", "recipient_type", "recipient_id", "occurred_at", "id"),
				index("ix_notifications_digest", "email_state", "tenant_id", "recipient_provider", "recipient_type", "recipient_id", "occurred_at"),
				index("ix_notifications_purge", "tenant_id", "occurred_at", "id"),
				index("ix_notifications_task_fk", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_people",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				{"provider", Varchar, 64, NotNull},
				{"user_id", Varchar, 255, NotNull},
				{"display_name", Varchar, 256, Null},
				{"email", Varchar, 320, Null},
				{"language", Varchar, 8, Null},
				{"time_zone", Varchar, 64, Null},
				{"manager", Boolean, 0, NotNull},
				{"seen_at", Timestamp, 0, NotNull},
				{"email_prefs", Varchar, 1024, Null},
				{"digest", Varchar, 8, Null},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"tenant_id", "provider", "user_id"},
			Indexes: []Index{
				index("ix_people_managers", "tenant_id", "manager", "user_id"),
			},
		},
		{
			Name: "user_task_comments",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"author_provider", Varchar, 64, NotNull},
				{"author_type", Varchar, 8, NotNull},
				{"author_id", Varchar, 255, NotNull},
				{"author_display", Varchar, 256, Null},
				{"body_enc", Text, 0, Null},
				{"created_at", Timestamp, 0, NotNull},
				{"deleted_at", Timestamp, 0, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				index("ix_comments_list", "tenant_id", "task_id", "created_at", "id"),
				index("ix_comments_task_fk", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		// 00017: attachments (SPEC 10.2): an unfinished upload has no created_at; chunks
		// cascade from their attachment.
		{
			Name: "user_task_attachments",
			Columns: []Column{
				{"id", Varchar, 36, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"file_name_enc", Varchar, 1024, NotNull},
				{"content_type", Varchar, 128, Null},
				{"size_bytes", BigInt, 0, NotNull},
				{"sha256", Varchar, 64, Null},
				{"chunks", Integer, 0, NotNull},
				{"uploader_provider", Varchar, 64, NotNull},
				{"uploader_type", Varchar, 8, NotNull},
				{"uploader_id", Varchar, 255, NotNull},
				{"uploader_display", Varchar, 256, Null},
				{"started_at", Timestamp, 0, NotNull},
				{"created_at", Timestamp, 0, Null},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				index("ix_attachments_task", "tenant_id", "task_id", "created_at", "id"),
				index("ix_attachments_sweep", "created_at", "started_at"),
				index("ix_attachments_task_fk", "task_id"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		{
			Name: "user_task_attachment_chunks",
			Columns: []Column{
				{"id", Varchar, 48, NotNull},
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"attachment_id", Varchar, 36, NotNull},
				{"seq", Integer, 0, NotNull},
				{"plain_size", Integer, 0, NotNull},
				{"chunk_enc", Binary, 0, NotNull},
			},
			PrimaryKey: []string{"id"},
			Indexes: []Index{
				unique("ux_attachment_chunks_seq", "attachment_id", "seq"),
			},
			ForeignKeys: []ForeignKey{
				cascade("attachment_id", "user_task_attachments", "id"),
			},
		},
		{
			// Deadlines (SPEC 10.4, migration 00018): the due sweep walks ix_deadlines_due from
			// state pending in due order.
			Name: "user_task_deadlines",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				{"task_id", Varchar, 36, NotNull},
				{"idx", Integer, 0, NotNull},
				{"kind", Varchar, 16, NotNull},
				{"due_at", Timestamp, 0, NotNull},
				{"actions_json", Text, 0, NotNull},
				{"state", Varchar, 16, NotNull},
				{"fired_at", Timestamp, 0, Null},
				{"created_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"task_id", "idx"},
			Indexes: []Index{
				index("ix_deadlines_due", "state", "due_at", "task_id", "idx"),
			},
			ForeignKeys: []ForeignKey{
				cascade("task_id", "user_tasks", "id"),
			},
		},
		// 00019: out-of-office absences (SPEC 10.5), one per user.
		{
			Name: "user_task_absences",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				{"user_provider", Varchar, 64, NotNull},
				{"user_type", Varchar, 8, NotNull},
				{"user_id", Varchar, 255, NotNull},
				{"starts_at", Timestamp, 0, NotNull},
				{"ends_at", Timestamp, 0, NotNull},
				{"substitute_provider", Varchar, 64, NotNull},
				{"substitute_type", Varchar, 8, NotNull},
				{"substitute_id", Varchar, 255, NotNull},
				{"substitute_display", Varchar, 256, Null},
				{"created_at", Timestamp, 0, NotNull},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"tenant_id", "user_provider", "user_type", "user_id"},
			Indexes: []Index{
				// Whose substitute a user is (the substitute's scope, issue 31 item 2).
				index("ix_absences_substitute", "tenant_id", "substitute_provider", "substitute_type", "substitute_id", "ends_at"),
			},
		},
		// 00020: default deadline policies per workflow definition (issue 30 item 4); a delete
		// empties deadlines_json and keeps the row, so revisions never repeat. The audit rows
		// are never updated.
		{
			Name: "user_task_deadline_policies",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				{"workflow_definition_id", Varchar, 128, NotNull},
				{"deadlines_json", Text, 0, Null},
				{"revision", Integer, 0, NotNull},
				{"changed_by_provider", Varchar, 64, NotNull},
				{"changed_by_type", Varchar, 8, NotNull},
				{"changed_by_id", Varchar, 255, NotNull},
				{"changed_by_display", Varchar, 256, Null},
				{"updated_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"tenant_id", "workflow_definition_id"},
		},
		{
			Name: "user_task_policy_audit",
			Columns: []Column{
				{"tenant_id", Varchar, 64, NotNull},
				{"workflow_definition_id", Varchar, 128, NotNull},
				{"revision", Integer, 0, NotNull},
				{"change_type", Varchar, 8, NotNull},
				{"deadlines_json", Text, 0, Null},
				{"actor_provider", Varchar, 64, NotNull},
				{"actor_type", Varchar, 8, NotNull},
				{"actor_id", Varchar, 255, NotNull},
				{"actor_display", Varchar, 256, Null},
				{"changed_at", Timestamp, 0, NotNull},
			},
			PrimaryKey: []string{"tenant_id", "workflow_definition_id", "revision"},
		},
	}
}
