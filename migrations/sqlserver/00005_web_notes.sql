-- Notes a page keeps on the server for the GET after its POST: the logical table of
-- sqlite/00003_web_notes.sql (stated in schema.go, checked by parity_test.go against this text).
-- NVARCHAR with the binary collation, DATETIME2(6) in UTC, as in 00001.

-- +goose Up
CREATE TABLE user_task_web_notes (
    id           NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    session_hash NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    body         NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2 NOT NULL,
    created_at   DATETIME2(6)                                  NOT NULL,
    expires_at   DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_web_notes PRIMARY KEY (id)
);
CREATE INDEX ix_web_notes_expiry ON user_task_web_notes (expires_at);

-- +goose Down
DROP TABLE user_task_web_notes;
