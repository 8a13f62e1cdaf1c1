-- Notes a page keeps on the server for the GET that follows its POST (Post/Redirect/Get) when
-- they are too large for a cookie: the outcome of every item of a bulk action, for example. A
-- note belongs to one browser session (session_hash is the session's id_hash, without a foreign
-- key: the note is read only together with a live session) and is found only before expires_at;
-- the session sweep deletes expired notes through the expiry index. body is JSON of safe fields
-- only (task ids, titles, outcomes), never protected content.

-- +goose Up
CREATE TABLE user_task_web_notes (
    id           VARCHAR(36) NOT NULL PRIMARY KEY,
    session_hash VARCHAR(64) NOT NULL,
    body         TEXT        NOT NULL,
    created_at   TIMESTAMP   NOT NULL,
    expires_at   TIMESTAMP   NOT NULL
);
CREATE INDEX ix_web_notes_expiry ON user_task_web_notes (expires_at);

-- +goose Down
DROP TABLE user_task_web_notes;
