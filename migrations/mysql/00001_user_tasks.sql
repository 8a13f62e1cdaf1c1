-- v1 schema of User Tasks for MySQL / MariaDB: the logical schema of sqlite/00001_user_tasks.sql
-- (stated in schema.go, checked by parity_test.go). Every table is InnoDB, utf8mb4 with the binary
-- collation, so participant ids, tags and tokens compare case-sensitively. Timestamps are
-- DATETIME(6) holding UTC; booleans TINYINT(1). Indexes are declared inside CREATE TABLE so that
-- each foreign key finds its index there and InnoDB adds none of its own. Every index key fits
-- the 3,072-byte InnoDB limit at 4 bytes per character (keysize_test.go).

-- +goose Up
CREATE TABLE user_tasks (
    id                          VARCHAR(36)   NOT NULL,
    tenant_id                   VARCHAR(64)   NOT NULL,
    workflow_definition_id      VARCHAR(128)  NOT NULL,
    workflow_definition_name    VARCHAR(256),
    workflow_definition_version INT,
    workflow_instance_id        VARCHAR(128)  NOT NULL,
    workflow_instance_reference VARCHAR(256),
    activity_instance_id        VARCHAR(128)  NOT NULL,
    bookmark_id                 VARCHAR(128)  NOT NULL,
    materialization_key         VARCHAR(330)  NOT NULL,
    title                       VARCHAR(512)  NOT NULL,
    summary                     VARCHAR(2000),
    reference                   VARCHAR(256),
    task_type                   VARCHAR(128),
    tags                        VARCHAR(2200),
    search_text                 LONGTEXT      NOT NULL,
    requester_provider          VARCHAR(64),
    requester_type              VARCHAR(8),
    requester_id                VARCHAR(255),
    requester_display           VARCHAR(256),
    priority                    INT           NOT NULL,
    due_at                      DATETIME(6),
    is_overdue                  TINYINT(1)    NOT NULL,
    status                      VARCHAR(16)   NOT NULL,
    created_at                  DATETIME(6)   NOT NULL,
    updated_at                  DATETIME(6)   NOT NULL,
    assigned_at                 DATETIME(6),
    completed_at                DATETIME(6),
    transitioned_at             DATETIME(6),
    assignee_provider           VARCHAR(64),
    assignee_type               VARCHAR(8),
    assignee_id                 VARCHAR(255),
    assignee_display            VARCHAR(256),
    membership_mode             VARCHAR(16)   NOT NULL,
    allow_exclusion_override    TINYINT(1)    NOT NULL,
    candidate_users             INT           NOT NULL,
    candidate_groups            INT           NOT NULL,
    actions_json                LONGTEXT      NOT NULL,
    timeout_enabled             TINYINT(1)    NOT NULL,
    cancellation_enabled        TINYINT(1)    NOT NULL,
    health_severity             VARCHAR(16),
    health_code                 VARCHAR(64),
    health_message              VARCHAR(512),
    instructions_enc            LONGTEXT,
    task_data_enc               LONGTEXT,
    form_enc                    LONGTEXT,
    invitation_defs_enc         LONGTEXT,
    completion_data_enc         LONGTEXT,
    completion_action_key       VARCHAR(64),
    completed_by_provider       VARCHAR(64),
    completed_by_type           VARCHAR(8),
    completed_by_id             VARCHAR(255),
    completed_by_display        VARCHAR(256),
    revision                    INT           NOT NULL,
    last_event_seq              INT           NOT NULL,
    PRIMARY KEY (id),
    UNIQUE INDEX ux_tasks_materialization (tenant_id, materialization_key),
    UNIQUE INDEX ux_tasks_bookmark (tenant_id, bookmark_id),
    INDEX ix_tasks_status_created (tenant_id, status, created_at, id),
    INDEX ix_tasks_assignee (tenant_id, assignee_provider, assignee_type, assignee_id, status),
    INDEX ix_tasks_completed_by (tenant_id, completed_by_provider, completed_by_type, completed_by_id),
    INDEX ix_tasks_priority (tenant_id, priority, id),
    INDEX ix_tasks_due (tenant_id, due_at, id),
    INDEX ix_tasks_created (tenant_id, created_at, id),
    INDEX ix_tasks_updated (tenant_id, updated_at, id),
    INDEX ix_tasks_completed (tenant_id, completed_at, id),
    INDEX ix_tasks_title (tenant_id, title, id),
    INDEX ix_tasks_definition (tenant_id, workflow_definition_id),
    INDEX ix_tasks_instance (tenant_id, workflow_instance_id),
    INDEX ix_tasks_activity (tenant_id, activity_instance_id),
    INDEX ix_tasks_health (tenant_id, health_severity, health_code),
    INDEX ix_tasks_overdue (tenant_id, is_overdue, status),
    INDEX ix_tasks_transition (status, transitioned_at),
    INDEX ix_tasks_due_sweep (status, due_at, id),
    INDEX ix_tasks_revision (tenant_id, updated_at, revision)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_tags (
    task_id   VARCHAR(36) NOT NULL,
    tag       VARCHAR(64) NOT NULL,
    tenant_id VARCHAR(64) NOT NULL,
    PRIMARY KEY (task_id, tag),
    INDEX ix_tags_tenant_tag (tenant_id, tag, task_id),
    CONSTRAINT fk_tags_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_candidates (
    id                    VARCHAR(36)  NOT NULL,
    tenant_id             VARCHAR(64)  NOT NULL,
    task_id               VARCHAR(36)  NOT NULL,
    provider              VARCHAR(64)  NOT NULL,
    participant_type      VARCHAR(8)   NOT NULL,
    participant_id        VARCHAR(255) NOT NULL,
    display_name          VARCHAR(256),
    source                VARCHAR(32)  NOT NULL,
    source_key            VARCHAR(64)  NOT NULL,
    source_group_provider VARCHAR(64),
    source_group_id       VARCHAR(255),
    task_status           VARCHAR(16)  NOT NULL,
    created_at            DATETIME(6)  NOT NULL,
    updated_at            DATETIME(6)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE INDEX ux_candidates_identity (tenant_id, task_id, provider, participant_type, participant_id, source, source_key),
    INDEX ix_candidates_lookup (tenant_id, provider, participant_type, participant_id, task_status, task_id),
    INDEX ix_candidates_task (task_id),
    CONSTRAINT fk_candidates_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_exclusions (
    id               VARCHAR(36)  NOT NULL,
    tenant_id        VARCHAR(64)  NOT NULL,
    task_id          VARCHAR(36)  NOT NULL,
    provider         VARCHAR(64)  NOT NULL,
    participant_type VARCHAR(8)   NOT NULL,
    participant_id   VARCHAR(255) NOT NULL,
    display_name     VARCHAR(256),
    created_at       DATETIME(6)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE INDEX ux_exclusions_identity (tenant_id, task_id, provider, participant_type, participant_id),
    INDEX ix_exclusions_lookup (tenant_id, provider, participant_type, participant_id),
    INDEX ix_exclusions_task_fk (task_id),
    CONSTRAINT fk_exclusions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_events (
    id             VARCHAR(36)   NOT NULL,
    tenant_id      VARCHAR(64)   NOT NULL,
    task_id        VARCHAR(36)   NOT NULL,
    seq            INT           NOT NULL,
    revision       INT           NOT NULL,
    event_type     VARCHAR(48)   NOT NULL,
    occurred_at    DATETIME(6)   NOT NULL,
    operation_id   VARCHAR(128),
    actor_provider VARCHAR(64),
    actor_type     VARCHAR(8),
    actor_id       VARCHAR(255),
    actor_display  VARCHAR(256),
    reason         VARCHAR(1000),
    metadata       VARCHAR(4000),
    PRIMARY KEY (id),
    UNIQUE INDEX ux_events_seq (task_id, seq),
    INDEX ix_events_actor (tenant_id, actor_provider, actor_type, actor_id, task_id),
    INDEX ix_events_occurred (tenant_id, occurred_at),
    CONSTRAINT fk_events_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_operations (
    id                VARCHAR(36)   NOT NULL,
    tenant_id         VARCHAR(64)   NOT NULL,
    task_id           VARCHAR(36)   NOT NULL,
    operation_id      VARCHAR(128)  NOT NULL,
    kind              VARCHAR(32)   NOT NULL,
    expected_revision INT           NOT NULL,
    request_hash      VARCHAR(64)   NOT NULL,
    state             VARCHAR(16)   NOT NULL,
    attempts          INT           NOT NULL,
    action_key        VARCHAR(64),
    reason            VARCHAR(1000),
    actor_provider    VARCHAR(64),
    actor_type        VARCHAR(8),
    actor_id          VARCHAR(255),
    actor_display     VARCHAR(256),
    result_json       VARCHAR(4000),
    payload_enc       LONGTEXT,
    created_at        DATETIME(6)   NOT NULL,
    updated_at        DATETIME(6)   NOT NULL,
    completed_at      DATETIME(6),
    PRIMARY KEY (id),
    UNIQUE INDEX ux_operations_key (tenant_id, task_id, operation_id),
    INDEX ix_operations_pending (state, updated_at),
    INDEX ix_operations_task_fk (task_id),
    CONSTRAINT fk_operations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_resumptions (
    id               VARCHAR(36)  NOT NULL,
    tenant_id        VARCHAR(64)  NOT NULL,
    task_id          VARCHAR(36)  NOT NULL,
    operation_id     VARCHAR(128) NOT NULL,
    kind             VARCHAR(32)  NOT NULL,
    state            VARCHAR(16)  NOT NULL,
    attempts         INT          NOT NULL,
    available_at     DATETIME(6)  NOT NULL,
    last_error       VARCHAR(64),
    lease_owner      VARCHAR(128),
    lease_token      VARCHAR(36),
    lease_generation BIGINT       NOT NULL,
    lease_expires_at DATETIME(6),
    created_at       DATETIME(6)  NOT NULL,
    updated_at       DATETIME(6)  NOT NULL,
    delivered_at     DATETIME(6),
    PRIMARY KEY (id),
    UNIQUE INDEX ux_resumptions_operation (tenant_id, task_id, operation_id),
    INDEX ix_resumptions_due (state, available_at, id),
    INDEX ix_resumptions_task_fk (task_id),
    CONSTRAINT fk_resumptions_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_invitations (
    id                 VARCHAR(36)   NOT NULL,
    tenant_id          VARCHAR(64)   NOT NULL,
    task_id            VARCHAR(36)   NOT NULL,
    sibling_group_id   VARCHAR(36),
    verifier_name      VARCHAR(64)   NOT NULL,
    allowed_actions    VARCHAR(2000) NOT NULL,
    bearer_only        TINYINT(1)    NOT NULL,
    recipient_enc      LONGTEXT,
    token_hash         VARCHAR(64)   NOT NULL,
    code_hash          VARCHAR(64),
    code_attempts      INT           NOT NULL,
    status             VARCHAR(16)   NOT NULL,
    issued_by_provider VARCHAR(64),
    issued_by_type     VARCHAR(8),
    issued_by_id       VARCHAR(255),
    issued_at          DATETIME(6)   NOT NULL,
    expires_at         DATETIME(6)   NOT NULL,
    dispatched_at      DATETIME(6),
    verified_at        DATETIME(6),
    consumed_at        DATETIME(6),
    revoked_at         DATETIME(6),
    updated_at         DATETIME(6)   NOT NULL,
    PRIMARY KEY (id),
    UNIQUE INDEX ux_invitations_token (token_hash),
    INDEX ix_invitations_task (tenant_id, task_id, status),
    INDEX ix_invitations_expiry (status, expires_at),
    INDEX ix_invitations_task_fk (task_id),
    CONSTRAINT fk_invitations_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_deliveries (
    id               VARCHAR(36)   NOT NULL,
    tenant_id        VARCHAR(64)   NOT NULL,
    task_id          VARCHAR(36)   NOT NULL,
    invitation_id    VARCHAR(36)   NOT NULL,
    dispatcher       VARCHAR(64)   NOT NULL,
    payload_enc      LONGTEXT      NOT NULL,
    metadata         VARCHAR(4000),
    attempts         INT           NOT NULL,
    state            VARCHAR(16)   NOT NULL,
    available_at     DATETIME(6)   NOT NULL,
    expires_at       DATETIME(6)   NOT NULL,
    last_error       VARCHAR(64),
    idempotency_key  VARCHAR(128)  NOT NULL,
    lease_owner      VARCHAR(128),
    lease_token      VARCHAR(36),
    lease_generation BIGINT        NOT NULL,
    lease_expires_at DATETIME(6),
    created_at       DATETIME(6)   NOT NULL,
    updated_at       DATETIME(6)   NOT NULL,
    PRIMARY KEY (id),
    UNIQUE INDEX ux_deliveries_idempotency (tenant_id, idempotency_key),
    INDEX ix_deliveries_due (state, available_at, id),
    INDEX ix_deliveries_task (tenant_id, task_id),
    INDEX ix_deliveries_invitation_fk (invitation_id),
    CONSTRAINT fk_deliveries_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_guest_sessions (
    id                   VARCHAR(36)   NOT NULL,
    tenant_id            VARCHAR(64)   NOT NULL,
    task_id              VARCHAR(36)   NOT NULL,
    invitation_id        VARCHAR(36)   NOT NULL,
    token_hash           VARCHAR(64)   NOT NULL,
    participant_provider VARCHAR(64)   NOT NULL,
    participant_id       VARCHAR(255)  NOT NULL,
    capabilities         VARCHAR(2000) NOT NULL,
    issued_at            DATETIME(6)   NOT NULL,
    expires_at           DATETIME(6)   NOT NULL,
    revoked_at           DATETIME(6),
    PRIMARY KEY (id),
    UNIQUE INDEX ux_sessions_token (token_hash),
    INDEX ix_sessions_task (tenant_id, task_id),
    INDEX ix_sessions_expiry (expires_at),
    INDEX ix_sessions_revoked (revoked_at),
    INDEX ix_sessions_invitation_fk (invitation_id),
    CONSTRAINT fk_sessions_invitation FOREIGN KEY (invitation_id) REFERENCES user_task_invitations (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_leases (
    lease_name       VARCHAR(128) NOT NULL,
    lease_owner      VARCHAR(128) NOT NULL,
    lease_token      VARCHAR(36)  NOT NULL,
    lease_generation BIGINT       NOT NULL,
    lease_expires_at DATETIME(6)  NOT NULL,
    updated_at       DATETIME(6)  NOT NULL,
    PRIMARY KEY (lease_name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_tenants (
    tenant_id  VARCHAR(64) NOT NULL,
    open_tasks INT         NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    PRIMARY KEY (tenant_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

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
