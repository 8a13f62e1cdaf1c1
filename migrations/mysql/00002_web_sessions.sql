-- Browser sessions kept on the server: the logical table of sqlite/00002_web_sessions.sql
-- (stated in schema.go, checked by parity_test.go). InnoDB, utf8mb4 with the binary collation
-- like every table of 00001; the widest key (the subject index) needs 1,532 of 3,072 bytes.

-- +goose Up
CREATE TABLE user_task_web_sessions (
    id_hash              VARCHAR(64)  NOT NULL,
    tenant_id            VARCHAR(64)  NOT NULL,
    subject_provider     VARCHAR(64)  NOT NULL,
    subject_id           VARCHAR(255) NOT NULL,
    display_name         VARCHAR(256),
    groups_json          LONGTEXT     NOT NULL,
    permissions_json     LONGTEXT     NOT NULL,
    is_manager           TINYINT(1)   NOT NULL,
    via                  VARCHAR(8)   NOT NULL,
    refresh_token_enc    LONGTEXT,
    time_zone            VARCHAR(64),
    idle_timeout_seconds INT          NOT NULL,
    created_at           DATETIME(6)  NOT NULL,
    last_seen_at         DATETIME(6)  NOT NULL,
    refreshed_at         DATETIME(6)  NOT NULL,
    expires_at           DATETIME(6)  NOT NULL,
    idle_expires_at      DATETIME(6)  NOT NULL,
    PRIMARY KEY (id_hash),
    INDEX ix_web_sessions_subject (tenant_id, subject_provider, subject_id),
    INDEX ix_web_sessions_expiry (expires_at),
    INDEX ix_web_sessions_idle (idle_expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE user_task_web_sessions;
