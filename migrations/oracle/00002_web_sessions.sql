-- Browser sessions kept on the server: the logical table of sqlite/00002_web_sessions.sql
-- (stated in schema.go, checked by parity_test.go against this text). As in 00001: no
-- transaction (Oracle DDL commits implicitly), one statement per goose block without a trailing
-- semicolon, unquoted identifiers of at most 30 characters, VARCHAR2 lengths in characters,
-- CLOB for TEXT, NUMBER(1) for booleans, TIMESTAMP(6) holding UTC.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_web_sessions (
    id_hash              VARCHAR2(64 CHAR)  NOT NULL,
    tenant_id            VARCHAR2(64 CHAR)  NOT NULL,
    subject_provider     VARCHAR2(64 CHAR)  NOT NULL,
    subject_id           VARCHAR2(255 CHAR) NOT NULL,
    display_name         VARCHAR2(256 CHAR),
    groups_json          CLOB               NOT NULL,
    permissions_json     CLOB               NOT NULL,
    is_manager           NUMBER(1)          NOT NULL,
    via                  VARCHAR2(8 CHAR)   NOT NULL,
    refresh_token_enc    CLOB,
    time_zone            VARCHAR2(64 CHAR),
    idle_timeout_seconds NUMBER(10)         NOT NULL,
    created_at           TIMESTAMP(6)       NOT NULL,
    last_seen_at         TIMESTAMP(6)       NOT NULL,
    refreshed_at         TIMESTAMP(6)       NOT NULL,
    expires_at           TIMESTAMP(6)       NOT NULL,
    idle_expires_at      TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_web_sessions PRIMARY KEY (id_hash)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_web_sessions_subject ON user_task_web_sessions (tenant_id, subject_provider, subject_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_web_sessions_expiry ON user_task_web_sessions (expires_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_web_sessions_idle ON user_task_web_sessions (idle_expires_at)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_web_sessions PURGE
-- +goose StatementEnd
