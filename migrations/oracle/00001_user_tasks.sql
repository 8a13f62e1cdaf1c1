-- v1 schema of User Tasks for Oracle 12c+: the logical schema of sqlite/00001_user_tasks.sql
-- (stated in schema.go, checked by parity_test.go against this text). Oracle DDL commits
-- implicitly, so the file runs without a transaction; each statement stands alone between
-- goose's statement markers and carries no trailing semicolon (the driver would send it).
-- Identifiers are unquoted (stored upper-case) and at most 30 characters. VARCHAR2 lengths are
-- in characters; TEXT is CLOB, INTEGER NUMBER(10), BIGINT NUMBER(19), BOOLEAN NUMBER(1) and
-- timestamps TIMESTAMP(6) holding UTC. Note: with MAX_STRING_SIZE=STANDARD a VARCHAR2 value holds
-- at most 4,000 bytes whatever its declared character length.
-- Every foreign key has an index led by its column (the *_fk indexes; see the sqlite file).

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_tasks (
    id                          VARCHAR2(36 CHAR)   NOT NULL,
    tenant_id                   VARCHAR2(64 CHAR)   NOT NULL,
    workflow_definition_id      VARCHAR2(128 CHAR)  NOT NULL,
    workflow_definition_name    VARCHAR2(256 CHAR),
    workflow_definition_version NUMBER(10),
    workflow_instance_id        VARCHAR2(128 CHAR)  NOT NULL,
    workflow_instance_reference VARCHAR2(256 CHAR),
    activity_instance_id        VARCHAR2(128 CHAR)  NOT NULL,
    bookmark_id                 VARCHAR2(128 CHAR)  NOT NULL,
    materialization_key         VARCHAR2(330 CHAR)  NOT NULL,
    title                       VARCHAR2(512 CHAR)  NOT NULL,
    summary                     VARCHAR2(2000 CHAR),
    reference                   VARCHAR2(256 CHAR),
    task_type                   VARCHAR2(128 CHAR),
    tags                        VARCHAR2(2200 CHAR),
    search_text                 CLOB                NOT NULL,
    requester_provider          VARCHAR2(64 CHAR),
    requester_type              VARCHAR2(8 CHAR),
    requester_id                VARCHAR2(255 CHAR),
    requester_display           VARCHAR2(256 CHAR),
    priority                    NUMBER(10)          NOT NULL,
    due_at                      TIMESTAMP(6),
    is_overdue                  NUMBER(1)           NOT NULL,
    status                      VARCHAR2(16 CHAR)   NOT NULL,
    created_at                  TIMESTAMP(6)        NOT NULL,
    updated_at                  TIMESTAMP(6)        NOT NULL,
    assigned_at                 TIMESTAMP(6),
    completed_at                TIMESTAMP(6),
    transitioned_at             TIMESTAMP(6),
    assignee_provider           VARCHAR2(64 CHAR),
    assignee_type               VARCHAR2(8 CHAR),
    assignee_id                 VARCHAR2(255 CHAR),
    assignee_display            VARCHAR2(256 CHAR),
    membership_mode             VARCHAR2(16 CHAR)   NOT NULL,
    allow_exclusion_override    NUMBER(1)           NOT NULL,
    candidate_users             NUMBER(10)          NOT NULL,
    candidate_groups            NUMBER(10)          NOT NULL,
    actions_json                CLOB                NOT NULL,
    timeout_enabled             NUMBER(1)           NOT NULL,
    cancellation_enabled        NUMBER(1)           NOT NULL,
    health_severity             VARCHAR2(16 CHAR),
    health_code                 VARCHAR2(64 CHAR),
    health_message              VARCHAR2(512 CHAR),
    instructions_enc            CLOB,
    task_data_enc               CLOB,
    form_enc                    CLOB,
    invitation_defs_enc         CLOB,
    completion_data_enc         CLOB,
    completion_action_key       VARCHAR2(64 CHAR),
    completed_by_provider       VARCHAR2(64 CHAR),
    completed_by_type           VARCHAR2(8 CHAR),
    completed_by_id             VARCHAR2(255 CHAR),
    completed_by_display        VARCHAR2(256 CHAR),
    revision                    NUMBER(10)          NOT NULL,
    last_event_seq              NUMBER(10)          NOT NULL,
    CONSTRAINT pk_user_tasks PRIMARY KEY (id)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_tasks_materialization ON user_tasks (tenant_id, materialization_key)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_tasks_bookmark ON user_tasks (tenant_id, bookmark_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_status_created ON user_tasks (tenant_id, status, created_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_assignee ON user_tasks (tenant_id, assignee_provider, assignee_type, assignee_id, status)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_completed_by ON user_tasks (tenant_id, completed_by_provider, completed_by_type, completed_by_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_priority ON user_tasks (tenant_id, priority, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_due ON user_tasks (tenant_id, due_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_created ON user_tasks (tenant_id, created_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_updated ON user_tasks (tenant_id, updated_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_completed ON user_tasks (tenant_id, completed_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_title ON user_tasks (tenant_id, title, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_definition ON user_tasks (tenant_id, workflow_definition_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_instance ON user_tasks (tenant_id, workflow_instance_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_activity ON user_tasks (tenant_id, activity_instance_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_health ON user_tasks (tenant_id, health_severity, health_code)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_overdue ON user_tasks (tenant_id, is_overdue, status)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_transition ON user_tasks (status, transitioned_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_due_sweep ON user_tasks (status, due_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_revision ON user_tasks (tenant_id, updated_at, revision)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_tags (
    task_id   VARCHAR2(36 CHAR) NOT NULL,
    tag       VARCHAR2(64 CHAR) NOT NULL,
    tenant_id VARCHAR2(64 CHAR) NOT NULL,
    CONSTRAINT pk_user_task_tags PRIMARY KEY (task_id, tag),
    CONSTRAINT fk_tags_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tags_tenant_tag ON user_task_tags (tenant_id, tag, task_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_candidates (
    id                    VARCHAR2(36 CHAR)  NOT NULL,
    tenant_id             VARCHAR2(64 CHAR)  NOT NULL,
    task_id               VARCHAR2(36 CHAR)  NOT NULL,
    provider              VARCHAR2(64 CHAR)  NOT NULL,
    participant_type      VARCHAR2(8 CHAR)   NOT NULL,
    participant_id        VARCHAR2(255 CHAR) NOT NULL,
    display_name          VARCHAR2(256 CHAR),
    source                VARCHAR2(32 CHAR)  NOT NULL,
    source_key            VARCHAR2(64 CHAR)  NOT NULL,
    source_group_provider VARCHAR2(64 CHAR),
    source_group_id       VARCHAR2(255 CHAR),
    task_status           VARCHAR2(16 CHAR)  NOT NULL,
    created_at            TIMESTAMP(6)       NOT NULL,
    updated_at            TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_candidates PRIMARY KEY (id),
    CONSTRAINT fk_candidates_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_candidates_identity ON user_task_candidates (tenant_id, task_id, provider, participant_type, participant_id, source, source_key)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_candidates_lookup ON user_task_candidates (tenant_id, provider, participant_type, participant_id, task_status, task_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_candidates_task ON user_task_candidates (task_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_exclusions (
    id               VARCHAR2(36 CHAR)  NOT NULL,
    tenant_id        VARCHAR2(64 CHAR)  NOT NULL,
    task_id          VARCHAR2(36 CHAR)  NOT NULL,
    provider         VARCHAR2(64 CHAR)  NOT NULL,
    participant_type VARCHAR2(8 CHAR)   NOT NULL,
    participant_id   VARCHAR2(255 CHAR) NOT NULL,
    display_name     VARCHAR2(256 CHAR),
    created_at       TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_exclusions PRIMARY KEY (id),
    CONSTRAINT fk_exclusions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_exclusions_identity ON user_task_exclusions (tenant_id, task_id, provider, participant_type, participant_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_exclusions_lookup ON user_task_exclusions (tenant_id, provider, participant_type, participant_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_exclusions_task_fk ON user_task_exclusions (task_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_events (
    id             VARCHAR2(36 CHAR)   NOT NULL,
    tenant_id      VARCHAR2(64 CHAR)   NOT NULL,
    task_id        VARCHAR2(36 CHAR)   NOT NULL,
    seq            NUMBER(10)          NOT NULL,
    revision       NUMBER(10)          NOT NULL,
    event_type     VARCHAR2(48 CHAR)   NOT NULL,
    occurred_at    TIMESTAMP(6)        NOT NULL,
    operation_id   VARCHAR2(128 CHAR),
    actor_provider VARCHAR2(64 CHAR),
    actor_type     VARCHAR2(8 CHAR),
    actor_id       VARCHAR2(255 CHAR),
    actor_display  VARCHAR2(256 CHAR),
    reason         VARCHAR2(1000 CHAR),
    metadata       VARCHAR2(4000 CHAR),
    CONSTRAINT pk_user_task_events PRIMARY KEY (id),
    CONSTRAINT fk_events_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_events_seq ON user_task_events (task_id, seq)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_events_actor ON user_task_events (tenant_id, actor_provider, actor_type, actor_id, task_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_events_occurred ON user_task_events (tenant_id, occurred_at)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_operations (
    id                VARCHAR2(36 CHAR)   NOT NULL,
    tenant_id         VARCHAR2(64 CHAR)   NOT NULL,
    task_id           VARCHAR2(36 CHAR)   NOT NULL,
    operation_id      VARCHAR2(128 CHAR)  NOT NULL,
    kind              VARCHAR2(32 CHAR)   NOT NULL,
    expected_revision NUMBER(10)          NOT NULL,
    request_hash      VARCHAR2(64 CHAR)   NOT NULL,
    state             VARCHAR2(16 CHAR)   NOT NULL,
    attempts          NUMBER(10)          NOT NULL,
    action_key        VARCHAR2(64 CHAR),
    reason            VARCHAR2(1000 CHAR),
    actor_provider    VARCHAR2(64 CHAR),
    actor_type        VARCHAR2(8 CHAR),
    actor_id          VARCHAR2(255 CHAR),
    actor_display     VARCHAR2(256 CHAR),
    result_json       VARCHAR2(4000 CHAR),
    payload_enc       CLOB,
    created_at        TIMESTAMP(6)        NOT NULL,
    updated_at        TIMESTAMP(6)        NOT NULL,
    completed_at      TIMESTAMP(6),
    CONSTRAINT pk_user_task_operations PRIMARY KEY (id),
    CONSTRAINT fk_operations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_operations_key ON user_task_operations (tenant_id, task_id, operation_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_operations_pending ON user_task_operations (state, updated_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_operations_task_fk ON user_task_operations (task_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_resumptions (
    id               VARCHAR2(36 CHAR)  NOT NULL,
    tenant_id        VARCHAR2(64 CHAR)  NOT NULL,
    task_id          VARCHAR2(36 CHAR)  NOT NULL,
    operation_id     VARCHAR2(128 CHAR) NOT NULL,
    kind             VARCHAR2(32 CHAR)  NOT NULL,
    state            VARCHAR2(16 CHAR)  NOT NULL,
    attempts         NUMBER(10)         NOT NULL,
    available_at     TIMESTAMP(6)       NOT NULL,
    last_error       VARCHAR2(64 CHAR),
    lease_owner      VARCHAR2(128 CHAR),
    lease_token      VARCHAR2(36 CHAR),
    lease_generation NUMBER(19)         NOT NULL,
    lease_expires_at TIMESTAMP(6),
    created_at       TIMESTAMP(6)       NOT NULL,
    updated_at       TIMESTAMP(6)       NOT NULL,
    delivered_at     TIMESTAMP(6),
    CONSTRAINT pk_user_task_resumptions PRIMARY KEY (id),
    CONSTRAINT fk_resumptions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_resumptions_operation ON user_task_resumptions (tenant_id, task_id, operation_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_resumptions_due ON user_task_resumptions (state, available_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_resumptions_task_fk ON user_task_resumptions (task_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_invitations (
    id                 VARCHAR2(36 CHAR)   NOT NULL,
    tenant_id          VARCHAR2(64 CHAR)   NOT NULL,
    task_id            VARCHAR2(36 CHAR)   NOT NULL,
    sibling_group_id   VARCHAR2(36 CHAR),
    verifier_name      VARCHAR2(64 CHAR)   NOT NULL,
    allowed_actions    VARCHAR2(2000 CHAR) NOT NULL,
    bearer_only        NUMBER(1)           NOT NULL,
    recipient_enc      CLOB,
    token_hash         VARCHAR2(64 CHAR)   NOT NULL,
    code_hash          VARCHAR2(64 CHAR),
    code_attempts      NUMBER(10)          NOT NULL,
    status             VARCHAR2(16 CHAR)   NOT NULL,
    issued_by_provider VARCHAR2(64 CHAR),
    issued_by_type     VARCHAR2(8 CHAR),
    issued_by_id       VARCHAR2(255 CHAR),
    issued_at          TIMESTAMP(6)        NOT NULL,
    expires_at         TIMESTAMP(6)        NOT NULL,
    dispatched_at      TIMESTAMP(6),
    verified_at        TIMESTAMP(6),
    consumed_at        TIMESTAMP(6),
    revoked_at         TIMESTAMP(6),
    updated_at         TIMESTAMP(6)        NOT NULL,
    CONSTRAINT pk_user_task_invitations PRIMARY KEY (id),
    CONSTRAINT fk_invitations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_invitations_token ON user_task_invitations (token_hash)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_invitations_task ON user_task_invitations (tenant_id, task_id, status)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_invitations_expiry ON user_task_invitations (status, expires_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_invitations_task_fk ON user_task_invitations (task_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_deliveries (
    id               VARCHAR2(36 CHAR)   NOT NULL,
    tenant_id        VARCHAR2(64 CHAR)   NOT NULL,
    task_id          VARCHAR2(36 CHAR)   NOT NULL,
    invitation_id    VARCHAR2(36 CHAR)   NOT NULL,
    dispatcher       VARCHAR2(64 CHAR)   NOT NULL,
    payload_enc      CLOB                NOT NULL,
    metadata         VARCHAR2(4000 CHAR),
    attempts         NUMBER(10)          NOT NULL,
    state            VARCHAR2(16 CHAR)   NOT NULL,
    available_at     TIMESTAMP(6)        NOT NULL,
    expires_at       TIMESTAMP(6)        NOT NULL,
    last_error       VARCHAR2(64 CHAR),
    idempotency_key  VARCHAR2(128 CHAR)  NOT NULL,
    lease_owner      VARCHAR2(128 CHAR),
    lease_token      VARCHAR2(36 CHAR),
    lease_generation NUMBER(19)          NOT NULL,
    lease_expires_at TIMESTAMP(6),
    created_at       TIMESTAMP(6)        NOT NULL,
    updated_at       TIMESTAMP(6)        NOT NULL,
    CONSTRAINT pk_user_task_deliveries PRIMARY KEY (id),
    CONSTRAINT fk_deliveries_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_deliveries_idempotency ON user_task_deliveries (tenant_id, idempotency_key)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_deliveries_due ON user_task_deliveries (state, available_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_deliveries_task ON user_task_deliveries (tenant_id, task_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_deliveries_invitation_fk ON user_task_deliveries (invitation_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_guest_sessions (
    id                   VARCHAR2(36 CHAR)   NOT NULL,
    tenant_id            VARCHAR2(64 CHAR)   NOT NULL,
    task_id              VARCHAR2(36 CHAR)   NOT NULL,
    invitation_id        VARCHAR2(36 CHAR)   NOT NULL,
    token_hash           VARCHAR2(64 CHAR)   NOT NULL,
    participant_provider VARCHAR2(64 CHAR)   NOT NULL,
    participant_id       VARCHAR2(255 CHAR)  NOT NULL,
    capabilities         VARCHAR2(2000 CHAR) NOT NULL,
    issued_at            TIMESTAMP(6)        NOT NULL,
    expires_at           TIMESTAMP(6)        NOT NULL,
    revoked_at           TIMESTAMP(6),
    CONSTRAINT pk_user_task_guest_sessions PRIMARY KEY (id),
    CONSTRAINT fk_sessions_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_sessions_token ON user_task_guest_sessions (token_hash)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_sessions_task ON user_task_guest_sessions (tenant_id, task_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_sessions_expiry ON user_task_guest_sessions (expires_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_sessions_revoked ON user_task_guest_sessions (revoked_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_sessions_invitation_fk ON user_task_guest_sessions (invitation_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_leases (
    lease_name       VARCHAR2(128 CHAR) NOT NULL,
    lease_owner      VARCHAR2(128 CHAR) NOT NULL,
    lease_token      VARCHAR2(36 CHAR)  NOT NULL,
    lease_generation NUMBER(19)         NOT NULL,
    lease_expires_at TIMESTAMP(6)       NOT NULL,
    updated_at       TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_leases PRIMARY KEY (lease_name)
)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_tenants (
    tenant_id  VARCHAR2(64 CHAR) NOT NULL,
    open_tasks NUMBER(10)        NOT NULL,
    updated_at TIMESTAMP(6)      NOT NULL,
    CONSTRAINT pk_user_task_tenants PRIMARY KEY (tenant_id)
)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_tenants PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_leases PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_guest_sessions PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_deliveries PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_invitations PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_resumptions PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_operations PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_events PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_exclusions PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_candidates PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_tags PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_tasks PURGE
-- +goose StatementEnd
