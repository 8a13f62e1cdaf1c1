-- Notes a page keeps on the server for the GET after its POST: the logical table of
-- sqlite/00003_web_notes.sql (stated in schema.go, checked by parity_test.go against this text).
-- As in 00001: no transaction (Oracle DDL commits implicitly), one statement per goose block
-- without a trailing semicolon, VARCHAR2 lengths in characters, CLOB for TEXT, TIMESTAMP(6)
-- holding UTC.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_web_notes (
    id           VARCHAR2(36 CHAR) NOT NULL,
    session_hash VARCHAR2(64 CHAR) NOT NULL,
    body         CLOB              NOT NULL,
    created_at   TIMESTAMP(6)      NOT NULL,
    expires_at   TIMESTAMP(6)      NOT NULL,
    CONSTRAINT pk_user_task_web_notes PRIMARY KEY (id)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_web_notes_expiry ON user_task_web_notes (expires_at)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_web_notes PURGE
-- +goose StatementEnd
