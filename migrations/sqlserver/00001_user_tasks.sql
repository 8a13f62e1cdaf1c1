-- v1 schema of User Tasks for SQL Server: the logical schema of sqlite/00001_user_tasks.sql
-- (stated in schema.go, checked by parity_test.go against this text). Character columns are
-- NVARCHAR with the binary collation Latin1_General_100_BIN2, so equality is case-sensitive;
-- timestamps are DATETIME2(6) holding UTC; booleans BIT. Deliveries and guest sessions cascade
-- from invitations only (no second cascade path from user_tasks, which SQL Server refuses).
-- Every index key fits 1,700 bytes (primary keys 900, clustered) at 2 bytes per character.
-- Every foreign key has an index led by its column (the *_fk indexes; see the sqlite file).

-- +goose Up
CREATE TABLE user_tasks (
    id                          NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    tenant_id                   NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    workflow_definition_id      NVARCHAR(128) COLLATE Latin1_General_100_BIN2  NOT NULL,
    workflow_definition_name    NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    workflow_definition_version INT,
    workflow_instance_id        NVARCHAR(128) COLLATE Latin1_General_100_BIN2  NOT NULL,
    workflow_instance_reference NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    activity_instance_id        NVARCHAR(128) COLLATE Latin1_General_100_BIN2  NOT NULL,
    bookmark_id                 NVARCHAR(128) COLLATE Latin1_General_100_BIN2  NOT NULL,
    materialization_key         NVARCHAR(330) COLLATE Latin1_General_100_BIN2  NOT NULL,
    title                       NVARCHAR(512) COLLATE Latin1_General_100_BIN2  NOT NULL,
    summary                     NVARCHAR(2000) COLLATE Latin1_General_100_BIN2,
    reference                   NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    task_type                   NVARCHAR(128) COLLATE Latin1_General_100_BIN2,
    tags                        NVARCHAR(2200) COLLATE Latin1_General_100_BIN2,
    search_text                 NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2  NOT NULL,
    requester_provider          NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    requester_type              NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    requester_id                NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    requester_display           NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    priority                    INT                                            NOT NULL,
    due_at                      DATETIME2(6),
    is_overdue                  BIT                                            NOT NULL,
    status                      NVARCHAR(16) COLLATE Latin1_General_100_BIN2   NOT NULL,
    created_at                  DATETIME2(6)                                   NOT NULL,
    updated_at                  DATETIME2(6)                                   NOT NULL,
    assigned_at                 DATETIME2(6),
    completed_at                DATETIME2(6),
    transitioned_at             DATETIME2(6),
    assignee_provider           NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    assignee_type               NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    assignee_id                 NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    assignee_display            NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    membership_mode             NVARCHAR(16) COLLATE Latin1_General_100_BIN2   NOT NULL,
    allow_exclusion_override    BIT                                            NOT NULL,
    candidate_users             INT                                            NOT NULL,
    candidate_groups            INT                                            NOT NULL,
    actions_json                NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2  NOT NULL,
    timeout_enabled             BIT                                            NOT NULL,
    cancellation_enabled        BIT                                            NOT NULL,
    health_severity             NVARCHAR(16) COLLATE Latin1_General_100_BIN2,
    health_code                 NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    health_message              NVARCHAR(512) COLLATE Latin1_General_100_BIN2,
    instructions_enc            NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    task_data_enc               NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    form_enc                    NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    invitation_defs_enc         NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    completion_data_enc         NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    completion_action_key       NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    completed_by_provider       NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    completed_by_type           NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    completed_by_id             NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    completed_by_display        NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    revision                    INT                                            NOT NULL,
    last_event_seq              INT                                            NOT NULL,
    CONSTRAINT pk_user_tasks PRIMARY KEY (id)
);
CREATE UNIQUE INDEX ux_tasks_materialization ON user_tasks (tenant_id, materialization_key);
CREATE UNIQUE INDEX ux_tasks_bookmark ON user_tasks (tenant_id, bookmark_id);
CREATE INDEX ix_tasks_status_created ON user_tasks (tenant_id, status, created_at, id);
CREATE INDEX ix_tasks_assignee ON user_tasks (tenant_id, assignee_provider, assignee_type, assignee_id, status);
CREATE INDEX ix_tasks_completed_by ON user_tasks (tenant_id, completed_by_provider, completed_by_type, completed_by_id);
CREATE INDEX ix_tasks_priority ON user_tasks (tenant_id, priority, id);
CREATE INDEX ix_tasks_due ON user_tasks (tenant_id, due_at, id);
CREATE INDEX ix_tasks_created ON user_tasks (tenant_id, created_at, id);
CREATE INDEX ix_tasks_updated ON user_tasks (tenant_id, updated_at, id);
CREATE INDEX ix_tasks_completed ON user_tasks (tenant_id, completed_at, id);
CREATE INDEX ix_tasks_title ON user_tasks (tenant_id, title, id);
CREATE INDEX ix_tasks_definition ON user_tasks (tenant_id, workflow_definition_id);
CREATE INDEX ix_tasks_instance ON user_tasks (tenant_id, workflow_instance_id);
CREATE INDEX ix_tasks_activity ON user_tasks (tenant_id, activity_instance_id);
CREATE INDEX ix_tasks_health ON user_tasks (tenant_id, health_severity, health_code);
CREATE INDEX ix_tasks_overdue ON user_tasks (tenant_id, is_overdue, status);
CREATE INDEX ix_tasks_transition ON user_tasks (status, transitioned_at);
CREATE INDEX ix_tasks_due_sweep ON user_tasks (status, due_at, id);
CREATE INDEX ix_tasks_revision ON user_tasks (tenant_id, updated_at, revision);

