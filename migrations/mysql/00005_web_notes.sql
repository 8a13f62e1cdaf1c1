-- Notes a page keeps on the server for the GET after its POST: the logical table of
-- sqlite/00003_web_notes.sql (stated in schema.go, checked by parity_test.go). InnoDB, utf8mb4
-- with the binary collation like every table of 00001.

-- +goose Up
CREATE TABLE user_task_web_notes (
    id           VARCHAR(36) NOT NULL,
    session_hash VARCHAR(64) NOT NULL,
    body         LONGTEXT    NOT NULL,
    created_at   DATETIME(6) NOT NULL,
    expires_at   DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    INDEX ix_web_notes_expiry (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE user_task_web_notes;
