-- Browser sessions kept on the server: the logical table of sqlite/00002_web_sessions.sql
-- (stated in schema.go, checked by parity_test.go against this text). NVARCHAR with the binary
-- collation, DATETIME2(6) in UTC, BIT booleans, as in 00001. The widest key (the subject index)
-- needs 766 of 1,700 bytes; the clustered primary key 128 of 900.

-- +goose Up
CREATE TABLE user_task_web_sessions (
    id_hash              NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    tenant_id            NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    subject_provider     NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    subject_id           NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    display_name         NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    groups_json          NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2 NOT NULL,
    permissions_json     NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2 NOT NULL,
    is_manager           BIT                                           NOT NULL,
    via                  NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    refresh_token_enc    NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    time_zone            NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    idle_timeout_seconds INT                                           NOT NULL,
    created_at           DATETIME2(6)                                  NOT NULL,
    last_seen_at         DATETIME2(6)                                  NOT NULL,
    refreshed_at         DATETIME2(6)                                  NOT NULL,
    expires_at           DATETIME2(6)                                  NOT NULL,
    idle_expires_at      DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_web_sessions PRIMARY KEY (id_hash)
);
CREATE INDEX ix_web_sessions_subject ON user_task_web_sessions (tenant_id, subject_provider, subject_id);
CREATE INDEX ix_web_sessions_expiry ON user_task_web_sessions (expires_at);
CREATE INDEX ix_web_sessions_idle ON user_task_web_sessions (idle_expires_at);

-- +goose Down
DROP TABLE user_task_web_sessions;
