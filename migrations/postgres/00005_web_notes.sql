-- Notes a page keeps on the server for the GET after its POST: the logical table of
-- sqlite/00003_web_notes.sql (stated in schema.go, checked by parity_test.go).

-- +goose Up
CREATE TABLE user_task_web_notes (
    id           VARCHAR(36)                 NOT NULL,
    session_hash VARCHAR(64)                 NOT NULL,
    body         TEXT                        NOT NULL,
    created_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_web_notes PRIMARY KEY (id)
);
CREATE INDEX ix_web_notes_expiry ON user_task_web_notes (expires_at);

-- +goose Down
DROP TABLE user_task_web_notes;
