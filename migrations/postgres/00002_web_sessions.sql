-- Browser sessions kept on the server: the logical table of sqlite/00002_web_sessions.sql
-- (stated in schema.go, checked by parity_test.go).

-- +goose Up
CREATE TABLE user_task_web_sessions (
    id_hash              VARCHAR(64)                 NOT NULL,
    tenant_id            VARCHAR(64)                 NOT NULL,
    subject_provider     VARCHAR(64)                 NOT NULL,
    subject_id           VARCHAR(255)                NOT NULL,
    display_name         VARCHAR(256),
    groups_json          TEXT                        NOT NULL,
    permissions_json     TEXT                        NOT NULL,
    is_manager           BOOLEAN                     NOT NULL,
    via                  VARCHAR(8)                  NOT NULL,
    refresh_token_enc    TEXT,
    time_zone            VARCHAR(64),
    idle_timeout_seconds INTEGER                     NOT NULL,
    created_at           TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    last_seen_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    refreshed_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at           TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    idle_expires_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_web_sessions PRIMARY KEY (id_hash)
);
CREATE INDEX ix_web_sessions_subject ON user_task_web_sessions (tenant_id, subject_provider, subject_id);
CREATE INDEX ix_web_sessions_expiry ON user_task_web_sessions (expires_at);
CREATE INDEX ix_web_sessions_idle ON user_task_web_sessions (idle_expires_at);

-- +goose Down
DROP TABLE user_task_web_sessions;