CREATE TABLE user_task_tags (
    task_id   NVARCHAR(36) COLLATE Latin1_General_100_BIN2 NOT NULL,
    tag       NVARCHAR(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    tenant_id NVARCHAR(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    CONSTRAINT pk_user_task_tags PRIMARY KEY (task_id, tag),
    CONSTRAINT fk_tags_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE INDEX ix_tags_tenant_tag ON user_task_tags (tenant_id, tag, task_id);

CREATE TABLE user_task_candidates (
    id                    NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    tenant_id             NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    task_id               NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    provider              NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    participant_type      NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    participant_id        NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    display_name          NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    source                NVARCHAR(32) COLLATE Latin1_General_100_BIN2  NOT NULL,
    source_key            NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    source_group_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    source_group_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    task_status           NVARCHAR(16) COLLATE Latin1_General_100_BIN2  NOT NULL,
    created_at            DATETIME2(6)                                  NOT NULL,
    updated_at            DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_candidates PRIMARY KEY (id),
    CONSTRAINT fk_candidates_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_candidates_identity ON user_task_candidates (tenant_id, task_id, provider, participant_type, participant_id, source, source_key);
CREATE INDEX ix_candidates_lookup ON user_task_candidates (tenant_id, provider, participant_type, participant_id, task_status, task_id);
CREATE INDEX ix_candidates_task ON user_task_candidates (task_id);

CREATE TABLE user_task_exclusions (
    id               NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    tenant_id        NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    task_id          NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    provider         NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    participant_type NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    participant_id   NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    display_name     NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    created_at       DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_exclusions PRIMARY KEY (id),
    CONSTRAINT fk_exclusions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_exclusions_identity ON user_task_exclusions (tenant_id, task_id, provider, participant_type, participant_id);
CREATE INDEX ix_exclusions_lookup ON user_task_exclusions (tenant_id, provider, participant_type, participant_id);
CREATE INDEX ix_exclusions_task_fk ON user_task_exclusions (task_id);

CREATE TABLE user_task_events (
    id             NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    tenant_id      NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    task_id        NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    seq            INT                                            NOT NULL,
    revision       INT                                            NOT NULL,
    event_type     NVARCHAR(48) COLLATE Latin1_General_100_BIN2   NOT NULL,
    occurred_at    DATETIME2(6)                                   NOT NULL,
    operation_id   NVARCHAR(128) COLLATE Latin1_General_100_BIN2,
    actor_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    actor_type     NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    actor_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    actor_display  NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    reason         NVARCHAR(1000) COLLATE Latin1_General_100_BIN2,
    metadata       NVARCHAR(4000) COLLATE Latin1_General_100_BIN2,
    CONSTRAINT pk_user_task_events PRIMARY KEY (id),
    CONSTRAINT fk_events_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_events_seq ON user_task_events (task_id, seq);
CREATE INDEX ix_events_actor ON user_task_events (tenant_id, actor_provider, actor_type, actor_id, task_id);
CREATE INDEX ix_events_occurred ON user_task_events (tenant_id, occurred_at);

CREATE TABLE user_task_operations (
    id                NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    tenant_id         NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    task_id           NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    operation_id      NVARCHAR(128) COLLATE Latin1_General_100_BIN2  NOT NULL,
    kind              NVARCHAR(32) COLLATE Latin1_General_100_BIN2   NOT NULL,
    expected_revision INT                                            NOT NULL,
    request_hash      NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    state             NVARCHAR(16) COLLATE Latin1_General_100_BIN2   NOT NULL,
    attempts          INT                                            NOT NULL,
    action_key        NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    reason            NVARCHAR(1000) COLLATE Latin1_General_100_BIN2,
    actor_provider    NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    actor_type        NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    actor_id          NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    actor_display     NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    result_json       NVARCHAR(4000) COLLATE Latin1_General_100_BIN2,
    payload_enc       NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    created_at        DATETIME2(6)                                   NOT NULL,
    updated_at        DATETIME2(6)                                   NOT NULL,
    completed_at      DATETIME2(6),
    CONSTRAINT pk_user_task_operations PRIMARY KEY (id),
    CONSTRAINT fk_operations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_operations_key ON user_task_operations (tenant_id, task_id, operation_id);
CREATE INDEX ix_operations_pending ON user_task_operations (state, updated_at);
CREATE INDEX ix_operations_task_fk ON user_task_operations (task_id);

CREATE TABLE user_task_resumptions (
    id               NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    tenant_id        NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    task_id          NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    operation_id     NVARCHAR(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    kind             NVARCHAR(32) COLLATE Latin1_General_100_BIN2  NOT NULL,
    state            NVARCHAR(16) COLLATE Latin1_General_100_BIN2  NOT NULL,
    attempts         INT                                           NOT NULL,
    available_at     DATETIME2(6)                                  NOT NULL,
    last_error       NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    lease_owner      NVARCHAR(128) COLLATE Latin1_General_100_BIN2,
    lease_token      NVARCHAR(36) COLLATE Latin1_General_100_BIN2,
    lease_generation BIGINT                                        NOT NULL,
    lease_expires_at DATETIME2(6),
    created_at       DATETIME2(6)                                  NOT NULL,
    updated_at       DATETIME2(6)                                  NOT NULL,
    delivered_at     DATETIME2(6),
    CONSTRAINT pk_user_task_resumptions PRIMARY KEY (id),
    CONSTRAINT fk_resumptions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_resumptions_operation ON user_task_resumptions (tenant_id, task_id, operation_id);
CREATE INDEX ix_resumptions_due ON user_task_resumptions (state, available_at, id);
CREATE INDEX ix_resumptions_task_fk ON user_task_resumptions (task_id);

CREATE TABLE user_task_invitations (
    id                 NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    tenant_id          NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    task_id            NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    sibling_group_id   NVARCHAR(36) COLLATE Latin1_General_100_BIN2,
    verifier_name      NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    allowed_actions    NVARCHAR(2000) COLLATE Latin1_General_100_BIN2 NOT NULL,
    bearer_only        BIT                                            NOT NULL,
    recipient_enc      NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    token_hash         NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    code_hash          NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    code_attempts      INT                                            NOT NULL,
    status             NVARCHAR(16) COLLATE Latin1_General_100_BIN2   NOT NULL,
    issued_by_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    issued_by_type     NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    issued_by_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    issued_at          DATETIME2(6)                                   NOT NULL,
    expires_at         DATETIME2(6)                                   NOT NULL,
    dispatched_at      DATETIME2(6),
    verified_at        DATETIME2(6),
    consumed_at        DATETIME2(6),
    revoked_at         DATETIME2(6),
    updated_at         DATETIME2(6)                                   NOT NULL,
    CONSTRAINT pk_user_task_invitations PRIMARY KEY (id),
    CONSTRAINT fk_invitations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_invitations_token ON user_task_invitations (token_hash);
CREATE INDEX ix_invitations_task ON user_task_invitations (tenant_id, task_id, status);
CREATE INDEX ix_invitations_expiry ON user_task_invitations (status, expires_at);
CREATE INDEX ix_invitations_task_fk ON user_task_invitations (task_id);

CREATE TABLE user_task_deliveries (
    id               NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    tenant_id        NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    task_id          NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    invitation_id    NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    dispatcher       NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    payload_enc      NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2  NOT NULL,
    metadata         NVARCHAR(4000) COLLATE Latin1_General_100_BIN2,
    attempts         INT                                            NOT NULL,
    state            NVARCHAR(16) COLLATE Latin1_General_100_BIN2   NOT NULL,
    available_at     DATETIME2(6)                                   NOT NULL,
    expires_at       DATETIME2(6)                                   NOT NULL,
    last_error       NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    idempotency_key  NVARCHAR(128) COLLATE Latin1_General_100_BIN2  NOT NULL,
    lease_owner      NVARCHAR(128) COLLATE Latin1_General_100_BIN2,
    lease_token      NVARCHAR(36) COLLATE Latin1_General_100_BIN2,
    lease_generation BIGINT                                         NOT NULL,
    lease_expires_at DATETIME2(6),
    created_at       DATETIME2(6)                                   NOT NULL,
    updated_at       DATETIME2(6)                                   NOT NULL,
    CONSTRAINT pk_user_task_deliveries PRIMARY KEY (id),
    CONSTRAINT fk_deliveries_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_deliveries_idempotency ON user_task_deliveries (tenant_id, idempotency_key);
CREATE INDEX ix_deliveries_due ON user_task_deliveries (state, available_at, id);
CREATE INDEX ix_deliveries_task ON user_task_deliveries (tenant_id, task_id);
CREATE INDEX ix_deliveries_invitation_fk ON user_task_deliveries (invitation_id);

CREATE TABLE user_task_guest_sessions (
    id                   NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    tenant_id            NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    task_id              NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    invitation_id        NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    token_hash           NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    participant_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    participant_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2  NOT NULL,
    capabilities         NVARCHAR(2000) COLLATE Latin1_General_100_BIN2 NOT NULL,
    issued_at            DATETIME2(6)                                   NOT NULL,
    expires_at           DATETIME2(6)                                   NOT NULL,
    revoked_at           DATETIME2(6),
    CONSTRAINT pk_user_task_guest_sessions PRIMARY KEY (id),
    CONSTRAINT fk_sessions_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_sessions_token ON user_task_guest_sessions (token_hash);
CREATE INDEX ix_sessions_task ON user_task_guest_sessions (tenant_id, task_id);
CREATE INDEX ix_sessions_expiry ON user_task_guest_sessions (expires_at);
CREATE INDEX ix_sessions_revoked ON user_task_guest_sessions (revoked_at);
CREATE INDEX ix_sessions_invitation_fk ON user_task_guest_sessions (invitation_id);

CREATE TABLE user_task_leases (
    lease_name       NVARCHAR(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    lease_owner      NVARCHAR(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    lease_token      NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    lease_generation BIGINT                                        NOT NULL,
    lease_expires_at DATETIME2(6)                                  NOT NULL,
    updated_at       DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_leases PRIMARY KEY (lease_name)
);

CREATE TABLE user_task_tenants (
    tenant_id  NVARCHAR(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    open_tasks INT                                          NOT NULL,
    updated_at DATETIME2(6)                                 NOT NULL,
    CONSTRAINT pk_user_task_tenants PRIMARY KEY (tenant_id)
);

-- +goose Down
DROP TABLE user_task_tenants;
DROP TABLE user_task_leases;
DROP TABLE user_task_guest_sessions;
DROP TABLE user_task_deliveries;
DROP TABLE user_task_invitations;
DROP TABLE user_task_resumptions;
DROP TABLE user_task_operations;
DROP TABLE user_task_events;
DROP TABLE user_task_exclusions;
DROP TABLE user_task_candidates;
DROP TABLE user_task_tags;
DROP TABLE user_tasks;
