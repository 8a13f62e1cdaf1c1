-- v1 schema of User Tasks for PostgreSQL: the logical schema of sqlite/00001_user_tasks.sql
-- (stated in schema.go, checked by parity_test.go). Timestamps are TIMESTAMP(6) WITH TIME ZONE
-- written in UTC; text compares case-sensitively (PostgreSQL's default).
-- Every foreign key has an index led by its column (the *_fk indexes; see the sqlite file).

-- +goose Up
CREATE TABLE user_tasks (
    id                          VARCHAR(36)                 NOT NULL,
    tenant_id                   VARCHAR(64)                 NOT NULL,
    workflow_definition_id      VARCHAR(128)                NOT NULL,
    workflow_definition_name    VARCHAR(256),
    workflow_definition_version INTEGER,
    workflow_instance_id        VARCHAR(128)                NOT NULL,
    workflow_instance_reference VARCHAR(256),
    activity_instance_id        VARCHAR(128)                NOT NULL,
    bookmark_id                 VARCHAR(128)                NOT NULL,
    materialization_key         VARCHAR(330)                NOT NULL,
    title                       VARCHAR(512)                NOT NULL,
    summary                     VARCHAR(2000),
    reference                   VARCHAR(256),
    task_type                   VARCHAR(128),
    tags                        VARCHAR(2200),
    search_text                 TEXT                        NOT NULL,
    requester_provider          VARCHAR(64),
    requester_type              VARCHAR(8),
    requester_id                VARCHAR(255),
    requester_display           VARCHAR(256),
    priority                    INTEGER                     NOT NULL,
    due_at                      TIMESTAMP(6) WITH TIME ZONE,
    is_overdue                  BOOLEAN                     NOT NULL,
    status                      VARCHAR(16)                 NOT NULL,
    created_at                  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at                  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    assigned_at                 TIMESTAMP(6) WITH TIME ZONE,
    completed_at                TIMESTAMP(6) WITH TIME ZONE,
    transitioned_at             TIMESTAMP(6) WITH TIME ZONE,
    assignee_provider           VARCHAR(64),
    assignee_type               VARCHAR(8),
    assignee_id                 VARCHAR(255),
    assignee_display            VARCHAR(256),
    membership_mode             VARCHAR(16)                 NOT NULL,
    allow_exclusion_override    BOOLEAN                     NOT NULL,
    candidate_users             INTEGER                     NOT NULL,
    candidate_groups            INTEGER                     NOT NULL,
    actions_json                TEXT                        NOT NULL,
    timeout_enabled             BOOLEAN                     NOT NULL,
    cancellation_enabled        BOOLEAN                     NOT NULL,
    health_severity             VARCHAR(16),
    health_code                 VARCHAR(64),
    health_message              VARCHAR(512),
    instructions_enc            TEXT,
    task_data_enc               TEXT,
    form_enc                    TEXT,
    invitation_defs_enc         TEXT,
    completion_data_enc         TEXT,
    completion_action_key       VARCHAR(64),
    completed_by_provider       VARCHAR(64),
    completed_by_type           VARCHAR(8),
    completed_by_id             VARCHAR(255),
    completed_by_display        VARCHAR(256),
    revision                    INTEGER                     NOT NULL,
    last_event_seq              INTEGER                     NOT NULL,
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
    task_id   VARCHAR(36) NOT NULL,
    tag       VARCHAR(64) NOT NULL,
    tenant_id VARCHAR(64) NOT NULL,
    CONSTRAINT pk_user_task_tags PRIMARY KEY (task_id, tag),
    CONSTRAINT fk_tags_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE INDEX ix_tags_tenant_tag ON user_task_tags (tenant_id, tag, task_id);

CREATE TABLE user_task_candidates (
    id                    VARCHAR(36)                 NOT NULL,
    tenant_id             VARCHAR(64)                 NOT NULL,
    task_id               VARCHAR(36)                 NOT NULL,
    provider              VARCHAR(64)                 NOT NULL,
    participant_type      VARCHAR(8)                  NOT NULL,
    participant_id        VARCHAR(255)                NOT NULL,
    display_name          VARCHAR(256),
    source                VARCHAR(32)                 NOT NULL,
    source_key            VARCHAR(64)                 NOT NULL,
    source_group_provider VARCHAR(64),
    source_group_id       VARCHAR(255),
    task_status           VARCHAR(16)                 NOT NULL,
    created_at            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_candidates PRIMARY KEY (id),
    CONSTRAINT fk_candidates_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_candidates_identity ON user_task_candidates (tenant_id, task_id, provider, participant_type, participant_id, source, source_key);
CREATE INDEX ix_candidates_lookup ON user_task_candidates (tenant_id, provider, participant_type, participant_id, task_status, task_id);
CREATE INDEX ix_candidates_task ON user_task_candidates (task_id);

CREATE TABLE user_task_exclusions (
    id               VARCHAR(36)                 NOT NULL,
    tenant_id        VARCHAR(64)                 NOT NULL,
    task_id          VARCHAR(36)                 NOT NULL,
    provider         VARCHAR(64)                 NOT NULL,
    participant_type VARCHAR(8)                  NOT NULL,
    participant_id   VARCHAR(255)                NOT NULL,
    display_name     VARCHAR(256),
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_exclusions PRIMARY KEY (id),
    CONSTRAINT fk_exclusions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_exclusions_identity ON user_task_exclusions (tenant_id, task_id, provider, participant_type, participant_id);
CREATE INDEX ix_exclusions_lookup ON user_task_exclusions (tenant_id, provider, participant_type, participant_id);
CREATE INDEX ix_exclusions_task_fk ON user_task_exclusions (task_id);

CREATE TABLE user_task_events (
    id             VARCHAR(36)                 NOT NULL,
    tenant_id      VARCHAR(64)                 NOT NULL,
    task_id        VARCHAR(36)                 NOT NULL,
    seq            INTEGER                     NOT NULL,
    revision       INTEGER                     NOT NULL,
    event_type     VARCHAR(48)                 NOT NULL,
    occurred_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    operation_id   VARCHAR(128),
    actor_provider VARCHAR(64),
    actor_type     VARCHAR(8),
    actor_id       VARCHAR(255),
    actor_display  VARCHAR(256),
    reason         VARCHAR(1000),
    metadata       VARCHAR(4000),
    CONSTRAINT pk_user_task_events PRIMARY KEY (id),
    CONSTRAINT fk_events_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_events_seq ON user_task_events (task_id, seq);
CREATE INDEX ix_events_actor ON user_task_events (tenant_id, actor_provider, actor_type, actor_id, task_id);
CREATE INDEX ix_events_occurred ON user_task_events (tenant_id, occurred_at);

CREATE TABLE user_task_operations (
    id                VARCHAR(36)                 NOT NULL,
    tenant_id         VARCHAR(64)                 NOT NULL,
    task_id           VARCHAR(36)                 NOT NULL,
    operation_id      VARCHAR(128)                NOT NULL,
    kind              VARCHAR(32)                 NOT NULL,
    expected_revision INTEGER                     NOT NULL,
    request_hash      VARCHAR(64)                 NOT NULL,
    state             VARCHAR(16)                 NOT NULL,
    attempts          INTEGER                     NOT NULL,
    action_key        VARCHAR(64),
    reason            VARCHAR(1000),
    actor_provider    VARCHAR(64),
    actor_type        VARCHAR(8),
    actor_id          VARCHAR(255),
    actor_display     VARCHAR(256),
    result_json       VARCHAR(4000),
    payload_enc       TEXT,
    created_at        TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at        TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    completed_at      TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT pk_user_task_operations PRIMARY KEY (id),
    CONSTRAINT fk_operations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_operations_key ON user_task_operations (tenant_id, task_id, operation_id);
CREATE INDEX ix_operations_pending ON user_task_operations (state, updated_at);
CREATE INDEX ix_operations_task_fk ON user_task_operations (task_id);

CREATE TABLE user_task_resumptions (
    id               VARCHAR(36)                 NOT NULL,
    tenant_id        VARCHAR(64)                 NOT NULL,
    task_id          VARCHAR(36)                 NOT NULL,
    operation_id     VARCHAR(128)                NOT NULL,
    kind             VARCHAR(32)                 NOT NULL,
    state            VARCHAR(16)                 NOT NULL,
    attempts         INTEGER                     NOT NULL,
    available_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    last_error       VARCHAR(64),
    lease_owner      VARCHAR(128),
    lease_token      VARCHAR(36),
    lease_generation BIGINT                      NOT NULL,
    lease_expires_at TIMESTAMP(6) WITH TIME ZONE,
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    delivered_at     TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT pk_user_task_resumptions PRIMARY KEY (id),
    CONSTRAINT fk_resumptions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_resumptions_operation ON user_task_resumptions (tenant_id, task_id, operation_id);
CREATE INDEX ix_resumptions_due ON user_task_resumptions (state, available_at, id);
CREATE INDEX ix_resumptions_task_fk ON user_task_resumptions (task_id);

CREATE TABLE user_task_invitations (
    id                 VARCHAR(36)                 NOT NULL,
    tenant_id          VARCHAR(64)                 NOT NULL,
    task_id            VARCHAR(36)                 NOT NULL,
    sibling_group_id   VARCHAR(36),
    verifier_name      VARCHAR(64)                 NOT NULL,
    allowed_actions    VARCHAR(2000)               NOT NULL,
    bearer_only        BOOLEAN                     NOT NULL,
    recipient_enc      TEXT,
    token_hash         VARCHAR(64)                 NOT NULL,
    code_hash          VARCHAR(64),
    code_attempts      INTEGER                     NOT NULL,
    status             VARCHAR(16)                 NOT NULL,
    issued_by_provider VARCHAR(64),
    issued_by_type     VARCHAR(8),
    issued_by_id       VARCHAR(255),
    issued_at          TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    dispatched_at      TIMESTAMP(6) WITH TIME ZONE,
    verified_at        TIMESTAMP(6) WITH TIME ZONE,
    consumed_at        TIMESTAMP(6) WITH TIME ZONE,
    revoked_at         TIMESTAMP(6) WITH TIME ZONE,
    updated_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_invitations PRIMARY KEY (id),
    CONSTRAINT fk_invitations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_invitations_token ON user_task_invitations (token_hash);
CREATE INDEX ix_invitations_task ON user_task_invitations (tenant_id, task_id, status);
CREATE INDEX ix_invitations_expiry ON user_task_invitations (status, expires_at);
CREATE INDEX ix_invitations_task_fk ON user_task_invitations (task_id);

CREATE TABLE user_task_deliveries (
    id               VARCHAR(36)                 NOT NULL,
    tenant_id        VARCHAR(64)                 NOT NULL,
    task_id          VARCHAR(36)                 NOT NULL,
    invitation_id    VARCHAR(36)                 NOT NULL,
    dispatcher       VARCHAR(64)                 NOT NULL,
    payload_enc      TEXT                        NOT NULL,
    metadata         VARCHAR(4000),
    attempts         INTEGER                     NOT NULL,
    state            VARCHAR(16)                 NOT NULL,
    available_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    last_error       VARCHAR(64),
    idempotency_key  VARCHAR(128)                NOT NULL,
    lease_owner      VARCHAR(128),
    lease_token      VARCHAR(36),
    lease_generation BIGINT                      NOT NULL,
    lease_expires_at TIMESTAMP(6) WITH TIME ZONE,
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_deliveries PRIMARY KEY (id),
    CONSTRAINT fk_deliveries_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_deliveries_idempotency ON user_task_deliveries (tenant_id, idempotency_key);
CREATE INDEX ix_deliveries_due ON user_task_deliveries (state, available_at, id);
CREATE INDEX ix_deliveries_task ON user_task_deliveries (tenant_id, task_id);
CREATE INDEX ix_deliveries_invitation_fk ON user_task_deliveries (invitation_id);

CREATE TABLE user_task_guest_sessions (
    id                   VARCHAR(36)                 NOT NULL,
    tenant_id            VARCHAR(64)                 NOT NULL,
    task_id              VARCHAR(36)                 NOT NULL,
    invitation_id        VARCHAR(36)                 NOT NULL,
    token_hash           VARCHAR(64)                 NOT NULL,
    participant_provider VARCHAR(64)                 NOT NULL,
    participant_id       VARCHAR(255)                NOT NULL,
    capabilities         VARCHAR(2000)               NOT NULL,
    issued_at            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at           TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    revoked_at           TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT pk_user_task_guest_sessions PRIMARY KEY (id),
    CONSTRAINT fk_sessions_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_sessions_token ON user_task_guest_sessions (token_hash);
CREATE INDEX ix_sessions_task ON user_task_guest_sessions (tenant_id, task_id);
CREATE INDEX ix_sessions_expiry ON user_task_guest_sessions (expires_at);
CREATE INDEX ix_sessions_revoked ON user_task_guest_sessions (revoked_at);
CREATE INDEX ix_sessions_invitation_fk ON user_task_guest_sessions (invitation_id);

CREATE TABLE user_task_leases (
    lease_name       VARCHAR(128)                NOT NULL,
    lease_owner      VARCHAR(128)                NOT NULL,
    lease_token      VARCHAR(36)                 NOT NULL,
    lease_generation BIGINT                      NOT NULL,
    lease_expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_leases PRIMARY KEY (lease_name)
);

CREATE TABLE user_task_tenants (
    tenant_id  VARCHAR(64)                 NOT NULL,
    open_tasks INTEGER                     NOT NULL,
    updated_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
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
